// kiln's early import path for be/comms/comms.libsonnet: configs importing 'kiln/comms/comms.libsonnet' work unchanged.
import 'be/comms/comms.libsonnet'
