// Formats assembled files with the target's formatter module. A large run is split by size
// between the main thread and worker threads that each import the module themselves, so on a
// machine with idle cores formatting takes a fraction of its wall time; a small run, where a
// worker's start-up would cost more than it saves, stays on the main thread.

import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

import { GeneratedFile } from "./writer.js";

/** What a worker is sent: `[path, content]` pairs. */
export interface FormatBatch {
  files: [path: string, content: string][];
}

/** A worker's answer: one entry per file (null: unchanged), or the error that stopped it. */
export type FormatReply = { contents: (string | null)[] } | { error: { message: string; stack?: string } };

type FormatFile = (path: string, content: string) => Promise<string>;

/** Below this much content a run is formatted on the main thread alone (a worker starts in ~30 ms). */
const PARALLEL_BYTES = 2_000_000;
/** Workers beyond a few gain little: the main thread still assembles and writes alone. */
const MAX_WORKERS = 3;
/**
 * Fewer cores than this, and no worker by default: on 2 cores the threads' garbage collectors
 * fight over them, and a 16 MB run formatted in 1.36-1.61 s with a worker against
 * 1.45-1.55 s without, for 50 MB more memory (bench/README.md).
 */
const MIN_CORES = 4;

/**
 * Node 20's workers do not get the module hooks of `--import` (tsx, in this repository's
 * tests), so only a compiled engine with a compiled formatter module uses them.
 */
const WORKER_SCRIPT = import.meta.url.endsWith(".js") ? new URL("./format-worker.js", import.meta.url) : undefined;

const formatters = new Map<string, Promise<FormatFile>>();

/** The module's `formatFile`, imported once per process. */
function formatterOf(module: string): Promise<FormatFile> {
  let formatter = formatters.get(module);
  if (!formatter) {
    formatter = import(module).then((loaded: { formatFile?: FormatFile }) => {
      if (typeof loaded.formatFile !== "function") throw new TypeError(`formatter module ${module} has no formatFile export`);
      return loaded.formatFile;
    });
    formatters.set(module, formatter);
  }
  return formatter;
}

/** What each path was formatted to last: `formatted` is null when the formatter left it as it was. */
export type FormatMemory = Map<string, { content: string; formatted: string | null }>;

export interface FormatOptions {
  /** How many worker threads may help. @default `defaultWorkers()` */
  workers?: number;
  /** Earlier answers to reuse for unchanged files, updated with this run's (watch mode's). @default none */
  memory?: FormatMemory;
}

/**
 * Each file through the module's `formatFile`; a file it leaves as it is keeps its object.
 * @param module an importable URL of the formatter module (a target's `formatter`)
 */
export async function formatFiles(files: GeneratedFile[], module: string, options: FormatOptions = {}): Promise<GeneratedFile[]> {
  const { workers = defaultWorkers(), memory } = options;
  const format = await formatterOf(module);
  const answers = new Map<GeneratedFile, string | null>();
  const pending = files.filter((file) => {
    const earlier = memory?.get(file.path);
    if (earlier?.content !== file.content) return true;
    answers.set(file, earlier.formatted);
    return false;
  });
  const bytes = pending.reduce((sum, file) => sum + file.content.length, 0);
  const parallel = WORKER_SCRIPT !== undefined && !module.endsWith(".ts") && workers >= 1 && bytes >= PARALLEL_BYTES;
  const shares = parallel ? splitBySize(pending, workers + 1, bytes) : [pending];
  const [own, ...others] = shares;
  // Workers first: formatting here is synchronous work that would hold back their start.
  const inWorkers = others.map((share) => formatInWorker(share, module));
  const contents = (await Promise.all([formatHere(own!, format), ...inWorkers])).flat();
  // Shares are contiguous, so the answers line up with `pending`.
  pending.forEach((file, index) => {
    const formatted = contents[index] ?? null;
    answers.set(file, formatted);
    memory?.set(file.path, { content: file.content, formatted });
  });
  return files.map((file) => {
    const content = answers.get(file);
    return content === null || content === undefined ? file : new GeneratedFile({ path: file.path, content, ifExists: file.ifExists, executable: file.executable });
  });
}

/** `CODEGEN_FORMAT_WORKERS` when set (0: the main thread only), else one less than the cores, at most 3, and none below 4 cores. */
function defaultWorkers(): number {
  const configured = Number.parseInt(process.env.CODEGEN_FORMAT_WORKERS ?? "", 10);
  if (Number.isInteger(configured) && configured >= 0) return configured;
  const cores = availableParallelism();
  return cores < MIN_CORES ? 0 : Math.min(cores - 1, MAX_WORKERS);
}

async function formatHere(files: GeneratedFile[], format: FormatFile): Promise<(string | null)[]> {
  return Promise.all(files.map(async (file) => {
    const content = await format(file.path, file.content);
    return content === file.content ? null : content;
  }));
}

function formatInWorker(files: GeneratedFile[], module: string): Promise<(string | null)[]> {
  const worker = new Worker(WORKER_SCRIPT!, { workerData: { module } });
  return new Promise<(string | null)[]>((resolve, reject) => {
    worker.once("message", (reply: FormatReply) => {
      if ("error" in reply) {
        const error = new Error(reply.error.message);
        if (reply.error.stack) error.stack = reply.error.stack;
        reject(error);
      } else resolve(reply.contents);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`a format worker exited with code ${code} before answering`)));
    const batch: FormatBatch = { files: files.map((file) => [file.path, file.content]) };
    worker.postMessage(batch);
  }).finally(() => void worker.terminate());
}

/** `count` contiguous shares of about `bytes / count` each. */
function splitBySize(files: GeneratedFile[], count: number, bytes: number): GeneratedFile[][] {
  const shares: GeneratedFile[][] = [[]];
  const target = bytes / count;
  let filled = 0;
  for (const file of files) {
    if (filled >= target && shares.length < count) {
      shares.push([]);
      filled = 0;
    }
    shares.at(-1)!.push(file);
    filled += file.content.length;
  }
  return shares;
}
