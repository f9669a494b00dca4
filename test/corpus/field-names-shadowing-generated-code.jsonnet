local base = import '_base.libsonnet';
base {
  resources: [
    base.resources[0] {
      fields+: [
        { name: 'int', type: 'int' },
        { name: 'Annotated', type: 'str' },
        { name: '__class__', type: 'str' },
        { name: 'uuid', type: 'uuid' },
      ],
    },
    base.resources[0] { model: 'shop.models.product', name: 'item' },
    base.resources[0] { model: 'shop.models.Stock_Item', name: 'stock' },
  ],
}
