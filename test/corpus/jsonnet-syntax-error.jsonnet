{
  module: 'catalog',
  resources: [,],
}
