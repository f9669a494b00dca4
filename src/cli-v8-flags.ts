// V8 settings for the command line: a run is a single pass over thousands of files, seconds
// long, so V8's defaults (tuned for long-lived programs) compile too little early and
// optimise too much too soon. Only the CLI sets them, never the library, which leaves its
// host's settings alone. Figures: bench/README.md.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Phase } from "./codegen/timings.js";

/**
 * `--always-sparkplug`: every function is compiled to baseline machine code on its first
 * call instead of being interpreted until it is hot (format phase of 1,000 resources:
 * 657-691 ms -> 448-461 ms). Set as the CLI starts: set later, the gain was lost.
 */
export function compileEarly(): void {
  setFlagsFromString("--always-sparkplug");
}

/**
 * `--interrupt-budget` at 8 times its default, for a run that ends when its one pass does (not
 * `--watch`): a function must run that much longer before the optimising compiler takes it.
 * With the default, the compiler's thread optimises code that the run soon stops using, and
 * on two cores it takes CPU from the run. A watch keeps the default: its reruns go over the
 * same code again and were 10-20% slower with the raised budget.
 */
export function optimiseLate(): void {
  setFlagsFromString("--interrupt-budget=540672");
}

let collect: (() => void) | undefined;

/**
 * A full garbage collection as `format` starts, for a run that ends when its one pass does
 * (not `--watch`). By then the build store and the fragments are unreachable, but V8 lets
 * the old generation grow rather than collect it, and the formatting and writing that follow
 * grew the heap further: at 1,000 resources peak RSS fell from 345-351 MB to 250-253 MB, for a
 * collection of 17-26 ms. `gc()` is reachable only with `--expose-gc`, set here just before
 * a new context picks it up.
 */
export function collectGarbageBefore(phase: Phase): void {
  if (phase !== "format") return;
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}
