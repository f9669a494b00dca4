// Every key of fe_root's RootConfig set, TanStack Query left out.
{
  name: '@acme/admin',
  title: 'Acme admin',
  backend_url: 'https://api.example.com:8443',
  api_prefix: '/backend/v1',
  port: 3000,
  tanstack_query: false,
  node_version: '20',
}
