{
  module: 'catalog',
  databases: [db.postgres('main', { default: true })],
}
