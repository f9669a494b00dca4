local base = import '_base.libsonnet';
base { resources: [base.resources[0] { operations: ['get', { name: 'publish', type: 'publish_now' }] }] }
