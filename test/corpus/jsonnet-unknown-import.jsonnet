local db = import 'be/db/no-such.libsonnet';
(import '_base.libsonnet') + { databases: [db.postgres('main', { default: true })] }
