local base = import '_base.libsonnet';
base { module: '../../escaped' }
