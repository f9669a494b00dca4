// The runtime helpers (src/targets/be/runtime/*.py) as text, read once per process: they
// are part of the target, not of a config, and are copied into generated trees verbatim.

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const sources = new Map<string, string>();
const runtimeDir = fileURLToPath(new URL("./runtime/", import.meta.url));
let helpers: ReadonlySet<string> | undefined;

/** The source of `runtime/<name>.py`. */
function runtimeSource(name: string): string {
  let source = sources.get(name);
  if (source === undefined) {
    source = readFileSync(`${runtimeDir}${name}.py`, "utf8");
    sources.set(name, source);
  }
  return source;
}

/**
 * The options of the output (a `StaticFile` from `build`, a `FileFragment` from `render`) that
 * copies the helper `runtime/<name>.py` into the generated tree.
 * @example new StaticFile(runtimeHelperFile("comms"))
 */
export function runtimeHelperFile(name: string): { path: string; template: string; context: { source: string } } {
  return { path: `runtime/${name}.py`, template: "operations/scaffold/verbatim.njk", context: { source: runtimeSource(name) } };
}

/**
 * Whether `path` (in the generated tree) is a runtime helper, `runtime/<helper>.py`, copied
 * as written; not a file of an app whose module happens to be called `runtime`.
 */
export function isRuntimeHelper(path: string): boolean {
  helpers ??= new Set(readdirSync(runtimeDir).filter((file) => file.endsWith(".py")).map((file) => `runtime/${file}`));
  return helpers.has(path);
}
