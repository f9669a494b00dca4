local base = import '_base.libsonnet';
base { resources: [base.resources[0] { route_prefix: '/things' }, base.resources[0] { model: 'shop.models.Thing', route_prefix: '/things' }] }
