// Jsonnet evaluated as codegen evaluates configs (config.ts: the WebAssembly evaluator, in
// process), for tests of jsonnet libraries and snippets.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { evaluateJsonnetText } from "../../src/codegen/config.js";

/** The JSON value of `file`, with `libraryDirs` importable (the last one searched first). */
export async function jsonnetValue(file: string, libraryDirs: readonly string[]): Promise<any> {
  return JSON.parse(await evaluateJsonnetText(file, libraryDirs));
}

/** The JSON value of the jsonnet `code`, written to a file of its own (imports resolve from `libraryDirs`). */
export async function jsonnetSnippetValue(code: string, libraryDirs: readonly string[]): Promise<any> {
  const dir = mkdtempSync(path.join(tmpdir(), "codegen-jsonnet-"));
  try {
    const file = path.join(dir, "snippet.jsonnet");
    writeFileSync(file, code);
    return await jsonnetValue(file, libraryDirs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
