// The single-app blog authenticated by a dependency of its own: `get_current_user_fn`
// replaces the generated JWT flow (no token endpoint, no signing key). Requests carry an
// API token, `Authorization: Bearer blog-demo-token-ada` (see blog/auth.py).
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local r = import 'resources.libsonnet';

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  auth: auth.jwt({
    get_current_user_fn: 'blog.auth.current_user',
    exclude_paths: ['/categories*'],
  }),
  module: 'content',
  resources: [
    r.author,
    r.article {
      operations+: [p.instanceAction('review_article', 'blog.actions.review_article', [], { pass_user: true })],
    },
    r.tag,
    r.comment,
    r.category,
  ],
}
