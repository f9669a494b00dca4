local base = import '_base.libsonnet';
base {
  resources: [base.resources[0] {
    operations: ['get', {
      name: 'update',
      fields: [{ name: 'maker', type: 'nested', model: 'shop.models.Maker', fields: [{ name: 'id', type: 'uuid' }] }],
    }],
  }],
}
