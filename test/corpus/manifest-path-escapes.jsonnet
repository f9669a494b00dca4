import '_base.libsonnet'
