// Telemetry helper of the `be` target with kiln's name and arguments: `otel(service_name,
// opts)` returns the project's `telemetry`, every key of opts passed through and the rest
// left to their defaults (docs/telemetry.md).
//
//   local telemetry = import 'be/telemetry/telemetry.libsonnet';
//   telemetry: telemetry.otel('blog-api', { sampler: 'parentbased_traceidratio', sampler_ratio: 0.1 }),
{
  otel(service_name, opts={}):: { service_name: service_name } + opts,
}
