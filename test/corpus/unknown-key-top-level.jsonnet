local base = import '_base.libsonnet';
base { modules: ['catalog'] }
