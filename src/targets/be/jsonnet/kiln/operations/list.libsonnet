// kiln's early import path for be/operations/list.libsonnet: configs importing 'kiln/operations/list.libsonnet' work unchanged.
import 'be/operations/list.libsonnet'
