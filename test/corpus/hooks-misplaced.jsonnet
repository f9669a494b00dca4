local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: [
      { name: 'get', post: 'shop.hooks.notify', serializer: { fn: 'shop.hooks.card', schema: 'Card' } },
      { name: 'create', pre: 'stamp' },
      { name: 'delete', pre: 'shop.hooks.stamp', serializer: 'shop.hooks.card' },
    ],
  }],
}
