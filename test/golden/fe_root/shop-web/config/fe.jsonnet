// The `fe` target's config: `codegen generate --target fe --config config/fe.jsonnet --out .`
// writes openapi-ts.config.ts and the pages (src/generated/) from it; `npm run openapi-ts`
// then writes the typed client the pages call. Both read openapi.json, the backend's
// OpenAPI document saved in this project (see README.md).
{
  input: 'openapi.json',
  output: 'src/client',
  // The client calls /api/..., which the dev server passes to the backend (vite.config.ts).
  base_url: '/api',
  tanstack_query: true,
  pages: {
    // importstr, not import: the document's text keeps the order of every schema's fields.
    openapi: importstr '../openapi.json',
    title: "Shop",
    // Per resource (by collection path): label, plural, title_field, columns, page_size, fields.
    resources: {},
  },
}
