// The list benchmark: one table served twice, by keyset pages and by offset pages, both
// ordered by a declared, non-unique field (rating) or by the key.
local f = import 'be/fields.libsonnet';
local l = import 'be/lists.libsonnet';

local item(name, prefix, pages) = {
  model: 'benchlist.models.Item',
  name: name,
  route_prefix: prefix,
  pk_type: 'int',
  fields: [f.int('id'), f.str('name'), f.int('rating'), f.datetime('created_at')],
  operations: [{ name: 'list', modifiers: [l.filter([l.literal('rating', ['eq', 'gte'])]), l.order(['rating', 'created_at']), pages] }],
};

{
  package_prefix: 'benchlist.api',
  module: 'store',
  resources: [
    item('item', '/items', l.keyset(page_size=20)),
    item('item_offset', '/items-offset', l.offset(page_size=20)),
  ],
}
