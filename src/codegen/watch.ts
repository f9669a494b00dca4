// Watch mode: one process regenerates whenever the config, a file its evaluation read (jsonnet
// imports, transitively), a path it looked for in vain, or a template changes. Each run is
// the ordinary run (generate.ts) again, a locked, journaled write of only the files that
// differ; a run that fails (a config error, say) is reported and leaves the previous output
// untouched, and watching goes on. Runs never overlap.

import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import type { ConfigReads } from "./config.js";
import { type GenerateOptions, type WriteResult, generate } from "./generate.js";
import { PhaseTimer } from "./timings.js";
import { FileWatchSet } from "./watch-files.js";

/** One finished run of a watch, as its handlers see it. */
export interface WatchRun {
  /** Milliseconds from the first change the run answers (its start, for the first run) to its end. */
  ms: number;
  /** How long each phase of this run took. */
  timer: PhaseTimer;
}

/** What each watched run reports. */
export interface WatchHandlers {
  /** A run finished and wrote what changed. */
  onRun(result: WriteResult, run: WatchRun): void;
  /** A run failed; the previous output is left as it was. */
  onError(error: unknown, run: WatchRun): void;
}

/** A running watch: `close()` stops it; `idle()` resolves once no run is pending or running. */
export interface Watcher {
  /** Stops watching; a run in progress stops at its next phase boundary (a write in progress completes). */
  close(): void;
  idle(): Promise<void>;
  /** Whether a run is running, or follows a change seen (its files settling): what was generated may not answer the inputs as they are. */
  pending(): boolean;
  /** The directories being watched, absolute. */
  readonly watched: readonly string[];
  /** The files whose change triggers a run (the config and what it imports), absolute. */
  readonly inputs: readonly string[];
}

/** How long a burst of file events must stay quiet before a run starts (editors write in several steps). */
const SETTLE_MS = 25;

/** Files of a target's template directory that a running process cannot reload (its code): changes to them are ignored. */
const isTargetCode = (name: string): boolean => /\.(?:[cm]?[jt]s|map)$/.test(name);

/**
 * Runs the generation once, then again on every change to what it read, until closed (or
 * `options.signal` aborts: then it resolves once the run in progress has stopped).
 * @example const watcher = await watchGeneration(options, { onRun: print, onError: report });
 */
export async function watchGeneration(options: GenerateOptions, handlers: WatchHandlers): Promise<Watcher> {
  const abort = new AbortController();
  const cwd = options.cwd ?? process.cwd();
  const configFile = path.resolve(cwd, options.configFile);
  let settle: NodeJS.Timeout | undefined;
  let firstChange: number | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let inputs: readonly string[] = [configFile];
  // The override directory the config named at its last successful build (kept while it fails).
  let userTemplatesDir: string | undefined;

  const files = new FileWatchSet(() => {
    if (closed) return;
    firstChange ??= performance.now();
    clearTimeout(settle);
    settle = setTimeout(() => {
      settle = undefined;
      start();
    }, SETTLE_MS);
  });
  const pending = () => running !== undefined || settle !== undefined;

  const run = async (): Promise<void> => {
    const started = firstChange ?? performance.now();
    firstChange = undefined;
    const timer = new PhaseTimer();
    // What this run's evaluation reads, whether or not the run succeeds; the config alone if it never gets that far.
    let reads: ConfigReads = { files: [configFile], missing: [] };
    try {
      const result = await generate({ ...options, timer, signal: abort.signal, onConfigRead: (found) => (reads = found) });
      userTemplatesDir = result.userTemplatesDir;
      handlers.onRun(result, { ms: performance.now() - started, timer });
    } catch (error) {
      // A run that failed while a newer change came in may have read a half-saved file: the next run tells.
      const superseded = again || firstChange !== undefined;
      if (!abort.signal.aborted && !superseded) handlers.onError(error, { ms: performance.now() - started, timer });
    }
    if (closed) return;
    inputs = reads.files;
    files.update({
      files: [...reads.files, ...reads.missing],
      trees: [
        { dir: options.target.templateDir, ignore: isTargetCode },
        ...(userTemplatesDir === undefined ? [] : [{ dir: userTemplatesDir }]),
      ],
    });
  };

  // One run at a time: a change during a run starts another once it ends.
  function start(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        start();
      }
    });
  }

  const close = (): void => {
    closed = true;
    clearTimeout(settle);
    settle = undefined;
    abort.abort(new Error("the watch was closed"));
    files.close();
  };
  if (options.signal?.aborted) close();
  options.signal?.addEventListener("abort", close, { once: true });
  start();
  await running;
  return {
    close,
    async idle() {
      while (pending()) await (running ?? sleep(SETTLE_MS));
    },
    pending,
    get watched() {
      return files.directories;
    },
    get inputs() {
      return inputs;
    },
  };
}
