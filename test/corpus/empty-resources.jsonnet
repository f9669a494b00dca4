local base = import '_base.libsonnet';
base { resources: [] }
