/**
 * Static checks of Python trees: `ruff check` from the test venv and `pyright`
 * (the pinned npm package) resolving imports against that venv; `runCheck` runs any other
 * checking tool the same way.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { Venv } from "./venv.js";

const run = promisify(execFile);

export interface CheckResult {
  ok: boolean;
  /** The tool's combined output, for assertion messages. */
  output: string;
}

/**
 * Runs a checking tool to completion in `cwd`: ok when it exits 0, with its output either way.
 * `env` replaces the environment; past `timeoutMs` the tool is killed and the check fails.
 */
export async function runCheck(
  command: string,
  args: string[],
  cwd: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CheckResult> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: options.env, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = "", stderr = "", message, killed } = error as { stdout?: string; stderr?: string; message: string; killed?: boolean };
    // A tool killed at its timeout is named as such: its output alone reads like a hang or a crash.
    const stopped = killed && options.timeoutMs !== undefined ? `${command} killed after its timeout of ${options.timeoutMs} ms; its output so far:\n` : "";
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

/** `pyright` on `paths` (relative to `cwd`), with the venv's packages importable. */
export function pyright(venv: Venv, cwd: string, paths: string[]): Promise<CheckResult> {
  const entry = join(dirname(createRequire(import.meta.url).resolve("pyright/package.json")), "index.js");
  return runCheck(process.execPath, [entry, "--pythonpath", venv.python, ...paths], cwd);
}
