// V8 settings for the command line: a run is a single pass over thousands of files, seconds
// long, so V8's defaults (tuned for long-lived programs) compile too little early and
// optimise too much too soon. Only the CLI sets them, never the library, which leaves its
// host's settings alone.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Phase } from "./codegen/timings.js";

/**
 * The V8 flags for the command line `args` (`process.argv` without Node and the script).
 *
 * Every command: `--always-sparkplug`, every function compiled to baseline machine code on its
 * first call instead of being interpreted until it is hot (set once the code had loaded, the
 * gain was lost); `--wasm-lazy-validation`, a WebAssembly function validated as it is first
 * compiled, as V8 already compiles it lazily, not all of ruff's 10 MB as the module loads, most
 * of which (the linter) formatting never calls: loading the module took 40 ms less CPU.
 *
 * A run that ends when its one pass does (`generate` without `--watch`) also gets:
 * - `--interrupt-budget` at 8 times its default: a function must run that much longer before
 *   the optimising compiler takes it. With the default, the compiler's thread optimises code
 *   that the run soon stops using, and on two cores it takes CPU from the run. A watch keeps
 *   the default: its reruns go over the same code again and were 10-20% slower with it.
 * - `--liftoff-only`: ruff's formatter (10 MB of WebAssembly, compiled as the first Python
 *   file is formatted) and the jsonnet evaluator stay in the baseline compiler's code. By
 *   default V8 also recompiles their hot functions with the optimising compiler, which a run
 *   does not live long enough to repay. CPU of loading ruff and formatting every file once
 *   (Node's start included): the blog example's tree, 0.19 MB, 263-275 ms against 586-731;
 *   2.1 MB, 540-560 ms against 1,521-1,706; the 1,000-resource tree, 16 MB, 3.5 s against 3.6.
 *   A watch keeps tiering up: warm, the optimised code formats that tree in 2.1 s of CPU
 *   against 3.1.
 * - `--expose-gc`, for {@link collectGarbageBefore}.
 */
export function v8FlagsFor(args: readonly string[]): string[] {
  const flags = ["--always-sparkplug", "--wasm-lazy-validation"];
  const command = args.find((arg) => !arg.startsWith("-"));
  if (command === "generate" && !args.includes("--watch")) flags.push("--interrupt-budget=540672", "--liftoff-only", "--expose-gc");
  return flags;
}

const flagsSet: string[] = [];

/** Sets {@link v8FlagsFor} `args`, as the command starts. */
export function setV8Flags(args: readonly string[]): void {
  for (const flag of v8FlagsFor(args)) {
    setFlagsFromString(flag);
    flagsSet.push(flag);
  }
}

/** The flags {@link setV8Flags} set in this process: none where codegen is a library. */
export function v8FlagsSet(): readonly string[] {
  return flagsSet;
}

let collect: (() => void) | undefined;

/** The heap below which a collection before `format` is not worth its time: 10 and 100 resources use 20 and 40 MB. */
const COLLECT_ABOVE_BYTES = 96 * 1024 * 1024;

/**
 * A full garbage collection as `format` starts, for a run that ends when its one pass does
 * (not `--watch`) and whose heap is large. By then the build store and the fragments are
 * unreachable, but V8 lets the old generation grow rather than collect it, and the formatting
 * and writing that follow grew the heap further: at 1,000 resources (190 MB of heap) peak RSS
 * fell from 345-351 MB to 250-253 MB, for a collection of 17-26 ms. A small run gains nothing
 * for its 10-25 ms. `gc()` is reachable only with `--expose-gc` (set as the command starts),
 * from a context made after the flag was set.
 */
export function collectGarbageBefore(phase: Phase): void {
  if (phase !== "format" || process.memoryUsage().heapUsed < COLLECT_ABOVE_BYTES) return;
  collect ??= runInNewContext("gc") as () => void;
  collect();
}
