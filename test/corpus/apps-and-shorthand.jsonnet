local base = import '_base.libsonnet';
base { apps: [{ config: { module: 'other', resources: base.resources } }] }
