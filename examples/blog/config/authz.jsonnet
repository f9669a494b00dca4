// The single-app blog with authorization (docs/authorization.md) on top of JWT auth:
// groups come from the token's `roles` claim; blog/authz.py holds the functions named here.
//
// Articles:
// - every route needs a user in one of the groups the resource names, and a row is visible
//   only as blog.authz.visible_articles says: published ones, one's own, or all for editors
//   and admins (a hidden row is a 404, and lists leave it out);
// - create: writers, editors and admins; publish: editors and admins; delete: admins;
// - update: the guard blog.authz.can_edit_article (the author, an editor or an admin).
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local r = import 'resources.libsonnet';

local writers = ['writer', 'editor', 'admin'];

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_credentials',
    issuer: 'blog',
    audience: 'blog-api',
    groups: { claim: 'roles' },
  }),
  module: 'content',
  resources: [
    r.author,
    r.amendOperations(r.article {
      groups: ['reader'] + writers,
      visible: 'blog.authz.visible_articles',
    }, {
      create: { groups: writers },
      update: { can: 'blog.authz.can_edit_article' },
      delete: { groups: ['admin'] },
      publish_article: { groups: ['editor', 'admin'] },
    }),
    r.tag,
    r.comment,
    r.category { require_auth: false },
  ],
}
