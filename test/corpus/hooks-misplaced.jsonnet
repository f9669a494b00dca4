local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: [
      { name: 'get', post: 'shop.hooks.notify' },
      { name: 'create', pre: 'stamp', serializer: { fn: 'shop.hooks.card', schema: 'Card' } },
      { name: 'delete', pre: 'shop.hooks.stamp', serializer: 'shop.hooks.card' },
    ],
  }],
}
