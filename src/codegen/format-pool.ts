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

/**
 * The formatter's earlier answers, to reuse for a file whose assembled text is the same: a
 * watch keeps them in memory ({@link FormatAnswers}), the CLI in the user's cache directory
 * (format-record.ts). An answer is the formatted text, or null when the formatter left the
 * text as it was.
 */
export interface FormatMemory {
  /** The answer for `content` at `path`, if it is known; undefined if not. */
  recall(path: string, content: string): string | null | undefined;
  /** Notes the formatter's answer for `content` at `path`. */
  remember(path: string, content: string, formatted: string | null): void;
}

/** A watch's answers: the last one per path, with the text it was given. */
export class FormatAnswers implements FormatMemory {
  readonly #answers = new Map<string, { content: string; formatted: string | null }>();

  recall(path: string, content: string): string | null | undefined {
    const earlier = this.#answers.get(path);
    return earlier?.content === content ? earlier.formatted : undefined;
  }

  remember(path: string, content: string, formatted: string | null): void {
    this.#answers.set(path, { content, formatted });
  }
}

export interface FormatOptions {
  /** How many worker threads may help. @default `defaultWorkers()` */
  workers?: number;
  /** Earlier answers to reuse for unchanged files, updated with this run's (watch mode's). @default none */
  memory?: FormatMemory;
}

/**
 * Each file through the module's `formatFile`; a file it leaves as it is keeps its object.
 * The array is updated in place and returned: each file's unformatted text is dropped as soon
 * as it is formatted, so a large run never holds both texts of every file (peak memory).
 * @param module an importable URL of the formatter module (a target's `formatter`)
 */
export async function formatFiles(files: GeneratedFile[], module: string, options: FormatOptions = {}): Promise<GeneratedFile[]> {
  const { workers = defaultWorkers(), memory } = options;
  const format = await formatterOf(module);
  const pending: number[] = [];
  let bytes = 0;
  files.forEach((file, index) => {
    const earlier = memory?.recall(file.path, file.content);
    if (earlier !== undefined) files[index] = withContent(file, earlier);
    else {
      pending.push(index);
      bytes += file.content.length;
    }
  });
  const parallel = WORKER_SCRIPT !== undefined && !module.endsWith(".ts") && workers >= 1 && bytes >= PARALLEL_BYTES;
  const [own, ...others] = parallel ? splitBySize(pending, files, workers + 1, bytes) : [pending];
  const settle = (index: number, formatted: string | null): void => {
    const file = files[index]!;
    memory?.remember(file.path, file.content, formatted);
    files[index] = withContent(file, formatted);
  };
  // Workers first: formatting here is synchronous work that would hold back their start.
  const inWorkers = others.map(async (share) => {
    const contents = await formatInWorker(share.map((index) => files[index]!), module);
    share.forEach((index, at) => settle(index, contents[at] ?? null));
  });
  // A failure here must not leave a worker's rejection unhandled; it is awaited below.
  for (const share of inWorkers) share.catch(() => {});
  for (const index of own!) {
    const file = files[index]!;
    const content = await format(file.path, file.content);
    settle(index, content === file.content ? null : content);
  }
  await Promise.all(inWorkers);
  return files;
}

/** The file with its formatted content (null: as it was). */
function withContent(file: GeneratedFile, formatted: string | null): GeneratedFile {
  return formatted === null ? file : new GeneratedFile({ path: file.path, content: formatted, ifExists: file.ifExists, executable: file.executable });
}

/** `CODEGEN_FORMAT_WORKERS` when set (0: the main thread only), else one less than the cores, at most 3, and none below 4 cores. */
function defaultWorkers(): number {
  const configured = Number.parseInt(process.env.CODEGEN_FORMAT_WORKERS ?? "", 10);
  if (Number.isInteger(configured) && configured >= 0) return configured;
  const cores = availableParallelism();
  return cores < MIN_CORES ? 0 : Math.min(cores - 1, MAX_WORKERS);
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

/** The indices of `pending` in `count` contiguous shares of about `bytes / count` each. */
function splitBySize(pending: number[], files: GeneratedFile[], count: number, bytes: number): number[][] {
  const shares: number[][] = [[]];
  const target = bytes / count;
  let filled = 0;
  for (const index of pending) {
    if (filled >= target && shares.length < count) {
      shares.push([]);
      filled = 0;
    }
    shares.at(-1)!.push(index);
    filled += files[index]!.content.length;
  }
  return shares;
}
