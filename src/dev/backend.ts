// The backend under `codegen dev`: uvicorn serving the application, started again by
// `codegen dev` itself when the code changes, never by uvicorn's reloader. That reloader
// polls every file it watches unless `watchfiles` is installed, and when the application
// fails to start it keeps the port open with nothing behind it: requests hang, and only its
// traceback tells why. Here a server that exits on its own is said in one line (the error
// that ended it), nothing listens until the next start, and the next change starts it again.
// Each start is a process group of its own, recorded in the lock while it runs.
//
// A start is prepared while the run checks and migrates (uvicorn_when_told.py): the next
// server imports the application beside them, and serves once told, after the one serving
// has stopped; a run that does not start it discards it, unheard. Only its import overlaps
// the check: it never serves before the run decided it may.

import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { Interpreters } from "./interpreters.js";
import { type ProcessGroup, waitForHttp } from "./processes.js";
import { whyItStopped } from "./python-errors.js";

export interface BackendOptions {
  /** The project's Python, in the project's directory and the backend's environment, its output on the terminal. */
  interpreters: Interpreters;
  /** uvicorn's arguments, the application first (uvicorn.ts). */
  args: string[];
  /** The project's directory. */
  cwd: string;
  /** A URL the server answers once it serves. */
  probeUrl: string;
  say(line: string): void;
}

export interface DevBackend {
  /** Starts the next server's import of the application, unless one is under way; `restart()` serves it. */
  prepare(): void;
  /** Stops the prepared server, if any, unheard: the code it imported is not to be served. */
  discard(): Promise<void>;
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

const UVICORN_WHEN_TOLD = fileURLToPath(new URL("./uvicorn_when_told.py", import.meta.url));

/** A server started before it may serve: its error output is kept back until it serves. */
interface Prepared {
  server: ProcessGroup;
  tail: Tail;
}

export function startBackend(options: BackendOptions): DevBackend {
  let current: { server: ProcessGroup; probing: AbortController } | undefined;
  let prepared: Prepared | undefined;
  let stopped = false;

  const stopCurrent = async () => {
    const running = current;
    current = undefined;
    if (!running) return;
    running.probing.abort();
    await running.server.stop();
  };

  const prepare = (): Prepared => {
    const server = options.interpreters.start(UVICORN_WHEN_TOLD, options.args);
    return { server, tail: keepTail(server.child.stderr!) };
  };

  const discard = async () => {
    const unheard = prepared;
    prepared = undefined;
    await unheard?.server.stop();
  };

  const start = async (): Promise<boolean> => {
    await stopCurrent();
    // Stopped meanwhile: `stop()` discarded the prepared server too.
    if (stopped) return false;
    const { server, tail } = prepared ?? prepare();
    prepared = undefined;
    const probing = new AbortController();
    const started = { server, probing };
    current = started;
    tail.passOn();
    void server.exited.then((status) => {
      // Stopped by a restart or by `stop()`: nothing to tell.
      if (current !== started) return;
      current = undefined;
      probing.abort();
      options.say(`the backend stopped (status ${status}): ${whyItStopped(tail.lines(), options.cwd)}; it starts again on the next save`);
    });
    server.child.stdin!.end("serve\n");
    await Promise.race([waitForHttp(options.probeUrl, options.say, probing.signal), server.exited]);
    // Not current once it exited (the handler above ran first) or was stopped: then it does not serve.
    return current === started;
  };

  // One start or halt at a time: one asked for during another follows it.
  let queue: Promise<unknown> = Promise.resolve();
  const next = <T>(step: () => Promise<T>): Promise<T> => {
    const done = queue.then(step);
    queue = done.catch(() => undefined);
    return done;
  };
  return {
    prepare() {
      if (!stopped) prepared ??= prepare();
    },
    discard: () => next(discard),
    restart: () => next(start),
    running: () => current !== undefined,
    halt: () => next(stopCurrent),
    async stop() {
      stopped = true;
      await discard();
      await stopCurrent();
    },
  };
}

/** A server's error output: its last lines, kept; passed on to this process's stderr once `passOn()` is called. */
interface Tail {
  lines(): string[];
  /** Writes what was kept back, and everything after it. */
  passOn(): void;
}

function keepTail(stream: Readable): Tail {
  const lines: string[] = [];
  let partial = "";
  let heldBack: string[] | undefined = [];
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    if (heldBack) heldBack.push(chunk);
    else process.stderr.write(chunk);
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  });
  return {
    lines: () => (partial === "" ? lines : [...lines, partial]),
    passOn() {
      for (const chunk of heldBack ?? []) process.stderr.write(chunk);
      heldBack = undefined;
    },
  };
}
