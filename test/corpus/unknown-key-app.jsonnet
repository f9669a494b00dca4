{
  apps: [{ config: { module: 'catalog', resources: [{
      model: 'shop.models.Product',
      fields: [{ name: 'id', type: 'uuid' }, { name: 'title', type: 'str' }],
      operations: ['get', 'list'],
    }], extra: true } }],
}
