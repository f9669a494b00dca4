// Runs jsonnet-child.mjs: the evaluation runs beside codegen's own start-up, and a failing
// evaluator ends a child process, not codegen. A one-shot run starts a child for its evaluation,
// as soon as it knows it has work to do; a watch keeps its first child for all of its runs: a
// child costs 60-100 ms to start (Node), and its first evaluation 30-40 ms more than later ones
// (compiling the evaluator, reading jsonnet's standard library).

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What the child answered: the JSON text, the evaluation's error message, or how it died. */
export type ChildEvaluation =
  | { kind: "ok"; text: string }
  | { kind: "error"; message: string }
  /** It ended without an answer (killed, or the runtime failed), with what it printed then. */
  | { kind: "crashed"; signal: NodeJS.Signals | null; status: number | null; stderr: string };

/** A .mjs file, so that it runs as it is under tsx (the tests) and from dist/ alike. */
const CHILD_SCRIPT = fileURLToPath(new URL("./jsonnet-child.mjs", import.meta.url));

/** A running jsonnet-child.mjs, and how it ended once it has. */
interface JsonnetChild {
  process: ChildProcessWithoutNullStreams;
  /** Resolves when the process has ended, with its status and what it printed to stderr. */
  ended: Promise<Extract<ChildEvaluation, { kind: "crashed" }>>;
}

/** The child kept for the next evaluation ({@link keepChildReady}, or `keep`), if any. */
let ready: JsonnetChild | undefined;

/**
 * Evaluates `file` with `libraryDirs` in a child process: the ready one, if there is one.
 * @param options.keep keep the child, waiting, for the next evaluation (a watch); else it ends.
 */
export async function evaluateInChild(file: string, libraryDirs: readonly string[], options: { keep?: boolean } = {}): Promise<ChildEvaluation> {
  const child = ready ?? startChild(options.keep === true);
  ready = undefined;
  keepsAlive(child.process, true);
  const answer = Promise.race([nextAnswer(child.process.stdout), child.ended]);
  child.process.stdin.write(`${JSON.stringify({ file, libraryDirs })}\n`);
  const result = await answer;
  if (result.kind === "crashed") return result;
  if (options.keep && ready === undefined) park(child);
  else child.process.stdin.end();
  return result;
}

/**
 * Starts the child of the next evaluation, unless one is ready: it waits without keeping this
 * process alive, and ends when this process does. The CLI calls it once it knows the run has work to do.
 */
export function keepChildReady(): void {
  if (ready === undefined) park(startChild(false));
}

function park(child: JsonnetChild): void {
  keepsAlive(child.process, false);
  ready = child;
}

/** A new child; `kept` for a watch's, which will evaluate many times (jsonnet-child.mjs compiles for that). */
function startChild(kept: boolean): JsonnetChild {
  // No execArgv (the child needs neither tsx nor the parent's V8 flags); gc() to reuse memory.
  const spawned = spawn(process.execPath, ["--expose-gc", CHILD_SCRIPT, ...(kept ? ["--kept"] : [])], { stdio: ["pipe", "pipe", "pipe"] });
  spawned.stdin.on("error", () => {}); // a child that died: `ended` says so
  const stderr: Buffer[] = [];
  spawned.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  const child: JsonnetChild = {
    process: spawned,
    ended: new Promise((resolve, reject) => {
      spawned.once("error", reject);
      spawned.once("close", (status, signal) => {
        if (ready === child) ready = undefined;
        resolve({ kind: "crashed", signal, status, stderr: Buffer.concat(stderr).toString("utf8") });
      });
    }),
  };
  child.ended.catch(() => {}); // a failed spawn rejects the evaluation that awaits it
  return child;
}

/** Whether `child` and its pipes keep this process alive (pipes are sockets, which unref as the process does). */
function keepsAlive(child: ChildProcessWithoutNullStreams, keep: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as { ref(): void; unref(): void }[]) {
    if (keep) handle.ref();
    else handle.unref();
  }
}

/** The next framed answer on `stdout` (jsonnet-child.mjs writes `<kind> <bytes>`, then the bytes), as soon as all of it has come. */
function nextAnswer(stdout: ChildProcessWithoutNullStreams["stdout"]): Promise<ChildEvaluation> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    // The answer's header, once its line has come: its kind, and where its payload lies.
    let header: { kind: string; start: number; end: number } | undefined;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (header === undefined) {
        const head = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const newline = head.indexOf(10);
        if (newline === -1) return;
        const [kind, size] = head.subarray(0, newline).toString("latin1").split(" ");
        header = { kind: kind!, start: newline + 1, end: newline + 1 + Number(size) };
      }
      if (length < header.end) return;
      stdout.off("data", onData);
      const payload = Buffer.concat(chunks, length).subarray(header.start, header.end).toString("utf8");
      resolve(header.kind === "ok" ? { kind: "ok", text: payload } : { kind: "error", message: payload });
    };
    stdout.on("data", onData);
  });
}
