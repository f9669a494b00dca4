local base = import '_base.libsonnet';
base { resources: [base.resources[0] { pk_type: 'int' }] }
