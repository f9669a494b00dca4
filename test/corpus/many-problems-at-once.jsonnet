local base = import '_base.libsonnet';
base { generate_tests: 1, resources: [base.resources[0] { model: 'Product', fields: [{ name: 'class', type: 'text' }] }] }
