// The runtime helpers (src/targets/be/runtime/*.py) as text, read once per process: they
// are part of the target, not of a config, and are copied into generated trees verbatim.

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const sources = new Map<string, string>();
const runtimeDir = fileURLToPath(new URL("./runtime/", import.meta.url));
let helpers: ReadonlySet<string> | undefined;

/** The source of `runtime/<name>.py`. */
export function runtimeSource(name: string): string {
  let source = sources.get(name);
  if (source === undefined) {
    source = readFileSync(`${runtimeDir}${name}.py`, "utf8");
    sources.set(name, source);
  }
  return source;
}

/**
 * Whether `path` (in the generated tree) is a runtime helper, `runtime/<helper>.py`, copied
 * as written; not a file of an app whose module happens to be called `runtime`.
 */
export function isRuntimeHelper(path: string): boolean {
  helpers ??= new Set(readdirSync(runtimeDir).filter((file) => file.endsWith(".py")).map((file) => `runtime/${file}`));
  return helpers.has(path);
}
