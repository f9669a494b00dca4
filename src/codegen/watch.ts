// Watch mode: one warm process regenerates whenever the config, a file it imports (jsonnet
// `import`/`importstr`/`importbin`, followed transitively) or a template changes. Each run is
// an ordinary locked, journaled write of only the files that differ; a run that fails (a config
// error, say) is reported and leaves the previous output untouched, and watching goes on.

import { type FSWatcher, readFileSync, statSync, watch } from "node:fs";
import path from "node:path";

import { type GenerateOptions, type GenerateResult, buildGeneration, writeBuilt } from "./generate.js";
import type { Recovery } from "./journal.js";

/** What each watched run reports. */
export interface WatchHandlers {
  /** A run finished: its result and how long it took (ms, from the change to the last write). */
  onRun(result: GenerateResult & { written: number; recovered: Recovery | undefined }, ms: number): void;
  /** A run failed; the previous output is left as it was. */
  onError(error: unknown): void;
}

/** A running watch: `close()` stops it; `idle()` resolves once no run is pending or running. */
export interface Watcher {
  close(): void;
  idle(): Promise<void>;
  /** The files and directories being watched, absolute. */
  readonly watched: readonly string[];
}

/** How long to let a burst of file events settle before regenerating (editors write in steps). */
const SETTLE_MS = 25;

/**
 * Runs the generation once, then again on every change to what it read.
 * @example const watcher = await watchGeneration(options, { onRun: print, onError: report });
 */
export async function watchGeneration(options: GenerateOptions, handlers: WatchHandlers): Promise<Watcher> {
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let watchers: FSWatcher[] = [];
  let watched: string[] = [];
  // The override directory the config named at its last successful build.
  let templateDirs: string[] = [];

  const run = async (): Promise<void> => {
    const started = performance.now();
    try {
      const built = await buildGeneration(options);
      templateDirs = built.userTemplatesDir === undefined ? [] : [built.userTemplatesDir];
      const result = await writeBuilt(built, options);
      handlers.onRun(result, performance.now() - started);
    } catch (error) {
      handlers.onError(error);
    }
    if (!closed) rewatch();
  };

  // Which files to watch can change with each run (an import added or removed).
  const rewatch = (): void => {
    const files = watchedFiles(options, templateDirs);
    if (files.join("\n") === watched.join("\n")) return;
    for (const watcher of watchers) watcher.close();
    watched = files;
    watchers = watchAll(files, () => {
      clearTimeout(timer);
      timer = setTimeout(() => (running = running.then(run)), SETTLE_MS);
    });
  };

  running = run();
  await running;
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
    async idle() {
      await running;
    },
    get watched() {
      return watched;
    },
  };
}

/** The config, every file it imports (transitively), the target's template directory, and `templateDirs` (user templates). */
export function watchedFiles(options: Pick<GenerateOptions, "configFile" | "target" | "stdlibTargets" | "cwd">, templateDirs: readonly string[] = []): string[] {
  const config = path.resolve(options.cwd ?? process.cwd(), options.configFile);
  const searchDirs = (options.stdlibTargets ?? [options.target]).flatMap((target) =>
    target.jsonnetStdlibDir ? [path.dirname(target.jsonnetStdlibDir)] : [],
  );
  const files = new Set<string>();
  const pending = [config];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(jsonnet|libsonnet)$/.test(file)) continue;
    for (const imported of jsonnetImports(readOrEmpty(file))) {
      const found = [path.dirname(file), ...searchDirs].map((dir) => path.resolve(dir, imported)).find(isReadable);
      if (found) pending.push(found);
    }
  }
  return [...files, options.target.templateDir, ...templateDirs].sort();
}

/**
 * The paths a jsonnet file imports. Jsonnet requires import paths to be string literals, so a
 * scan of the source (comments removed) finds them all.
 */
export function jsonnetImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:'"])(\/\/|#).*$/gm, "$1");
  const found: string[] = [];
  for (const match of code.matchAll(/\bimport(?:str|bin)?\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|@'([^']*)'|@"([^"]*)")/g)) {
    found.push(match[1] ?? match[2] ?? match[3] ?? match[4]!);
  }
  return found;
}

/** Watches each file's directory (editors often replace a file rather than change it) and each directory recursively. */
function watchAll(targets: readonly string[], changed: () => void): FSWatcher[] {
  const byDir = new Map<string, Set<string> | "all">();
  for (const target of targets) {
    if (isDirectory(target)) byDir.set(target, "all");
    else {
      const dir = path.dirname(target);
      const names = byDir.get(dir);
      if (names !== "all") byDir.set(dir, (names ?? new Set()).add(path.basename(target)));
    }
  }
  const watchers: FSWatcher[] = [];
  for (const [dir, names] of byDir) {
    try {
      watchers.push(
        watch(dir, { recursive: names === "all", persistent: true }, (_event, name) => {
          if (names === "all" || name === null || names.has(path.basename(name.toString()))) changed();
        }),
      );
    } catch {
      // A directory that vanished: the next run reports what is missing.
    }
  }
  return watchers;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isReadable(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isDirectory(target: string): boolean {
  return statSync(target, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
