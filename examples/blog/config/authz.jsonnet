// The single-app blog with authorization (docs/authorization.md) on top of JWT auth:
// groups come from the token's `roles` claim; blog/authz.py holds the functions named here.
//
// Ownership: authors, articles and comments belong to the user who created them. The
// create hook blog.authz.claim_ownership stores the creator's subject (the token's `sub`)
// on the row; no body carries it and no update changes it. The same hook lets a writer
// write only as an author of their own, and comment only on an article they may see.
//
// - every route needs a user in one of the resource's groups; creating takes a writer,
//   an editor or an admin;
// - update, delete and the article actions that change a row: the guard
//   blog.authz.can_change (the row's owner, an editor or an admin); deleting an article
//   or publishing one takes an editor or an admin;
// - rows: blog.authz.visible_articles shows the published articles and one's own (all to
//   editors and admins), blog.authz.visible_comments the comments of those. The ORM
//   applies these rules to every read: a hidden row is a 404, missing from lists, counts
//   and filter values, and from the articles an author nests.
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local r = import 'resources.libsonnet';

local readers = ['reader', 'writer', 'editor', 'admin'];
local writers = ['writer', 'editor', 'admin'];

// What every owned resource's writes say.
local owned = {
  create: { groups: writers, pre: 'blog.authz.claim_ownership' },
  update: { can: 'blog.authz.can_change', pre: 'blog.authz.claim_ownership' },
  delete: { can: 'blog.authz.can_change' },
};

{
  package_prefix: 'blog.api',
  // Reads may come from streaming replicas listed in DATABASE_REPLICA_URLS (docs/replicas.md);
  // without it they come from the primary.
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true, replicas: { max_lag: 2 } })],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_credentials',
    issuer: 'blog',
    audience: 'blog-api',
    groups: { claim: 'roles' },
  }),
  module: 'content',
  resources: [
    r.amendOperations(r.author { groups: readers }, owned),
    r.amendOperations(r.article {
      groups: readers,
      visible: 'blog.authz.visible_articles',
      // GET /articles/permissions and /articles/{pk}/permissions: what the user may do.
      permissions_endpoint: true,
    }, owned {
      delete: { groups: ['admin'] },
      publish_article: { groups: ['editor', 'admin'] },
      schedule_article: { can: 'blog.authz.can_change' },
      tag_article: { can: 'blog.authz.can_change' },
      archive_stale_articles: { groups: ['editor', 'admin'] },
    }),
    r.tag,
    r.amendOperations(r.comment {
      groups: readers,
      visible: 'blog.authz.visible_comments',
    }, owned),
    r.category { require_auth: false },
  ],
}
