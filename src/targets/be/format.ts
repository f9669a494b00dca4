// The `be` target's formatter module (its `formatter`): generated modules go through ruff
// (src/formatters/ruff.ts). The runtime helpers are copied as written: they are kept
// ruff-formatted in src/targets/be/runtime.

import type { FormatContext } from "../../codegen/index.js";
import { formatPythonFile, formatPythonFiles } from "../../formatters/ruff.js";
import { isRuntimeHelper } from "./runtime-source.js";

/** A generated file as the user's `ruff format` would leave it. */
export async function formatFile(path: string, content: string): Promise<string> {
  return isRuntimeHelper(path) ? content : formatPythonFile(path, content);
}

/** Every file as {@link formatFile} leaves it, in one ruff run. */
export async function formatAll(files: readonly { path: string; content: string }[], context: FormatContext): Promise<{ contents: string[]; by: string }> {
  const generated = files.filter((file) => !isRuntimeHelper(file.path));
  const { contents, by } = await formatPythonFiles(generated, context);
  const formatted = new Map(generated.map((file, index) => [file.path, contents[index]!]));
  return { contents: files.map((file) => formatted.get(file.path) ?? file.content), by };
}
