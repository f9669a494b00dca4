/**
 * Runs schemathesis (test/e2e/requirements.txt) against a generated backend's OpenAPI, for
 * test/e2e/schemathesis.test.ts and test/e2e/schemathesis-roles.test.ts. Every run is seeded
 * and bounded, so a failure replays; `schemathesis_hooks.py` gives each request an
 * Idempotency-Key of its own and, when told the keys of existing rows, sends them too.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type CheckResult, runCheck } from "../../support/python.js";
import type { Venv } from "../../support/venv.js";

/** test/e2e/support: `schemathesis_hooks.py` is imported from here. */
const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "..");

export const SEED = 20_240_131;

/**
 * The longest `schemathesis` can take when one run may take `timeoutMs`: a killed first run,
 * then its one rerun (see `crashedOnCpythonAstRace`); a test calling it waits at most this long.
 */
export function runBoundMs(timeoutMs: number): number {
  return 2 * timeoutMs;
}

/** Keys of existing rows that generated requests use besides drawn ones (see `schemathesis_hooks.py`). */
export interface KnownRows {
  /** Collection path (`/articles`) → keys of its rows, sent as the `{pk}` of its row routes. */
  paths: Record<string, readonly (string | number)[]>;
  /** Body field (`author_id`) → keys it may name. */
  fields: Record<string, readonly (string | number)[]>;
}

export interface RunOptions {
  /** `--checks`: every check unless given. */
  checks?: readonly string[];
  /** `--phases`: every phase unless given. */
  phases?: readonly string[];
  /**
   * `--max-examples`: test cases per operation and phase, which is what bounds a run: it is
   * given no `--max-time`, under which the fuzzing phase draws cases until the time is spent,
   * so that a busy machine makes a run slower, never less thorough.
   */
  maxExamples: number;
  /** How long one run may take before it is killed (and fails): a stuck run, not a slow one. */
  timeoutMs: number;
  workers: number;
  /** Sent with every request (a bearer token). */
  headers?: Record<string, string>;
  known?: KnownRows;
}

/** A directory holding `config` as `schemathesis.toml`; `dispose` removes it. */
export async function configDir(config: string): Promise<{ path: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-schemathesis-"));
  await writeFile(join(dir, "schemathesis.toml"), config);
  return { path: dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** `st run` against the API at `baseUrl`, in `dir` (from `configDir`). */
export async function schemathesis(venv: Venv, dir: string, baseUrl: string, options: RunOptions): Promise<CheckResult> {
  const args = [
    "--config-file",
    join(dir, "schemathesis.toml"),
    "run",
    `${baseUrl}/openapi.json`,
    "--checks",
    (options.checks ?? ["all"]).join(","),
    ...(options.phases === undefined ? [] : ["--phases", options.phases.join(",")]),
    "--max-examples",
    String(options.maxExamples),
    "--seed",
    String(SEED),
    "--workers",
    String(options.workers),
    "--request-timeout",
    "20",
    // Hypothesis's check that drawing a case is quick measures this machine, not the API:
    // a busy machine makes a run slower, never failed (see `maxExamples`).
    "--suppress-health-check",
    "too_slow",
    "--output-truncate",
    "true",
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, SCHEMATHESIS_HOOKS: "schemathesis_hooks", PYTHONPATH: SUPPORT_DIR };
  if (options.known) env.SCHEMATHESIS_KNOWN_ROWS = JSON.stringify(options.known);
  const run = () => runCheck(join(venv.bin, "st"), args, dir, { env, timeoutMs: options.timeoutMs });
  const outcome = await run();
  if (!crashedOnCpythonAstRace(outcome)) return outcome;
  console.log("schemathesis crashed on CPython's AST recursion-depth race (python/cpython#106905); running it again");
  return run();
}

/**
 * CPython 3.11.7's AST constructor miscounts its recursion depth when two threads parse at
 * once (python/cpython#106905, fixed in 3.11.8): hypothesis parses source to describe a
 * filter, and a run with two workers can crash with that `SystemError` before it sends a
 * request. Such a run failed no check of our API, so it is run again, once.
 */
function crashedOnCpythonAstRace(outcome: CheckResult): boolean {
  return !outcome.ok && outcome.output.includes("AST constructor recursion depth mismatch") && !/=+ FAILURES =+/.test(outcome.output);
}

/** The number of test cases a run generated. */
export function generatedCases(output: string): number {
  return Number(/(\d+) generated/.exec(output)?.[1] ?? 0);
}

/** The summary lines of a run, for the test log: phases, failures and case counts. */
export function summary(output: string): string {
  return output.slice(output.lastIndexOf("SUMMARY")).trim();
}
