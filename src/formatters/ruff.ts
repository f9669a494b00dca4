// Generated Python through ruff's own formatter: its WebAssembly build, at the version the
// generated project pins (be_root/dependencies.ts), so a user's `ruff format --check` finds
// nothing to change and no Python is needed to generate. Loaded on the first Python file: a
// run that formats none never compiles the 10 MB module. Then prose.ts wraps what ruff leaves
// too long for `ruff check`.

import type { Workspace } from "@astral-sh/ruff-wasm-nodejs";
import { wrapProse } from "./prose.js";

/**
 * ruff's settings as a generated project has them: its pyproject.toml sets no `[tool.ruff]`,
 * so ruff's defaults, and the target version ruff reads from `requires-python`, 3.11 at the
 * oldest (be_root's `python`). Newer targets format generated code the same (tested on
 * every golden module).
 */
const SETTINGS = { "line-length": 88, "indent-width": 4, "target-version": "py311", format: { "quote-style": "double", "indent-style": "space" } };

let workspace: Promise<Workspace> | undefined;

function ruff(): Promise<Workspace> {
  workspace ??= import("@astral-sh/ruff-wasm-nodejs").then(({ Workspace, PositionEncoding }) => new Workspace(SETTINGS, PositionEncoding.Utf16));
  return workspace;
}

/**
 * `source` as `ruff format` writes it, its long docstrings and comments wrapped (prose.ts).
 * @throws Error naming `path` when ruff cannot parse the source (a template bug).
 * @example await formatPython("app.py", "x = [1,2]\n") // "x = [1, 2]\n"
 */
export async function formatPython(path: string, source: string): Promise<string> {
  const formatter = await ruff();
  try {
    return wrapProse(formatter.format(source));
  } catch (error) {
    throw new Error(`ruff format ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `content` through ruff when `path` is a Python module, any other file as it is: the `formatFile` of a target's formatter module. */
export async function formatPythonFile(path: string, content: string): Promise<string> {
  return path.endsWith(".py") ? formatPython(path, content) : content;
}
