// V8 settings for the command line: a run is a single pass over thousands of files, seconds
// long, so V8's defaults (tuned for long-lived programs) compile too little early and
// optimise too much too soon. Only the CLI sets them, never the library, which leaves its
// host's settings alone.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Phase } from "./codegen/timings.js";

/**
 * `--always-sparkplug`: every function is compiled to baseline machine code on its first
 * call instead of being interpreted until it is hot. Set as the CLI starts: set later, the
 * gain was lost.
 *
 * `--wasm-lazy-validation`: a WebAssembly function is validated as it is first compiled, as
 * V8 already compiles it lazily, not all of ruff's 10 MB as the module loads, most of which
 * (the linter) formatting never calls. Loading the module took 40 ms less CPU.
 */
export function compileEarly(): void {
  setFlagsFromString("--always-sparkplug");
  setFlagsFromString("--wasm-lazy-validation");
}

/**
 * `--interrupt-budget` at 8 times its default, for a run that ends when its one pass does (not
 * `--watch`): a function must run that much longer before the optimising compiler takes it.
 * With the default, the compiler's thread optimises code that the run soon stops using, and
 * on two cores it takes CPU from the run. A watch keeps the default: its reruns go over the
 * same code again and were 10-20% slower with the raised budget.
 *
 * `--liftoff-only`, for the same runs: ruff's formatter (10 MB of WebAssembly, compiled as the
 * first Python file is formatted) and the jsonnet evaluator stay in the baseline compiler's code. By default V8 also
 * recompiles its hot functions with the optimising compiler, which a run does not live long
 * enough to repay. CPU of loading ruff and formatting every file once (Node's start
 * included): the blog example's tree, 0.19 MB, 263-275 ms against 586-731; 2.1 MB, 540-560 ms against 1,521-1,706; the
 * 1,000-resource tree, 16 MB, 3.5 s against 3.6. A watch keeps tiering up: warm, the optimised
 * code formats that tree in 2.1 s of CPU against 3.1.
 */
export function optimiseLate(): void {
  setFlagsFromString("--interrupt-budget=540672");
  setFlagsFromString("--liftoff-only");
}

let collect: (() => void) | undefined;

/** The heap below which a collection before `render` or `format` is not worth its time: 10 and 100 resources use 20 and 40 MB. */
const COLLECT_ABOVE_BYTES = 96 * 1024 * 1024;

/**
 * A full garbage collection as `render` and `format` start, for a run that ends when its one
 * pass does (not `--watch`) and whose heap is large. Before `format` the build store and the
 * fragments are unreachable, but V8 lets the old generation grow rather than collect it, and
 * the formatting and writing that follow grew the heap further: at 1,000 resources (190 MB of
 * heap) peak RSS fell from 345-351 MB to 250-253 MB, for a collection of 17-26 ms. Before
 * `render`, build's garbage goes, which render's would otherwise join at the run's peak, the
 * end of render: 277-278 MB instead of 283-285, CPU unchanged. A small run gains nothing for
 * its 10-25 ms. `gc()` is reachable only with `--expose-gc`, set here just before a new
 * context picks it up.
 */
export function collectGarbageBefore(phase: Phase): void {
  if ((phase !== "render" && phase !== "format") || process.memoryUsage().heapUsed < COLLECT_ABOVE_BYTES) return;
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}
