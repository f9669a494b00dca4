// What `codegen dev` does when the code changes: a Python file of the application's package
// saved (the user's models or actions, or the API a regeneration just wrote).
//   1. The config's references are checked against the models (check.ts), and the database
//      is migrated (migrations.ts, unless `--no-migrate`), side by side: both import the
//      models, and the migration follows the models whatever the config says.
//   2. The backend starts again (backend.ts), unless the check found a problem: then each is
//      said, one line with its config path, and the backend is not started on that code.
// One run at a time, after any regeneration in progress; changes during a run make one more
// run after it. The package is watched through the system's notifications (inotify), never
// polled; the generated API's files are left to the regeneration that writes them.

import { type FSWatcher, watch } from "node:fs";
import path from "node:path";
import type { DevBackend } from "./backend.js";

/** Saves closer together than this are one change (an editor's save, a regeneration's files). */
const SETTLE_MS = 100;

export interface ReloadOptions {
  /** Directories whose `.py` files are watched: the application's package. */
  watchDirs: string[];
  /** A directory under them whose changes are left to `schedule()`: the generated API, which the regeneration that writes it reports once. */
  ignoreDir: string;
  /** Resolves once no regeneration is pending or running: a run checks the API as it is written. */
  regenerated(): Promise<void>;
  /** The problems of the config's references to the models, one line each. @throws when the check cannot run (models that do not import) */
  check(): Promise<string[]>;
  /** Keeps the database in step with the code: the lines that say what it did, and whether it failed. */
  migrate?(): Promise<{ lines: string[]; failed: boolean }>;
  /** The backend, started again after each change. */
  backend: Pick<DevBackend, "restart" | "running">;
  /** The backend serves the code as it is now. */
  onServed(): void;
  say(line: string): void;
}

export interface Reloader {
  /** Reloads once the current run, if any, has ended (a regeneration wrote files). */
  schedule(): void;
  /** Stops watching; resolves once the run in progress has ended. */
  close(): Promise<void>;
}

export function reloadOnChange(options: ReloadOptions): Reloader {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  // A change not yet taken by a run: set by every change, cleared as a run starts to read the code.
  let changed = false;
  let closed = false;

  const reload = async () => {
    const checking = options.check().then(
      (problems) => ({ problems, imported: true }),
      (error: unknown) => ({ problems: [error instanceof Error ? error.message : String(error)], imported: false }),
    );
    const [{ problems, imported }, migrated] = await Promise.all([checking, options.migrate?.()]);
    // Models that do not import fail the migration too: the check's one line says it.
    if (migrated && (imported || !migrated.failed)) for (const line of migrated.lines) options.say(line);
    if (problems.length > 0) {
      for (const line of problems) options.say(line);
      options.say(options.backend.running() ? "the backend was not started again; fix this and save again" : "the backend starts once this is fixed and saved");
      return;
    }
    if (closed) return;
    if (await options.backend.restart()) options.onServed();
  };

  const runWhileChanged = async () => {
    while (changed && !closed) {
      await options.regenerated();
      changed = false;
      await reload();
    }
  };

  const schedule = () => {
    if (closed) return;
    changed = true;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running ??= runWhileChanged().finally(() => (running = undefined));
    }, SETTLE_MS);
  };

  const inside = (parent: string, child: string) => !path.relative(parent, child).startsWith("..");
  const watchers: FSWatcher[] = options.watchDirs.map((dir) => {
    // Unless the generated API is the whole package: then every change counts.
    const ignored = inside(options.ignoreDir, dir) ? undefined : options.ignoreDir;
    return watch(dir, { recursive: true }, (_event, name) => {
      if (name === null || !name.endsWith(".py") || name.includes("__pycache__")) return;
      if (ignored !== undefined && inside(ignored, path.resolve(dir, name))) return;
      schedule();
    });
  });
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
