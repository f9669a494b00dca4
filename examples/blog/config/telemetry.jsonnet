// The blog with JWT authentication and OpenTelemetry (docs/telemetry.md):
// `codegen generate --target be --config config/telemetry.jsonnet` adds telemetry.py;
// call `setup_telemetry(app)` from it at startup. Spans and metrics go over OTLP/HTTP to
// OTEL_EXPORTER_OTLP_ENDPOINT; a tenth of new traces is kept, and every trace a caller
// already sampled. Requests sent with httpx or requests get client spans, log records
// carry their trace ids, and the authors' handlers record their bodies (redacted).
local base = import 'auth.jsonnet';

local traced(resource) =
  // kiln's `trace`: the tags' handlers have no span of their own (their server spans stay).
  if resource.model == 'blog.models.Tag' then resource { trace: false }
  else if resource.model == 'blog.models.Author' then resource { capture_request_body: true, capture_response_body: true }
  else resource;

base {
  resources: [traced(resource) for resource in super.resources],
  telemetry: {
    service_name: 'blog-api',
    service_version: '1.0.0',
    environment_env: 'BLOG_ENVIRONMENT',
    sampler: 'parentbased_traceidratio',
    sampler_ratio: 0.1,
    exporter: 'otlp_http',
    resource_attributes: { team: 'blog' },
    instrument_httpx: true,
    instrument_requests: true,
    instrument_logging: true,
  },
}
