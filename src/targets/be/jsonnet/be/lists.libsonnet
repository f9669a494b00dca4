// List helpers of the `be` target: modifiers of a `list` entry, and list presets.
//
//   local l = import 'be/lists.libsonnet';
//   operations: [
//     l.searchable(
//       filters=[l.freeText('title'), l.bool('published'), l.ref('author_id', 'author')],
//       order=['title', 'published_at'], default='published_at', dir='desc',
//     ),
//   ]
//
// Every helper returns plain config: `{ type: 'filter', fields: [...] }` and so on. The
// config schema validates the result, so a misspelt option is reported there with its path.
local field(name, values, operators, extra) =
  { name: name, values: values } + (if operators == null then {} else { operators: operators }) + extra;

{
  // Filter fields, by where their values come from. `operators` defaults per kind.
  freeText(name, operators=null):: field(name, 'free_text', operators, {}),
  bool(name, operators=null):: field(name, 'bool', operators, {}),
  enum(name, enum, operators=null):: field(name, 'enum', operators, { enum: enum }),
  ref(name, resource, operators=null):: field(name, 'ref', operators, { ref_resource: resource }),
  // A key of this resource's own rows (`values: 'self'`; `self` is a jsonnet keyword).
  selfRef(name='id', operators=null):: field(name, 'self', operators, {}),
  // `type` defaults to the type of the resource field of the same name.
  literal(name, operators=null, type=null):: field(name, 'literal', operators, if type == null then {} else { type: type }),

  // Modifiers.
  filter(fields):: { type: 'filter', fields: fields },
  order(fields, default=null, dir='asc')::
    { type: 'order', fields: fields, default_dir: dir } + (if default == null then {} else { default: default }),
  keyset(page_size=50, max=100):: { type: 'paginate', mode: 'keyset', default_page_size: page_size, max_page_size: max },
  offset(page_size=50, max=100):: { type: 'paginate', mode: 'offset', default_page_size: page_size, max_page_size: max },

  // A `list` entry with the given modifiers (skipping empty ones): filters, an order,
  // keyset pages of `page_size`. The resource's `search` gives it `?q=`.
  searchable(filters=[], order=[], default=null, dir='asc', page_size=50, max=100, name='list')::
    {
      name: name,
      type: 'list',
      modifiers: (if filters == [] then [] else [$.filter(filters)])
                 + (if order == [] then [] else [$.order(order, default, dir)])
                 + [$.keyset(page_size, max)],
    },
}
