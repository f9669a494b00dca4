// A small valid `be` config; each corpus case breaks it (or a copy of it) in one way.
{
  package_prefix: 'shop.api',
  module: 'catalog',
  resources: [
    {
      model: 'shop.models.Product',
      fields: [
        { name: 'id', type: 'uuid' },
        { name: 'title', type: 'str' },
        { name: 'price', type: 'float' },
      ],
      operations: ['get', 'list', 'create', 'update', 'delete'],
    },
  ],
}
