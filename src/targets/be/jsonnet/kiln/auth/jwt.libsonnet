// kiln's early import path for be/auth/jwt.libsonnet: configs importing 'kiln/auth/jwt.libsonnet' work unchanged.
import 'be/auth/jwt.libsonnet'
