// The blog with JWT authentication and rate limits (docs/rate-limits.md):
// `codegen generate --target be --config config/rate_limited.jsonnet`. Counters live in
// the blog's PostgreSQL, so the limits hold across every worker process and machine.
//
// - every route: 100 requests a minute per client address (the project's rate_limit),
//   believing X-Forwarded-For from proxies in 10.0.0.0/8;
// - creating an article: 5 a minute and 20 an hour per client address;
// - listing articles: unlimited (false turns the inherited limit off);
// - writing comments: 10 a minute per authenticated user;
// - categories: 30 a minute per client, without headers on successful responses.
local base = import 'auth.jsonnet';
local r = import 'resources.libsonnet';

base {
  rate_limit: '100/minute',
  trusted_proxies: ['10.0.0.0/8'],
  resources: [
    if resource.model == 'blog.models.Article' then r.amendOperations(resource, {
      create: { rate_limit: '5/minute;20/hour' },
      list: { rate_limit: false },
    })
    else if resource.model == 'blog.models.Comment' then resource { rate_limit: { limit: '10/minute', key: 'user' } }
    else if resource.model == 'blog.models.Category' then resource { rate_limit: { limit: '30/minute', headers: false } }
    else resource
    for resource in super.resources
  ],
}
