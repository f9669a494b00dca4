local db = import 'be/db/databases.libsonnet';
local base = import '_base.libsonnet';
base { databases: [db.postgres('../../x', { default: true })] }
