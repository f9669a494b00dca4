local base = import '_base.libsonnet';
if std.length(base.resources) > 0 then error 'resources are not ready yet' else base
