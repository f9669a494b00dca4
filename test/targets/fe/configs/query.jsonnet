// Every key of fe's ProjectConfig set.
{
  input: 'http://127.0.0.1:8000/openapi.json',
  output: 'src/api',
  client: '@hey-api/client-axios',
  base_url: '/api',
  tanstack_query: true,
}
