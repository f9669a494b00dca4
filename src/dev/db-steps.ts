// The database steps `codegen dev`, `codegen db` and `codegen test` take, run by
// db_steps.py in the project's Python with the project's own Alembic environment: migrate
// (apply, autogenerate a named revision, apply it), reset, and create the test database.
// Alembic's log is kept back and shown only when a step fails; what changed is said in a
// few lines.

import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Interpreters } from "./interpreters.js";
import { DevError, type DevProject } from "./project.js";
import { appSourceDirs } from "./uvicorn.js";

const STEPS = fileURLToPath(new URL("./db_steps.py", import.meta.url));

/** A step that hangs (a database that stops answering mid-migration) fails after this long. */
const STEP_TIMEOUT_MS = 300_000;

/** What `migrate` did. */
export interface MigrateReport {
  /** Every difference autogenerate found, one readable line each (`add column notes.body (VARCHAR)`). */
  changes: string[];
  /** The differences that would drop stored data (tables, columns). */
  data_loss: string[];
  /** The revision written and applied, relative to the project; null when none was. */
  revision: string | null;
}

export interface StepContext {
  /** The project's Python, in the project's directory, with the database's URL in its environment. */
  interpreters: Interpreters;
  root: string;
  /** The variable of the interpreters' environment holding the database's URL. */
  urlEnv: string;
}

/** Runs one step; returns its JSON report. @throws DevError with Alembic's output when it fails. */
async function runStep<T>(context: StepContext, args: string[]): Promise<T> {
  const { child, exited } = context.interpreters.start(STEPS, [...args, "--url-env", context.urlEnv]);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin!.end();
  let failed: Error | undefined;
  child.once("error", (error) => (failed = error));
  const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT_MS);
  const status = await exited.finally(() => clearTimeout(timer));
  if (failed) throw new DevError(`cannot run ${context.interpreters.python}: ${failed.message}`);
  const report = stdout.trim().split("\n").at(-1) ?? "";
  if (status === 3 && report.startsWith('{"unreachable"')) {
    const { unreachable } = JSON.parse(report) as { unreachable: string };
    throw new DevError(`the database at ${context.urlEnv} does not answer (${unreachable}); start it, or correct ${context.urlEnv}`);
  }
  if (status !== 0 || !report.startsWith("{")) {
    throw new DevError(`${args[0]} failed (status ${status}):\n${(stderr + stdout).trimEnd()}`);
  }
  return JSON.parse(report) as T;
}

/**
 * Applies the migrations, then writes and applies a revision for what the models and the
 * generated API need beyond them, unless it would drop data and `allowDataLoss` is not set.
 */
export function migrateDatabase(context: StepContext, allowDataLoss: boolean): Promise<MigrateReport> {
  return runStep(context, ["migrate", ...(allowDataLoss ? ["--allow-data-loss"] : [])]);
}

/** Applies the migrations and reports what a new revision would hold, writing nothing. */
export function planMigration(context: StepContext): Promise<MigrateReport> {
  return runStep(context, ["migrate", "--plan"]);
}

/** Drops everything in the database's public schema, then migrates it as `migrateDatabase` does. */
export function resetDatabase(context: StepContext, allowDataLoss: boolean): Promise<MigrateReport> {
  return runStep(context, ["reset", ...(allowDataLoss ? ["--allow-data-loss"] : [])]);
}

/** Creates database `name` on the server of the context's URL; false when it exists already. */
export async function createDatabase(context: StepContext, name: string): Promise<boolean> {
  return (await runStep<{ created: boolean }>(context, ["create", "--database", name])).created;
}

/**
 * The lines that tell the user what `migrate` did, or why it wrote nothing: `retry` is the
 * command that applies a change that drops data, `write` the one that writes a planned one.
 */
export function describeMigration(report: MigrateReport, commands: { retry: string; write: string }): string[] {
  if (report.changes.length === 0) return [];
  const changes = report.changes.map((line) => `  ${line}`);
  if (report.revision !== null) return [`migration ${report.revision} written and applied:`, ...changes];
  if (report.data_loss.length === 0) return ["the models differ from the database; no migration was written for:", ...changes, `to write and apply one: ${commands.write}`];
  const others = report.changes.filter((line) => !report.data_loss.includes(line));
  return [
    `a migration would ${report.data_loss.join(", ")}, and lose the data in it; nothing was written or applied`,
    ...(others.length > 0 ? ["the other pending changes:", ...others.map((line) => `  ${line}`)] : []),
    `to apply it (the data is lost): ${commands.retry}`,
  ];
}

/** Where a project's seed lives: `seed(session)` in `module`, and the models whose tables must be empty for `ifEmpty`. */
export interface SeedModules {
  module: string;
  models: string;
}

/**
 * Calls the project's `seed(session)` and commits; with `ifEmpty`, only when every table
 * of the models is empty. Returns whether it ran, or the table that holds rows.
 */
export function seedDatabase(context: StepContext, modules: SeedModules, ifEmpty: boolean): Promise<{ seeded: boolean; holding?: string }> {
  return runStep(context, ["seed", "--module", modules.module, "--models", modules.models, ...(ifEmpty ? ["--if-empty"] : [])]);
}

/** The application package's `seed.py` (be_root writes one), if the project has it. */
export function projectSeed(project: DevProject): SeedModules | undefined {
  const [dir] = appSourceDirs(project);
  if (dir === undefined || dir === project.root || !existsSync(path.join(dir, "seed.py"))) return undefined;
  const name = path.basename(dir);
  return { module: `${name}.seed`, models: `${name}.models` };
}
