// A function that calls itself without end: the evaluator's stack overflows, and codegen
// reports it as a config error naming the call, not a crash.
local depth(n) = depth(n + 1) + 1;
{ apps: depth(0) }
