// The `be` target's formatter module (its `formatter`): generated modules go through ruff
// (src/formatters/ruff.ts). The runtime helpers are copied as written: they are kept
// ruff-formatted in src/targets/be/runtime.

import { formatPythonFile } from "../../formatters/ruff.js";
import { isRuntimeHelper } from "./runtime-source.js";

/** A generated file as the user's `ruff format` would leave it. */
export async function formatFile(path: string, content: string): Promise<string> {
  return isRuntimeHelper(path) ? content : formatPythonFile(path, content);
}
