local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: ['get', {
      name: 'restock',
      type: 'action',
      fn: 'shop.actions.restock',
      target: 'instance',
      params: [{ name: 'supplier', type: 'nested', model: 'shop.models.Supplier', fields: [{ name: 'id', type: 'uuid' }] }],
    }],
  }],
}
