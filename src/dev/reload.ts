// What `codegen dev` does when the code changes: a Python file of the application's package
// saved (the user's models or actions, or the API a regeneration just wrote).
//   1. The config's references are checked against the models (check.ts), and the database
//      is migrated (migrations.ts, unless `--no-migrate`), side by side: both import the
//      models, and the migration follows the models whatever the config says.
//   2. The backend starts again (backend.ts), unless the check found a problem: then each is
//      said, one line with its config path, and the backend is not started on that code.
//      The next server imports the application during step 1, and serves only after it.
// One run at a time, after any regeneration in progress; changes during a run make one more
// run after it. The package is watched through the system's notifications (inotify), never
// polled; the generated API's files are left to the regeneration that writes them.
//
// The backend starts only on code the check saw: a run holds the generated API (no
// regeneration writes it from the check until the backend answers), and when a file or the
// config changed during the check it leaves the start to the next run, which checks that.
// A backend that started while a file of the package was saved may have loaded it: when the
// next run's check refuses that code, it is stopped rather than left serving it.

import { type FSWatcher, watch } from "node:fs";
import path from "node:path";
import type { DevBackend } from "./backend.js";

/** Saves closer together than this are one change (an editor's save, a regeneration's files). */
const SETTLE_MS = 100;

/** The generated API as a run sees it: written by regenerations, which the run waits for and holds off. */
export interface GeneratedApi {
  /** Resolves once no regeneration is pending or running. */
  settled(): Promise<void>;
  /** Whether a regeneration is pending or running: the config changed since the API was written. */
  pending(): boolean;
  /** Runs `fn` while no regeneration writes the API (the output directory's lock). */
  hold<T>(fn: () => Promise<T>): Promise<T>;
}

export interface ReloadOptions {
  /** Directories whose `.py` files are watched: the application's package. */
  watchDirs: string[];
  /** A directory under them whose changes are left to `schedule()`: the generated API, which the regeneration that writes it reports once. */
  ignoreDir: string;
  api: GeneratedApi;
  /** The problems of the config's references to the models, one line each. @throws when the check cannot run (models that do not import) */
  check(): Promise<string[]>;
  /** Keeps the database in step with the code: the lines that say what it did, and whether it failed. */
  migrate?(): Promise<{ lines: string[]; failed: boolean }>;
  /** The backend, started again after each change (prepared as the run checks), and stopped with the reloader. */
  backend: Pick<DevBackend, "prepare" | "discard" | "restart" | "running" | "halt" | "stop">;
  /** The backend serves the code as it is now. */
  onServed(): void;
  /** A run ended, whatever ended it (the interpreters for the next one start then). */
  onRunEnded?(): void;
  say(line: string): void;
}

export interface Reloader {
  /** Reloads once the current run, if any, has ended (a regeneration wrote files, or the first start). */
  schedule(): void;
  /** Stops watching and the backend (a start in progress too); resolves once the run in progress has ended. */
  close(): Promise<void>;
}

export function reloadOnChange(options: ReloadOptions): Reloader {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  // A change not yet taken by a run: set by every change, cleared as a run starts to read the code.
  let changed = false;
  let closed = false;

  // The backend serving started while a file of the package was saved: the check did not see what it loaded.
  let startedAmidChange = false;

  /** One run, holding the generated API: check and migrate, then start the backend unless the code changed meanwhile. */
  const reload = async () => {
    changed = false;
    options.backend.prepare();
    try {
      const checking = options.check().then(
        (problems) => ({ problems, imported: true }),
        (error: unknown) => ({ problems: [error instanceof Error ? error.message : String(error)], imported: false }),
      );
      const [{ problems, imported }, migrated] = await Promise.all([checking, options.migrate?.()]);
      // Models that do not import fail the migration too: the check's one line says it.
      if (migrated && (imported || !migrated.failed)) for (const line of migrated.lines) options.say(line);
      if (problems.length > 0) {
        for (const line of problems) options.say(line);
        if (startedAmidChange && options.backend.running()) {
          await options.backend.halt();
          options.say("the backend was stopped: it started as files were saved, and may serve this code; it starts once this is fixed and saved");
        } else {
          options.say(options.backend.running() ? "the backend was not started again; fix this and save again" : "the backend starts once this is fixed and saved");
        }
        return;
      }
      // Saved again since the check read the code: the next run checks that, and starts the backend on it.
      if (closed || changed || options.api.pending()) return;
      if (await options.backend.restart()) options.onServed();
      startedAmidChange = changed;
    } finally {
      // A server prepared and not started is not to serve what it imported: it never outlives its run.
      await options.backend.discard();
      options.onRunEnded?.();
    }
  };

  const runWhileChanged = async () => {
    while (changed && !closed) {
      await options.api.settled();
      await options.api.hold(reload);
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
      await options.backend.stop();
      await running;
    },
  };
}
