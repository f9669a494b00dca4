/**
 * Static checks of Python trees: `ruff check` from the test venv and `pyright`
 * (the pinned npm package) resolving imports against that venv; `runCheck` runs any other
 * checking tool the same way.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import type { Venv } from "./venv.js";

const run = promisify(execFile);

export interface CheckResult {
  ok: boolean;
  /** The tool's combined output, for assertion messages. */
  output: string;
}

/** How long a check may take unless its caller says: pyright over every golden project takes minutes on a busy machine. */
const CHECK_TIMEOUT_MS = 15 * 60_000;

/**
 * Runs a checking tool to completion in `cwd`: ok when it exits 0, with its output either way.
 * `env` replaces the environment; past `timeoutMs` (@default {@link CHECK_TIMEOUT_MS}) the tool is killed and the check fails.
 */
export async function runCheck(
  command: string,
  args: string[],
  cwd: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CheckResult> {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: options.env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = "", stderr = "", message, killed } = error as { stdout?: string; stderr?: string; message: string; killed?: boolean };
    // A tool killed at its timeout is named as such: its output alone reads like a hang or a crash.
    const stopped = killed ? `${command} killed after its timeout of ${timeoutMs} ms; its output so far:\n` : "";
    return { ok: false, output: stopped + (stdout + stderr || message) };
  }
}

/**
 * `python -m pytest` with pytest-asyncio, the one plugin the generated tests and the runtime's
 * tests use, and no other (give the environment `PYTEST_ENV` too): the test venv also holds
 * schemathesis and hypothesis for test/e2e/schemathesis*.test.ts, whose pytest plugins every
 * run would otherwise import, at about 2 s of CPU each, without their taking part in it.
 */
export const PYTEST_ARGS: readonly string[] = ["-m", "pytest", "-p", "pytest_asyncio.plugin"];
export const PYTEST_ENV: Readonly<Record<string, string>> = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" };

/** The venv's `ruff` with `args` (a sub-command and its options), run in `cwd` without a cache. */
export function ruff(venv: Venv, cwd: string, args: string[]): Promise<CheckResult> {
  return runCheck(join(venv.bin, "ruff"), [...args, "--no-cache"], cwd);
}

/** `ruff check` with its default rules on `paths` (relative to `cwd`). */
export function ruffCheck(venv: Venv, cwd: string, paths: string[]): Promise<CheckResult> {
  return ruff(venv, cwd, ["check", ...paths]);
}

const PYRIGHT = join(dirname(createRequire(import.meta.url).resolve("pyright/package.json")), "index.js");

/** `pyright` on `paths` (relative to `cwd`), with the venv's packages importable. */
export function pyright(venv: Venv, cwd: string, paths: string[]): Promise<CheckResult> {
  return runCheck(process.execPath, [PYRIGHT, "--pythonpath", venv.python, ...paths], cwd);
}

/**
 * One `pyright` over several projects, each checked as `pyright(venv, root, paths)` checks
 * one: every project is an execution environment of its own, so its imports resolve in its
 * root only. Analysing the venv's libraries is most of a run's time, and one run does it
 * once for all of them. pyright takes only relative paths in a config file, so the config is
 * written, under a name of its own, into the projects' closest common directory. pyright
 * checking fewer source files than the paths hold (a path it ignores or excludes, a project
 * lost on the way) fails the check: a project dropped silently would pass unchecked.
 */
export async function pyrightProjects(venv: Venv, projects: readonly { root: string; paths: readonly string[] }[]): Promise<CheckResult> {
  const base = commonDirectory(projects.map(({ root }) => resolve(root)));
  const config = join(base, `.codegen-pyright-${randomBytes(6).toString("hex")}.json`);
  const include = projects.flatMap(({ root, paths }) => paths.map((path) => join(resolve(root), path)));
  const settings = {
    include: include.map((path) => relative(base, path)),
    executionEnvironments: projects.map(({ root }) => ({ root: relative(base, resolve(root)) || "." })),
  };
  await writeFile(config, JSON.stringify(settings));
  try {
    const expected = (await Promise.all(include.map(pythonSourcesUnder))).reduce((sum, count) => sum + count, 0);
    const result = await runCheck(process.execPath, [PYRIGHT, "--pythonpath", venv.python, "--project", config, "--stats"], base, { timeoutMs: PYRIGHT_TIMEOUT_MS });
    const found = /^Found (\d+) source files?$/m.exec(result.output)?.[1];
    if (Number(found) !== expected) return { ok: false, output: `pyright found ${found ?? "no"} source files where the paths hold ${expected}:\n${result.output}` };
    // A path pyright ignores or cannot find is not checked, and that is only a warning to it.
    return /Ignoring path|No source files found|does not exist/.test(result.output) ? { ok: false, output: result.output } : result;
  } finally {
    await rm(config, { force: true });
  }
}

/** How long one pyright over every project may take: about a minute alone, several on a busy machine. */
const PYRIGHT_TIMEOUT_MS = 15 * 60_000;

/** The Python source files under `path` (or `path` itself) that pyright checks: not in `__pycache__`, `node_modules` or a dot entry. */
async function pythonSourcesUnder(path: string): Promise<number> {
  if (/\.pyi?$/.test(path)) return 1;
  let count = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "__pycache__" || entry.name === "node_modules") continue;
    if (entry.isDirectory()) count += await pythonSourcesUnder(join(path, entry.name));
    else if (/\.pyi?$/.test(entry.name)) count++;
  }
  return count;
}

/** The deepest directory holding every one of `dirs` (absolute paths). */
function commonDirectory(dirs: readonly string[]): string {
  let common = dirs[0]!;
  while (!dirs.every((dir) => dir === common || dir.startsWith(common === sep ? sep : common + sep))) common = dirname(common);
  return common;
}
