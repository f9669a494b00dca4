// Keeps the database in step with the code while `codegen dev` runs: when a Python file of
// the application's package changes (the user's models, or the API a regeneration just
// wrote), the project's Alembic compares the database with them; a difference becomes a
// named revision in migrations/versions/, applied at once, and the backend is reloaded.
// Checks run one at a time; saves that come while one runs are taken by a single next one.

import { type FSWatcher, watch } from "node:fs";
import { utimes } from "node:fs/promises";
import path from "node:path";
import { type MigrateReport, type StepContext, describeMigration, migrateDatabase } from "./db-steps.js";

/** Saves closer together than this are one change (an editor's save, a regeneration's files). */
const SETTLE_MS = 150;

export interface KeptInStep {
  /** Checks again after the current check, if any (a regeneration wrote files). */
  schedule(): void;
  close(): Promise<void>;
}

export interface KeepOptions {
  step: StepContext;
  allowDataLoss: boolean;
  /** Directories whose `.py` files are watched: the application's package. */
  watchDirs: string[];
  /**
   * A file under uvicorn's reloader whose time is touched once a migration was applied, so
   * the backend starts again on the migrated database (it refuses to start on one that
   * lacks what the routes need).
   */
  reloadFile: string;
  say(line: string): void;
  /** Called after each check that applied a migration, with its report. */
  onApplied?(report: MigrateReport): void;
}

export function keepDatabaseInStep(options: KeepOptions): KeptInStep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let closed = false;
  // Our own touch of reloadFile is no change of the models.
  let ignoreReloadUntil = 0;

  const check = async () => {
    queued = false;
    try {
      const started = performance.now();
      const report = await migrateDatabase(options.step, options.allowDataLoss);
      const lines = describeMigration(report, {
        retry: "codegen db migrate --allow-data-loss (beside this codegen dev), or restart codegen dev with --allow-data-loss",
        write: "codegen db migrate",
      });
      if (report.revision !== null) {
        ignoreReloadUntil = Date.now() + 1000;
        const now = new Date();
        await utimes(options.reloadFile, now, now);
        lines[0] = lines[0]!.replace(/:$/, ` in ${((performance.now() - started) / 1000).toFixed(1)} s; reloading the backend:`);
        options.onApplied?.(report);
      }
      for (const line of lines) options.say(line);
    } catch (error) {
      options.say(`${error instanceof Error ? error.message : String(error)}\nthe database was left as it was; fix the models and save again`);
    }
  };
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (queued) return;
      queued = true;
      running = running.then(check);
    }, SETTLE_MS);
  };
  const watchers: FSWatcher[] = options.watchDirs.map((dir) =>
    watch(dir, { recursive: true }, (_event, name) => {
      if (name === null || !name.endsWith(".py") || name.includes("__pycache__")) return;
      if (path.resolve(dir, name) === options.reloadFile && Date.now() < ignoreReloadUntil) return;
      schedule();
    }),
  );
  return {
    schedule,
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      await running;
    },
  };
}
