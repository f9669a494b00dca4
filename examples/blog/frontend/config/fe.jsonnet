// The blog's pages: everything about the backend comes from openapi.json (the document of
// config/frontend.jsonnet's backend); this file only says how it reads.
{
  input: 'openapi.json',
  output: 'src/client',
  base_url: '/api',
  tanstack_query: true,
  pages: {
    openapi: importstr '../openapi.json',
    title: 'Blog',
    navigation: ['articles', 'authors', 'tags', 'categories', 'comments'],
    resources: {
      articles: {
        columns: ['title', 'author', 'published', 'rating'],
        page_size: 10,
        fields: { body: { multiline: true }, author_id: { label: 'Written by' } },
        // Publishing is seen by readers at once: ask first.
        actions: { 'publish-article': { confirm: true } },
      },
      comments: { title_field: 'body', fields: { body: { multiline: true } } },
    },
  },
}
