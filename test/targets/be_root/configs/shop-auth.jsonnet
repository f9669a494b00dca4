// Every key of be_root's RootConfig set, auth included.
{
  name: 'Shop-Backend',
  package: 'shop',
  package_prefix: 'shop.web',
  module: 'store',
  title: 'Shop API',
  python: '3.12',
  database_url_env: 'SHOP_DATABASE_URL',
  auth: true,
}
