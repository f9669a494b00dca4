// The blog written as a kiln config (docs/migrating-from-kiln.md): fields declared per
// operation and no resource-level list, `version`, `pk`/`pk_type` (and kiln's later
// `pk: { name, type }`), `route_prefix`, `require_auth` at several levels, one app mounted
// with `apps: [{ config, prefix }]`, and kiln's helper names and arguments.
//
// The app is mounted at /content by the project router (blog.api.routes). Reads are
// public; `resource.action` keeps kiln's signature (blog/kiln_actions.py) and its default
// require_auth: true, so publishing needs a token from kiln's login: POST /auth/token with
// a JSON body (ada / analytical-engine; JWT_SECRET must be set), logged out of at
// POST /auth/token/logout.
local auth = import 'be/auth/jwt.libsonnet';
local db = import 'be/db/databases.libsonnet';
local fields = import 'be/fields.libsonnet';
local list = import 'be/operations/list.libsonnet';
local resource = import 'be/resources/presets.libsonnet';

local authorBrief = [fields.id(), { name: 'name', type: 'str' }];
// kiln's enum field: the values are the members of the model's own Enum class.
local status = { name: 'status', type: 'enum', enum: 'blog.models.ArticleStatus' };
local articleRead = [
  fields.id(),
  { name: 'title', type: 'str' },
  { name: 'body', type: 'str' },
  { name: 'published', type: 'bool' },
  status,
  { name: 'word_count', type: 'int' },
  { name: 'author_id', type: 'uuid' },
  fields.nested('author', 'blog.models.Author', authorBrief, load='joined'),
];

{
  version: '1',
  package_prefix: 'blog.api',
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    token_url: '/auth/token',
    exclude_paths: ['/docs', '/openapi.json'],
    credentials_schema: 'blog.auth.LoginCredentials',
    session_schema: 'blog.auth.Session',
    validate_fn: 'blog.auth.validate_login',
    session_store: 'blog.auth.revocations',
  }),
  databases: [db.postgres('primary', { default: true })],
  require_auth: true,
  // kiln's setting of the discovery routes (/_filters, /_values): public, though every
  // other route needs a user unless it says otherwise.
  resource_registry: { require_auth: false },
  apps: [
    {
      prefix: '/content',
      config: {
        version: '1',
        module: 'content',
        require_auth: false,
        resources: [
          // Authors: get shows their articles, list a summary; create only.
          {
            model: 'blog.models.Author',
            pk: 'id',
            pk_type: 'uuid',
            // kiln's link kinds: `name` labels an author's links (and filter values) by name.
            link: { kind: 'name', name: 'name' },
            // kiln's resource search: POST /content/authors/_values answers authors as links.
            searchable: true,
            operations: [
              {
                name: 'get',
                // kiln's serializer: async (row, session, db), here counting the author's articles.
                serializer: 'blog.kiln_actions.author_with_count',
                fields: authorBrief + [
                  { name: 'email', type: 'email' },
                  fields.nested('articles', 'blog.models.Article', [fields.id(), { name: 'title', type: 'str' }], many=true),
                ],
              },
              // kiln's modifier options: filter fields by name; cursor_field is accepted with a
              // warning (keyset pages follow the order). Each author listed goes through kiln's serializer too.
              list.searchable(
                fields=authorBrief,
                filter={ fields: ['name'] },
                order={ fields: ['name'], default: 'name' },
                paginate={ mode: 'keyset', cursor_field: 'id', default_page_size: 20, max_page_size: 100 },
              ) + { serializer: 'blog.kiln_actions.author_with_count' },
              { name: 'create', fields: [{ name: 'name', type: 'str' }, { name: 'email', type: 'email' }] },
            ],
          },
          // Articles: served at /posts, written by anyone, published by signed-in users.
          {
            model: 'blog.models.Article',
            pk: { name: 'id', type: 'uuid' },
            route_prefix: '/posts',
            require_auth: false,
            // kind `id`: no label field; the key, as text, labels an article.
            link: { kind: 'id' },
            // GET /posts/permissions and /posts/{id}/permissions: what the caller may do.
            permissions_endpoint: true,
            // Each article that get and list answer carries `actions`: what its permissions route says.
            include_actions_in_dump: true,
            operations: [
              { name: 'get', fields: articleRead },
              // Filtered by the enum field by name: eq and in, over its members; by author and
              // by article, their values offered by /_values with their links' labels.
              list.searchable(fields=articleRead, filter={
                fields: ['status', { name: 'author_id', values: 'ref', ref_resource: 'author' }, { name: 'id', values: 'self' }],
              }),
              // kiln's hooks, with kiln's signatures (blog/kiln_actions.py).
              {
                name: 'create',
                fields: [{ name: 'title', type: 'str' }, { name: 'body', type: 'str' }, { name: 'author_id', type: 'uuid' }, status { default: 'draft' }],
                pre: 'blog.kiln_actions.tidy_title',
                post: 'blog.kiln_actions.count_words',
              },
              { name: 'update', fields: [{ name: 'title', type: 'str' }, status] },
              { name: 'delete', require_auth: false },
              // kiln's actions, with kiln's signatures (blog/kiln_actions.py): the config names
              // the models kiln reads from them.
              resource.action(name='publish', fn='blog.kiln_actions.publish') + { response: 'blog.kiln_actions.Publication' },
              // kiln's guard too: can(resource, session), the session kiln's login made.
              resource.action(name='retitle', fn='blog.kiln_actions.retitle')
              + { body: 'blog.kiln_actions.Retitle', response: 'none', can: 'blog.kiln_actions.may_retitle' },
              resource.action(name='count', fn='blog.kiln_actions.count', require_auth=false)
              + { target: 'collection', model_param: 'model', response: 'blog.kiln_actions.Count' },
            ]
            // kiln's saved views: a signed-in user's named queries of the article list, at /posts/views.
            + resource.saved_views(require_auth=true),
          },
          // Attachments: kiln's file resource, its bytes in S3-compatible storage (S3_BUCKET,
          // S3_ENDPOINT_URL); uploads of text or PNG up to 1 MiB, for signed-in users.
          {
            model: 'blog.models.Attachment',
            pk: 'id',
            pk_type: 'uuid',
            visible: 'blog.kiln_actions.visible_attachments',
            // Searchable (POST /content/attachments/_values), each file made a link by kiln's
            // builder, async (row, session), found by its name.
            searchable: true,
            link: { builder: 'blog.kiln_actions.attachment_link' },
            search: { fields: ['original_filename'] },
            operations: resource.files(content_types=['text/plain', 'image/png'], max_size=1048576),
          },
          // Tags: create-only (no reads), an integer key.
          {
            model: 'blog.models.Tag',
            pk: 'id',
            pk_type: 'int',
            operations: [{ name: 'create', fields: [{ name: 'name', type: 'str' }] }],
          },
        ],
      },
    },
  ],
}
