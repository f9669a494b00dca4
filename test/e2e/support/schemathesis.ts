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

/**
 * `st run` against the API at `baseUrl`, in `dir` (from `configDir`), with one worker. Its
 * workers are threads of one Python process, so a second adds no CPU; with two, which cases a
 * run draws varies (the library's: 1,516 to 1,551 in six runs) and one run in three burnt
 * 105 to 122 s of CPU where the others took 25 to 28 s. One worker draws the same cases every
 * time (1,555 in three runs, 22 s of CPU each), so a failure replays. A caller wanting more
 * cores runs several at once.
 */
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
    "1",
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
  return runCheck(join(venv.bin, "st"), args, dir, { env, timeoutMs: options.timeoutMs });
}

/** The number of test cases a run generated. */
export function generatedCases(output: string): number {
  return Number(/(\d+) generated/.exec(output)?.[1] ?? 0);
}

/** The summary lines of a run, for the test log: phases, failures and case counts. */
export function summary(output: string): string {
  return output.slice(output.lastIndexOf("SUMMARY")).trim();
}
