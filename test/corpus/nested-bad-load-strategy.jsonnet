local base = import '_base.libsonnet';
base { resources: [base.resources[0] { fields: [{ name: 'id', type: 'uuid' }, { name: 'maker', type: 'nested', model: 'shop.models.Maker', fields: [{ name: 'id', type: 'uuid' }], load: 'eager' }], operations: ['get'] }] }
