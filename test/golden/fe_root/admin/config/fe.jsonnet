// The `fe` target's config: `codegen generate --target fe --config config/fe.jsonnet --out .`
// writes openapi-ts.config.ts and the pages (src/generated/) from it; `npm run openapi-ts`
// then writes the typed client the pages call. Both read openapi.json, the backend's
// OpenAPI document saved in this project (see README.md).
{
  input: 'openapi.json',
  output: 'src/client',
  // The client calls /backend/v1/..., which the dev server passes to the backend (vite.config.ts).
  base_url: '/backend/v1',
  tanstack_query: false,
}
