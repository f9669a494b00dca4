local base = import '_base.libsonnet';
base { resources: [base.resources[0] { operations: ['get', { name: 'delete', fields: [{ name: 'id', type: 'uuid' }] }] }] }
