local base = import '_base.libsonnet';
base { resources: [base.resources[0] { fields: [{ name: 'id', type: 'uuid' }, { name: 'title', type: 'string' }] }] }
