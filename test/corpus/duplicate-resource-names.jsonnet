local base = import '_base.libsonnet';
base { resources: [base.resources[0] { name: 'item' }, base.resources[0] { model: 'shop.models.Item', name: 'item', route_prefix: '/stock' }] }
