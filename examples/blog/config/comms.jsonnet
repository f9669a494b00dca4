// The blog with outgoing messages (docs/comms.md):
// `codegen generate --target be --config config/comms.jsonnet` adds comms.py. The
// `announce` action of articles publishes one and sends `article_published` by e-mail
// (SMTP settings from SMTP_HOST, SMTP_PORT, SMTP_FROM, SMTP_TLS) and to a signed webhook
// (BLOG_WEBHOOK_URL, BLOG_WEBHOOK_SECRET); a worker delivers them:
// `pgq run blog.api.comms:create_worker`.
local f = import 'be/fields.libsonnet';
local p = import 'be/resources/presets.libsonnet';
local base = import 'project.jsonnet';

base {
  comms: {
    types: [
      {
        name: 'article_published',
        context: 'blog.messages.ArticlePublished',
        subject: 'New on the blog: {{ title }}',
        body: { file: 'templates/article_published.txt' },
        targets: ['email', 'feed'],
      },
    ],
    targets: [
      { name: 'email', type: 'smtp' },
      { name: 'feed', type: 'webhook', url_env: 'BLOG_WEBHOOK_URL', secret_env: 'BLOG_WEBHOOK_SECRET' },
    ],
    retry_delay: 5,
  },
  resources: [
    if resource.model == 'blog.models.Article' then resource {
      operations+: [
        // No generated test: announcing needs an existing tag; test/e2e/comms.test.ts drives it.
        p.instanceAction('announce', 'blog.actions.announce_article', [f.email('recipient'), f.int('tag_id')], { generate_tests: false }),
      ],
    }
    else resource
    for resource in super.resources
  ],
}
