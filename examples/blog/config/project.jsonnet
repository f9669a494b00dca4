// The blog as one app: `codegen generate --target be --config config/project.jsonnet`
// writes the backend into blog/api (the package prefix as a path).
local db = import 'be/db/databases.libsonnet';
local r = import 'resources.libsonnet';

{
  package_prefix: 'blog.api',
  databases: [
    db.postgres('primary', {
      url_env: 'DATABASE_URL',
      default: true,
      pool_size: 15,
      max_overflow: 0,
      pool_timeout: 30,
      pool_recycle: -1,
      pool_pre_ping: true,
    }),
  ],
  // Writes content/tests/: a pytest suite per resource and its conftest (docs/testing.md).
  generate_tests: true,
  module: 'content',
  resources: [r.author, r.article, r.tag, r.comment, r.category],
}
