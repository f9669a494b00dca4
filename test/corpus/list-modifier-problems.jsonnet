// Problems of list modifiers, found by the operations' validation and reported together.
local base = import '_base.libsonnet';
base {
  resources: [
    base.resources[0] {
      fields+: [{ name: 'maker_id', type: 'uuid' }, { name: 'in_stock', type: 'bool' }],
      operations: [
        { name: 'get', modifiers: [{ type: 'order', fields: ['title'] }] },
        {
          name: 'list',
          modifiers: [
            { type: 'filter', fields: [
              { name: 'title', values: 'bool' },
              { name: 'price', values: 'literal', operators: ['contains'] },
              { name: 'maker_id', values: 'ref', ref_resource: 'maker' },
              { name: 'in_stock', values: 'enum' },
              { name: 'limit', values: 'free_text' },
            ] },
            { type: 'order', fields: ['weight'], default: 'title' },
            { type: 'paginate', default_page_size: 500 },
            { type: 'paginate' },
            { type: 'sort' },
          ],
        },
      ],
    },
  ],
}
