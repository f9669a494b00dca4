// kiln's early import path for be/fields.libsonnet: configs importing 'kiln/fields.libsonnet' work unchanged.
import 'be/fields.libsonnet'
