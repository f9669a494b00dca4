// List helper of the `be` target, with kiln's name and arguments: `searchable(fields,
// filter, order, paginate)` returns one `list` entry whose `modifiers` hold the modifiers
// given, each tagged with its `type`. Arguments left out add nothing.
//
//   local list = import 'be/operations/list.libsonnet';
//   operations: [list.searchable(fields=[f.uuid('id'), f.str('name')]), 'get'],
//
// `fields` make the read shape of a resource declared without `fields` (kiln's style);
// `filter`, `order` and `paginate` are the options of the list's modifiers of those types.
{
  searchable(fields=null, filter=null, order=null, paginate=null)::
    local modifiers = [
      { type: kind.type } + kind.options
      for kind in [
        { type: 'filter', options: filter },
        { type: 'order', options: order },
        { type: 'paginate', options: paginate },
      ]
      if kind.options != null
    ];
    { name: 'list' }
    + (if fields == null then {} else { fields: fields })
    + (if modifiers == [] then {} else { modifiers: modifiers }),
}
