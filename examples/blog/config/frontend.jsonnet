// The blog behind its generated front end (examples/blog/frontend, docs/fe.md): the browser
// keeps the session in an HttpOnly cookie, and what a user's groups cannot use is hidden.
//
// - sources: the browser signs in for the cookie (the front end picks it whenever the API
//   offers one); scripts and tests may still send a bearer token;
// - cookie_secure: false, because the example runs on http://127.0.0.1 (never in production);
// - allowed_origins: the pages that may change things with the cookie, the example's own
//   (ALLOWED_ORIGINS replaces them when set: codegen dev and the tests set it);
// - blog.auth.verify_login returns the user with its roles (ada: writer, grace: editor), which
//   the token endpoint writes into the `roles` claim and GET /auth/session answers;
// - only editors and admins delete or publish articles, add or edit authors, and list comments;
// - anyone may read articles and categories; tags and count-words are public through exclude_paths;
// - each article says which of its operations the user may call (permissions_endpoint,
//   include_actions_in_dump): a published article can no longer be reviewed (its guard);
// - a signed-in user saves named views of the article list (saved_views), which the list
//   page saves, applies and deletes;
// - an edit may move an article's status among blog.models.ArticleStatus's members (an enum
//   field: a select in the form);
// - attachments keep their bytes in S3-compatible storage (S3_BUCKET, S3_ENDPOINT_URL), listed
//   and uploaded by signed-in users.
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local f = import 'be/fields.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local r = import 'resources.libsonnet';

local editors = ['editor', 'admin'];

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
    exclude_paths: ['/articles/count-words', '/tags*'],
  }),
  module: 'content',
  resources: [
    r.amendOperations(r.author, { create: { groups: editors }, update: { groups: editors } }),
    r.amendOperations(r.article, {
      get: { require_auth: false },
      list: { require_auth: false },
      // An edit may also move an article between blog.models.ArticleStatus's members: a select of them.
      update: { fields+: [f.enum('status', 'blog.models.ArticleStatus')] },
      delete: { groups: editors },
      publish_article: { groups: editors },
    }) {
      permissions_endpoint: true,
      include_actions_in_dump: true,
      operations+: [
        p.instanceAction('review_article', 'blog.actions.review_article', [], { pass_user: true }) + { can: 'blog.actions.may_review' },
      ] + p.saved_views(),
    },
    r.tag,
    r.amendOperations(r.comment, { list: { groups: editors } }),
    r.category { require_auth: false },
    {
      model: 'blog.models.Attachment',
      pk: 'id',
      pk_type: 'uuid',
      operations: p.files(content_types=['text/plain', 'image/png'], max_size=1048576) + [
        { name: 'list', fields: p.file_fields },
      ],
    },
  ],
}
