// The blog as two apps: content (authors, articles, tags, categories) under /content and
// community (comments) under /community, mounted by a top-level router.
local db = import 'be/db/databases.libsonnet';
local r = import 'resources.libsonnet';

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  apps: [
    { config: { module: 'content', resources: [r.author, r.article, r.tag, r.category] }, prefix: '/content' },
    // Comments refer to articles and authors, which this app does not serve.
    { config: { module: 'community', resources: [r.withoutReferences(r.comment)] }, prefix: '/community' },
  ],
}
