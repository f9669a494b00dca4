// The blog with an Open Policy Agent server deciding part of its authorization
// (docs/authorization.md), beside groups and a guard. The policy is
// examples/blog/policy/authz.rego; the server's URL comes from OPA_URL.
//
// Articles ask OPA (`opa: true` on the resource, so on every route of it):
// - the articles the policy lets a user get (published ones, one's own by the token's
//   `author_id` claim, or all for editors and admins) are the articles' visibility rule,
//   filtered in SQL from OPA's partial evaluation on every read of articles: a list shows
//   exactly those, another is a 404, and nested loads, /_values and actions miss it;
// - publish: only drafts (groups still limit it to editors and admins);
// - the other routes: the groups and the guard below decide, the policy allows them.
// Comments show only those of the articles their reader sees: blog.authz.visible_comments
// leans on the articles' rule, OPA's here (the policy's owner is the token's author_id,
// which names the author the writer created).
//
// Ownership as in config/authz.jsonnet: the create hook blog.authz.claim_ownership stores
// the creator's subject on authors, articles and comments, and lets a writer write only
// as an author of their own; blog.authz.can_change admits the owner, editors and admins.
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local r = import 'resources.libsonnet';

local readers = ['reader', 'writer', 'editor', 'admin'];
local writers = ['writer', 'editor', 'admin'];

local owned = {
  create: { groups: writers, pre: 'blog.authz.claim_ownership' },
  update: { can: 'blog.authz.can_change', pre: 'blog.authz.claim_ownership' },
  delete: { can: 'blog.authz.can_change' },
};

{
  package_prefix: 'blog.api',
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true })],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_credentials',
    issuer: 'blog',
    audience: 'blog-api',
    groups: { claim: 'roles' },
    opa: { decision: 'blog/authz/allow', url_env: 'OPA_URL', timeout_seconds: 0.5 },
  }),
  module: 'content',
  resources: [
    r.amendOperations(r.author { groups: readers }, owned),
    r.amendOperations(r.article {
      groups: readers,
      opa: true,
      // GET /articles/permissions and /articles/{pk}/permissions: what the policy and the guards allow.
      permissions_endpoint: true,
    }, owned {
      delete: { groups: ['admin'] },
      publish_article: { groups: ['editor', 'admin'] },
      schedule_article: { can: 'blog.authz.can_change' },
      tag_article: { can: 'blog.authz.can_change' },
      archive_stale_articles: { groups: ['editor', 'admin'] },
    }),
    r.tag,
    r.amendOperations(r.comment { groups: readers, visible: 'blog.authz.visible_comments' }, owned),
    r.category { require_auth: false },
  ],
}
