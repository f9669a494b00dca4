// The runtime helpers (src/targets/be/runtime/*.py) as text, read once per process: they
// are part of the target, not of a config, and are copied into generated trees verbatim.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const sources = new Map<string, string>();

/** The source of `runtime/<name>.py`. */
export function runtimeSource(name: string): string {
  let source = sources.get(name);
  if (source === undefined) {
    source = readFileSync(fileURLToPath(new URL(`./runtime/${name}.py`, import.meta.url)), "utf8");
    sources.set(name, source);
  }
  return source;
}
