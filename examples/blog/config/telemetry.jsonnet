// The blog with JWT authentication and OpenTelemetry (docs/telemetry.md):
// `codegen generate --target be --config config/telemetry.jsonnet` adds telemetry.py;
// call `setup_telemetry(app)` from it at startup. Spans and metrics go over OTLP/HTTP to
// OTEL_EXPORTER_OTLP_ENDPOINT; a tenth of new traces is kept, and every trace a caller
// already sampled.
local base = import 'auth.jsonnet';

base {
  // kiln's `trace`: the tags' handlers have no span of their own (their server spans stay).
  resources: [if resource.model == 'blog.models.Tag' then resource { trace: false } else resource for resource in super.resources],
  telemetry: {
    service_name: 'blog-api',
    service_version: '1.0.0',
    environment_env: 'BLOG_ENVIRONMENT',
    sampler: 'parentbased_traceidratio',
    sampler_ratio: 0.1,
    exporter: 'otlp_http',
    resource_attributes: { team: 'blog' },
  },
}
