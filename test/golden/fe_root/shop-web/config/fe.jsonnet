// The `fe` target's config: `codegen generate --target fe --config config/fe.jsonnet --out .`
// writes openapi-ts.config.ts from it; `npm run openapi-ts` then writes the typed client.
{
  // The backend's OpenAPI document: its URL while it runs, or a file saved from it.
  input: 'http://127.0.0.1:8000/openapi.json',
  output: 'src/client',
  // The client calls /api/..., which the dev server passes to the backend (vite.config.ts).
  base_url: '/api',
  tanstack_query: true,
}
