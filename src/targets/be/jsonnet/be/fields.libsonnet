// Field helpers of the `be` target: each returns one FieldSpec object.
//
//   local f = import 'be/fields.libsonnet';
//   fields: [
//     f.uuid('id'),
//     f.str('title', { description: 'Headline' }),
//     f.datetime('published_at', { nullable: true }),
//     f.enum('status', 'blog.models.ArticleStatus', { default: 'draft' }),
//     f.nested('author', 'blog.models.Author', [f.uuid('id'), f.str('name')]),
//     f.nested('tags', 'blog.models.Tag', [f.str('label')], many=true),
//     f.nested('editor', 'blog.models.Author', [f.uuid('id')], nullable=true),
//     f.link('author', 'author'),  // { type, id, label } of the author resource's link
//   ] + f.timestamps()
//
// `opts` may hold nullable, required, default, description and references (the
// resource whose key the field holds, for generated tests); the config schema
// validates the result, so a misspelt option is reported there with its path.
// Helpers write only the keys the caller gives: every default is the schema's
// (docs/reference/be.md), declared once there.
local scalar(type) = function(name, opts={}) { name: name, type: type } + opts;

// `{ [key]: value }`, or `{}` when the caller left the argument out (null).
local given(key, value) = if value == null then {} else { [key]: value };

{
  // A related model dumped inline (get and list only). many: the relationship is a
  // collection; load: 'selectin' | 'joined' | 'subquery'; nullable: a single relation
  // that may be absent (answered as null). Left out, the schema's defaults apply (many
  // false, load 'selectin', nullable false).
  nested(name, model, fields, many=null, load=null, nullable=null, description=null):: {
    name: name,
    type: 'nested',
    model: model,
    fields: fields,
  } + given('many', many) + given('load', load) + given('nullable', nullable) + given('description', description),

  // The related row(s) of relationship `name` as link objects { type, id, label } of the
  // resource `resource` (which sets `link`). load defaults to 'joined' ('selectin' with many).
  link(name, resource, many=false, load=null):: {
    name: name,
    type: 'link',
    references: resource,
    many: many,
  } + given('load', load),

  // A field holding members of the Python Enum class at the dotted path `enum`.
  enum(name, enum, opts={}):: { name: name, type: 'enum', enum: enum } + opts,

  // The primary-key field `id`, typed `type` (kiln's helper, same arguments).
  id(type='uuid'):: { name: 'id', type: type },

  // `created_at` and `updated_at`, both datetime (kiln's helper): a list to concatenate.
  timestamps():: [{ name: 'created_at', type: 'datetime' }, { name: 'updated_at', type: 'datetime' }],

  uuid:: scalar('uuid'),
  str:: scalar('str'),
  email:: scalar('email'),
  int:: scalar('int'),
  float:: scalar('float'),
  bool:: scalar('bool'),
  datetime:: scalar('datetime'),
  date:: scalar('date'),
  json:: scalar('json'),
}
