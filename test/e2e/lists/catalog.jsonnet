// The list test project: every filter kind and operator, orders with ties and NULLs,
// keyset and offset pages, trigram and full-text search, links and discovery; a short
// statement timeout, which a test makes a list wait past.
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';
local l = import 'be/lists.libsonnet';

{
  package_prefix: 'catalog.api',
  module: 'shop',
  databases: [db.postgres('primary', { default: true, statement_timeout: 3 })],
  resources: [
    {
      model: 'catalog.models.Maker',
      fields: [f.uuid('id'), f.str('name'), f.str('country')],
      link: { name: 'name' },
      search: { fields: ['name'], strategy: 'trigram' },
      operations: [
        'get',
        {
          name: 'list',
          modifiers: [
            l.filter([l.freeText('country', ['eq', 'in'])]),
            l.order(['name', 'country'], default='name'),
            l.offset(page_size=2, max=10),
          ],
        },
        'create',
      ],
    },
    {
      model: 'catalog.models.Product',
      fields: [
        f.uuid('id'),
        f.str('name'),
        f.str('description'),
        f.str('status'),
        f.bool('in_stock'),
        f.float('price', { nullable: true }),
        f.int('rating'),
        f.date('released_on'),
        f.datetime('created_at'),
        f.str('sku'),
        f.str('note', { nullable: true }),
        f.uuid('maker_id', { references: 'maker' }),
        f.link('maker', 'maker'),
        f.nested('reviews', 'catalog.models.Review', [f.int('id'), f.int('stars')], many=true),
      ],
      link: { name: 'name' },
      search: { fields: ['name', 'description'], strategy: 'full_text', language: 'english' },
      operations: [
        'get',
        l.searchable(
          filters=[
            l.freeText('name', ['eq', 'neq', 'contains', 'starts_with', 'in']),
            l.freeText('note', ['eq', 'contains', 'starts_with', 'is_null']),
            l.enum('status', 'catalog.models.Status', ['eq', 'neq', 'in']),
            l.bool('in_stock', ['eq', 'neq']),
            l.literal('price', ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is_null']),
            l.literal('rating', ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in']),
            l.literal('released_on', ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in']),
            l.literal('created_at', ['eq', 'gt', 'gte', 'lt', 'lte']),
            l.literal('sku', ['eq', 'contains', 'starts_with']),
            l.ref('maker_id', 'maker', ['eq', 'neq', 'in']),
            l.selfRef('id', ['eq', 'neq', 'in']),
          ],
          order=['rating', 'price', 'name', 'created_at', 'released_on'],
          page_size=10,
        ),
        'create',
        'delete',
      ],
    },
    {
      model: 'catalog.models.Review',
      pk_type: 'int',
      fields: [f.int('id'), f.uuid('product_id', { references: 'product' }), f.int('stars')],
      operations: ['create', 'get', 'update', 'delete'],
    },
  ],
}
