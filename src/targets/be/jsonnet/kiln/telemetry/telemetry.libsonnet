// kiln's early import path for be/telemetry/telemetry.libsonnet: configs importing 'kiln/telemetry/telemetry.libsonnet' work unchanged.
import 'be/telemetry/telemetry.libsonnet'
