local base = import '_base.libsonnet';
base { resources: [base.resources[0] { operations: ['get', { name: 'restock', type: 'action', fn: 'shop..restock', target: 'instance' }] }] }
