// Filter and order fields that do not fit the resource: found once the modifiers parse.
local base = import '_base.libsonnet';
base {
  resources: [
    base.resources[0] {
      fields+: [{ name: 'maker_id', type: 'uuid' }, { name: 'extra', type: 'json' }, { name: 'state', type: 'enum', enum: 'shop.models.State' }, { name: 'kind', type: 'enum', enum: 'shop.models.Kind' }],
      operations: [
        'get',
        {
          name: 'list',
          modifiers: [
            { type: 'filter', fields: [
              { name: 'title', values: 'bool' },
              { name: 'price', values: 'literal', operators: ['contains'] },
              { name: 'maker_id', values: 'ref', ref_resource: 'maker' },
              { name: 'id', values: 'self' },
              { name: 'extra', values: 'free_text' },
              { name: 'state', values: 'free_text' },
              { name: 'kind', values: 'enum', enum: 'shop.models.State' },
            ] },
            { type: 'order', fields: ['weight', 'extra'] },
          ],
        },
        { name: 'search', type: 'action', fn: 'shop.actions.search', target: 'collection' },
      ],
    },
  ],
}
