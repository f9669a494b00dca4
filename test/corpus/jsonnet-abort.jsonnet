// libjsonnet 0.20 aborts its process on this (an uncaught C++ exception): codegen must
// report it as a config error, not die with it.
std.parseYaml('')
