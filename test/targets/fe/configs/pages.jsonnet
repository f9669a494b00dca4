// The blog example's pages (examples/blog/frontend/config/fe.jsonnet) from a saved copy of the
// authenticated blog backend's OpenAPI document: the golden tree shows every generated page.
{
  input: 'openapi.json',
  output: 'src/client',
  base_url: '/api',
  tanstack_query: true,
  pages: {
    openapi: importstr 'blog.openapi.json',
    title: 'Blog',
    navigation: ['articles', 'authors', 'tags', 'categories', 'comments'],
    resources: {
      articles: {
        columns: ['title', 'author', 'published', 'rating'],
        page_size: 10,
        fields: { body: { multiline: true }, author_id: { label: 'Written by' } },
      },
      comments: { title_field: 'body', fields: { body: { multiline: true } } },
    },
  },
}
