local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: ['get', {
      name: 'publish_product',
      type: 'action',
      fn: 'shop.actions.publish',
      target: 'instance',
    }, {
      name: 'publishProduct',
      type: 'action',
      fn: 'shop.actions.publish_again',
      target: 'instance',
    }],
  }],
}
