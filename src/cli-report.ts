// How the `codegen` command prints a run: its summary line (written, checked or dry-run), the
// config's warnings, kept files, a recovered run, phase timings, and errors (a user's mistake
// as `<prefix>: <message>`, anything else as an internal error). Writes to stdout and stderr only.

import type { CleanResult } from "./codegen/clean.js";
import type { GenerateResult } from "./codegen/generate.js";
import type { PlanAction } from "./codegen/writer.js";
import { countActions, driftOf } from "./codegen/plan-summary.js";
import type { Recovery } from "./codegen/journal.js";
import type { LockHolder } from "./codegen/lock.js";
import type { PhaseTimer } from "./codegen/timings.js";

/** What the reports read of a run: a full run's result, or an up-to-date check's answer. */
export type RunSummary = Pick<GenerateResult, "outDir" | "kept" | "warnings" | "interrupted"> & { plan: readonly { action: PlanAction; path: string }[] };

/** Exit status of a run that found a problem (`--check` with drift). */
export const EXIT_ERROR = 1;

/** Config keys accepted but without effect: one line each, naming the file and the config path. */
export function reportWarnings(result: Pick<RunSummary, "warnings">, configFile: string): void {
  for (const warning of result.warnings) {
    process.stderr.write(`codegen: warning: ${configFile}: ${warning.path || "(root)"}: ${warning.message}\n`);
  }
}

export function reportKept(result: RunSummary): void {
  for (const kept of result.kept) {
    process.stderr.write(`codegen: warning: kept ${kept.path}: no longer generated, but ${kept.reason}; delete it yourself if unneeded\n`);
  }
}

export function announceWait(holder: LockHolder): void {
  process.stderr.write(`codegen: waiting for the codegen run of pid ${holder.pid} (since ${holder.since}) to finish writing there\n`);
}

export function reportRecovery(recovered: Recovery | undefined, outDir: string): void {
  if (!recovered) return;
  const which = recovered.pid === undefined ? "an interrupted run" : `the run of pid ${recovered.pid} interrupted since ${recovered.started}`;
  const done = recovered.outcome === "completed" ? "completed" : "rolled back";
  process.stderr.write(`codegen: ${done} ${which} in ${outDir} before writing\n`);
}

/**
 * `--timings`: one line of milliseconds per phase on stderr; `--timings json`: one JSON line
 * with absolute times. A rerun of `--watch` (`runMs` given) has no start-up: its line ends with
 * the run's time from the change instead of the process's total.
 */
export function reportTimings(timer: PhaseTimer, json: boolean, runMs?: number): void {
  const startupMs = runMs === undefined ? spanStartMs(timer) : undefined;
  if (json) {
    process.stderr.write(`codegen-timings ${JSON.stringify(runMs === undefined ? { startupMs, spans: timer.spans } : { runMs, spans: timer.spans })}\n`);
    return;
  }
  const phases = [...timer.totals()].map(([phase, ms]) => `${phase} ${ms.toFixed(0)} ms${timer.notes.has(phase) ? ` (${timer.notes.get(phase)})` : ""}`);
  const parts = startupMs === undefined ? phases : [`start-up ${startupMs.toFixed(0)} ms`, ...phases];
  const total = runMs === undefined ? `total ${performance.now().toFixed(0)} ms` : `run ${runMs.toFixed(0)} ms`;
  process.stderr.write(`codegen: timings: ${parts.join(", ")}; ${total}\n`);
}

/** Milliseconds from the process's start to the first timed phase: Node, module loading, target discovery. */
function spanStartMs(timer: PhaseTimer): number {
  const first = timer.spans[0];
  if (!first) return performance.now();
  const nowUs = Number(process.hrtime.bigint() / 1000n);
  return performance.now() - (nowUs - first.startUs) / 1000;
}

/** `1 file`, `2 files`. */
export const files = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;

/** `--check`: the entries that would change the tree, one `<action> <path>` per line; exit 1 if any. */
export function check(result: RunSummary): number {
  const drift = driftOf(result.plan);
  if (result.interrupted) {
    process.stdout.write(drift.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
    process.stderr.write(`codegen: an interrupted run left ${result.outDir} half-written; run codegen generate without --check to complete it\n`);
    return EXIT_ERROR;
  }
  if (drift.length === 0) {
    process.stdout.write(`codegen: up to date, ${files(result.plan.length)} checked, in ${result.outDir}\n`);
    return 0;
  }
  process.stdout.write(drift.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stderr.write(`codegen: ${files(drift.length)} out of date in ${result.outDir}; run codegen generate without --check\n`);
  return EXIT_ERROR;
}

/** `--dry-run`: every entry of the plan, then the summary saying nothing was written. */
export function dryRun(result: RunSummary): number {
  const counts = countActions(result.plan);
  if (result.interrupted) {
    process.stderr.write(`codegen: an interrupted run left ${result.outDir} half-written; a real run completes it first\n`);
  }
  process.stdout.write(result.plan.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stdout.write(
    `codegen: dry run, nothing written: ${files(counts.create + counts.overwrite)} to write, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} to delete, in ${result.outDir}\n`,
  );
  return 0;
}

/** The plain run, already written: one summary line. */
export function write(result: RunSummary): number {
  const counts = countActions(result.plan);
  process.stdout.write(
    `codegen: ${files(counts.create + counts.overwrite)} written, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} deleted, in ${result.outDir}\n`,
  );
  return 0;
}

/** `clean`: a warning for each file kept, then one summary line. */
export function cleaned(result: Pick<CleanResult, "outDir" | "deleted" | "kept" | "skipped">): number {
  for (const kept of result.kept) {
    process.stderr.write(`codegen: warning: kept ${kept.path}: ${kept.reason}; delete it yourself if unneeded\n`);
  }
  if (result.deleted.length + result.kept.length + result.skipped.length === 0) {
    process.stdout.write(`codegen: nothing to clean in ${result.outDir}\n`);
    return 0;
  }
  process.stdout.write(
    `codegen: ${files(result.deleted.length)} deleted, ${result.kept.length} kept, ${result.skipped.length} skipped, in ${result.outDir}\n`,
  );
  return 0;
}

/** Prints an error: a user's mistake as `<prefix>: <message>`, anything else as an internal error. */
export async function reportError(error: unknown, verbose: boolean): Promise<void> {
  const { CLIError } = await import("./codegen/errors.js");
  if (error instanceof CLIError) {
    process.stderr.write(`${error.prefix}: ${error.message}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: internal error in codegen: ${message}\n`);
  process.stderr.write(verbose && error instanceof Error ? `${error.stack}\n` : "(run with --verbose for the stack trace)\n");
}
