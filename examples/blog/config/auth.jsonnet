// The single-app blog with JWT authentication: `codegen generate --target be --config
// config/auth.jsonnet` adds the auth/ package to blog/api. Run it with JWT_SECRET set
// (at least 32 bytes); get a token from POST /auth/token (ada / analytical-engine).
//
// Who needs a token:
// - categories are public (the resource sets require_auth: false);
// - anyone may read articles (get and list set require_auth: false), only users write them;
// - tags and the stateless count-words action are public through exclude_paths;
// - everything else needs a token. review_article receives the user (pass_user: true).
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local r = import 'resources.libsonnet';

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_credentials',
    token_lifetime_seconds: 900,
    issuer: 'blog',
    audience: 'blog-api',
    exclude_paths: ['/articles/count-words', '/tags*'],
  }),
  module: 'content',
  resources: [
    r.author,
    r.amendOperations(r.article, { get: { require_auth: false }, list: { require_auth: false } }) {
      operations+: [
        p.instanceAction('review_article', 'blog.actions.review_article', [], { pass_user: true }),
      ],
    },
    r.tag,
    r.comment,
    r.category { require_auth: false },
  ],
}
