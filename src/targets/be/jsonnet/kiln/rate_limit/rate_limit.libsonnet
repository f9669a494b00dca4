// kiln's early import path for be/rate_limit/rate_limit.libsonnet: configs importing 'kiln/rate_limit/rate_limit.libsonnet' work unchanged.
import 'be/rate_limit/rate_limit.libsonnet'
