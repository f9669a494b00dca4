// Database helper of the `be` target: `postgres(name, options)` returns one entry of
// the project's `databases` list.
//
//   local db = import 'be/db/databases.libsonnet';
//   databases: [
//     db.postgres('main', { default: true }),
//     db.postgres('analytics', { url_env: 'ANALYTICS_URL', pool_size: 10, pool_recycle: 1800 }),
//   ]
//
// options: url_env, default, echo, pool_size, max_overflow, pool_timeout, connect_timeout,
// statement_timeout, pool_recycle, pool_pre_ping, transaction_pooling, replicas. They are
// checked by the config schema, not here.
{
  postgres(name, options={}):: { key: name } + options,
}
