local db = import 'be/db/databases.libsonnet';
local base = import '_base.libsonnet';
base { databases: [db.postgres('main', { default: true }), db.postgres('main', {})] }
