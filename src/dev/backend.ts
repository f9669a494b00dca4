// The backend under `codegen dev`: uvicorn serving the application, started again by
// `codegen dev` itself when the code changes, never by uvicorn's reloader. That reloader
// polls every file it watches unless `watchfiles` is installed, and when the application
// fails to start it keeps the port open with nothing behind it: requests hang, and only its
// traceback tells why. Here a server that exits on its own is said in one line (the error
// that ended it), nothing listens until the next start, and the next change starts it again.
// Each start is a process group of its own, recorded in the lock while it runs.

import type { Readable } from "node:stream";
import type { DevLock } from "./lock.js";
import { type ProcessGroup, spawnGroup, waitForHttp } from "./processes.js";
import { whyItStopped } from "./python-errors.js";

export interface BackendOptions {
  python: string;
  /** The arguments of `python`: `-m uvicorn …` (uvicorn.ts). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A URL the server answers once it serves. */
  probeUrl: string;
  lock: DevLock;
  say(line: string): void;
}

export interface DevBackend {
  /**
   * Stops the running server, if any, and starts one on the code as it is now. Resolves
   * true once it answers HTTP; false when it exited first (said in one line) or was stopped.
   */
  restart(): Promise<boolean>;
  /** Whether a server runs (started, and not exited). */
  running(): boolean;
  /** Stops the running server, if any; the next `restart()` starts one. */
  halt(): Promise<void>;
  /** Stops the server; no start follows. */
  stop(): Promise<void>;
}

/** How many lines of the server's error output are kept to tell why it stopped. */
const KEPT_LINES = 200;

export function startBackend(options: BackendOptions): DevBackend {
  let current: { server: ProcessGroup; probing: AbortController } | undefined;
  let stopped = false;

  const stopCurrent = async () => {
    const running = current;
    current = undefined;
    if (!running) return;
    running.probing.abort();
    await running.server.stop();
  };

  const start = async (): Promise<boolean> => {
    await stopCurrent();
    if (stopped) return false;
    const server = spawnGroup(options.python, options.args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "inherit", "pipe"] });
    const probing = new AbortController();
    const started = { server, probing };
    current = started;
    const tail = keepTail(server.child.stderr!);
    const pid = server.child.pid;
    if (pid !== undefined) await options.lock.record({ name: "uvicorn", pid, group: true, signal: "SIGTERM" });
    void server.exited.then(async (status) => {
      if (pid !== undefined) await options.lock.forget(pid);
      // Stopped by a restart or by `stop()`: nothing to tell.
      if (current !== started) return;
      current = undefined;
      probing.abort();
      options.say(`the backend stopped (status ${status}): ${whyItStopped(tail(), options.cwd)}; it starts again on the next save`);
    });
    const answered = await Promise.race([waitForHttp(options.probeUrl, options.say, probing.signal).then(() => !probing.signal.aborted), server.exited.then(() => false)]);
    return answered && current === started;
  };

  // One start or halt at a time: one asked for during another follows it.
  let queue: Promise<unknown> = Promise.resolve();
  const next = <T>(step: () => Promise<T>): Promise<T> => {
    const done = queue.then(step);
    queue = done.catch(() => undefined);
    return done;
  };
  return {
    restart: () => next(start),
    running: () => current !== undefined,
    halt: () => next(stopCurrent),
    async stop() {
      stopped = true;
      await stopCurrent();
    },
  };
}

/** Passes `stream` on to this process's stderr, keeping its last lines; returns them on demand. */
function keepTail(stream: Readable): () => string[] {
  const lines: string[] = [];
  let partial = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    process.stderr.write(chunk);
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  });
  return () => (partial === "" ? lines : [...lines, partial]);
}
