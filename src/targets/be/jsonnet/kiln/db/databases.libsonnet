// kiln's early import path for be/db/databases.libsonnet: configs importing 'kiln/db/databases.libsonnet' work unchanged.
import 'be/db/databases.libsonnet'
