// Rate-limit helper of the `be` target with kiln's name and arguments: `slowapi(bucket_model,
// opts)` returns the project's `rate_limit` in kiln's shape, which codegen reads as its own
// project-level limit (docs/rate-limits.md).
//
//   local rl = import 'be/rate_limit/rate_limit.libsonnet';
//   rate_limit: rl.slowapi('shop.models.RateLimitBucket', { default_limit: '100/minute', key_func: 'shop.limits.api_key' }),
//
// opts: default_limit (default '60/minute', null for none), key_func, headers_enabled,
// db_key. bucket_model and db_key are accepted without effect: the counters live in the
// runtime's own table.
{
  slowapi(bucket_model, opts={}):: { bucket_model: bucket_model } + opts,
}
