// Generated Python through ruff's own formatter at the version the generated project pins
// (be_root/dependencies.ts), so a user's `ruff format --check` finds nothing to change: a native
// ruff of that version where the project's venv or PATH has one (a fraction of the CPU, docs/be.md),
// else its WebAssembly build, the same ruff, so no Python is needed and the bytes are the same.
// Then prose.ts wraps what ruff leaves too long for `ruff check`.

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import type { Workspace } from "@astral-sh/ruff-wasm-nodejs";
import type { FormatContext } from "../codegen/format.js";
import { wrapProse } from "./prose.js";

/**
 * ruff's settings in a generated project: ruff's defaults (its pyproject.toml sets no `[tool.ruff]`)
 * and the target version ruff reads from `requires-python`, 3.11 at the oldest (be_root's `python`).
 * Newer targets format generated code the same (tested on every golden module).
 */
const SETTINGS = { "line-length": 88, "indent-width": 4, "target-version": "py311", format: { "quote-style": "double", "indent-style": "space" } };
const CONFIG_ARGS = Object.entries(SETTINGS).flatMap(([key, value]) =>
  (typeof value === "object" ? Object.entries(value).map(([name, inner]) => `${key}.${name}=${JSON.stringify(inner)}`) : [`${key}=${JSON.stringify(value)}`]).flatMap((setting) => ["--config", setting]),
);
const PINNED: string = createRequire(import.meta.url)("@astral-sh/ruff-wasm-nodejs/package.json").version;
const run = promisify(execFile);
/** Whether each native ruff is the pinned version, asked once per process. */
const pinned = new Map<string, Promise<boolean>>();
let workspace: Promise<Workspace> | undefined;

function ruff(): Promise<Workspace> {
  workspace ??= import("@astral-sh/ruff-wasm-nodejs").then(({ Workspace, PositionEncoding }) => new Workspace(SETTINGS, PositionEncoding.Utf16));
  return workspace;
}

/**
 * A Python module (`path` ending in `.py`) as `ruff format` writes it, its long docstrings and
 * comments wrapped (prose.ts); any other file as it is: the `formatFile` of a target's formatter module.
 * @throws Error naming `path` when ruff cannot parse the module (a template bug).
 * @example await formatPythonFile("app.py", "x = [1,2]\n") // "x = [1, 2]\n"
 */
export async function formatPythonFile(path: string, content: string): Promise<string> {
  if (!path.endsWith(".py")) return content;
  const formatter = await ruff();
  try {
    return wrapProse(formatter.format(content));
  } catch (error) {
    throw new Error(`ruff format ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every file as {@link formatPythonFile} leaves it, the modules in one native ruff run where there is one: a formatter module's `formatAll`. */
export async function formatPythonFiles(files: readonly { path: string; content: string }[], context: FormatContext): Promise<{ contents: string[]; by: string }> {
  const modules = files.filter((file) => file.path.endsWith(".py")).map((file) => file.content);
  const native = modules.length > 0 ? await formatNatively(modules, context.outDir) : undefined;
  let next = 0;
  const contents = await Promise.all(files.map((file) => (native && file.path.endsWith(".py") ? wrapProse(native[next++]!) : formatPythonFile(file.path, file.content))));
  return { contents, by: native ? `ruff ${PINNED}, native` : "ruff, WebAssembly" };
}

/** The first `ruff` of the project's venv (`.venv/bin` in `outDir` or a directory above it), else of PATH. */
export function findRuff(outDir: string | undefined, searchPath = process.env.PATH ?? ""): string | undefined {
  const dirs: string[] = [];
  for (let dir = outDir; dir && isAbsolute(dir) && !dirs.includes(join(dir, ".venv", "bin")); dir = dirname(dir)) dirs.push(join(dir, ".venv", "bin"));
  dirs.push(...searchPath.split(delimiter).filter((dir) => isAbsolute(dir)));
  return dirs.map((dir) => join(dir, "ruff")).find((file) => existsSync(file));
}

/** `sources` as the native ruff at the pinned version formats them, config files ignored; undefined without one or when it fails. */
async function formatNatively(sources: readonly string[], outDir: string | undefined, ruff = findRuff(outDir)): Promise<string[] | undefined> {
  if (ruff === undefined) return undefined;
  if (!pinned.has(ruff)) pinned.set(ruff, run(ruff, ["--version"], { timeout: 10_000 }).then(({ stdout }) => stdout.trim() === `ruff ${PINNED}`, () => false));
  if (!(await pinned.get(ruff))) return undefined;
  let dir: string | undefined;
  try {
    // In memory where Linux has it: creating 3,000 files on disk took 0.6 s of system CPU, in /dev/shm 0.05 s.
    dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "codegen-ruff-"));
    const files = sources.map((_, index) => join(dir!, `${index}.py`));
    files.forEach((file, index) => writeFileSync(file, sources[index]!));
    await run(ruff, ["format", "--isolated", "--no-cache", "--quiet", ...CONFIG_ARGS, dir], { timeout: 120_000 });
    return files.map((file) => readFileSync(file, "utf8"));
  } catch {
    return undefined;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
