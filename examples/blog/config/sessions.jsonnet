// The single-app blog for a browser front end (docs/auth.md): the token endpoint also sets
// an HttpOnly session cookie, POST /auth/logout revokes a token (a deny-list in PostgreSQL),
// and a front end on http://app.blog.test may call the API with its cookies (CORS).
//
// - sources: requests carry the token as a bearer token or in the cookie; a cookie-
//   authenticated unsafe request must come from an allowed origin: app.blog.test (CORS),
//   or http://127.0.0.1:8000 where the example serves its own pages, or, when it is set,
//   one of the origins in ALLOWED_ORIGINS (which codegen dev and the tests set);
// - cookie_secure: false, because this example runs on http://127.0.0.1 (never in production);
// - blog.auth.verify_login returns the user with its roles: the token endpoint writes them
//   into the `roles` claim, which groups read (deleting an article takes an editor or admin);
// - anyone may read articles; blog.authz.visible_articles shows drafts to their owner (the
//   user who created them, stored by the create hook blog.authz.claim_ownership) and to
//   editors, also on these public routes when the request carries a valid token.
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local r = import 'resources.libsonnet';

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_login',
    token_lifetime_seconds: 900,
    issuer: 'blog',
    audience: 'blog-api',
    sources: ['bearer', 'cookie'],
    cookie_secure: false,
    allowed_origins: ['http://127.0.0.1:8000'],
    groups: { claim: 'roles' },
  }),
  cors: { allow_origins: ['http://app.blog.test'], allow_credentials: true },
  module: 'content',
  resources: [
    r.amendOperations(r.author, { create: { pre: 'blog.authz.claim_ownership' } }),
    r.amendOperations(r.article { visible: 'blog.authz.visible_articles' }, {
      get: { require_auth: false },
      list: { require_auth: false },
      create: { pre: 'blog.authz.claim_ownership' },
      delete: { groups: ['editor', 'admin'] },
    }) {
      // What the user may do, public like get and list: they offer what needs a user only
      // when the request carries one.
      operations+: [
        { name: 'permissions', type: 'permissions', require_auth: false },
        { name: 'row_permissions', type: 'permissions', target: 'row', require_auth: false },
      ],
    },
    r.tag,
    r.comment,
    r.category { require_auth: false },
  ],
}
