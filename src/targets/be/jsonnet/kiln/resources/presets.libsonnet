// kiln's early import path for be/resources/presets.libsonnet: configs importing 'kiln/resources/presets.libsonnet' work unchanged.
import 'be/resources/presets.libsonnet'
