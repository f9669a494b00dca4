local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: ['get',
      { name: 'archive', type: 'action', fn: 'shop.actions.archive', target: 'collection' },
      { name: 'store', type: 'action', fn: 'shop.actions.store', target: 'collection', slug: 'archive' },
    ],
  }],
}
