/**
 * Long-running child processes for tests: servers and workers.
 *
 * Each process leads its own process group (src/dev/processes.ts's `spawnGroup`, as
 * `codegen dev` starts its servers), so `stop()` reaches everything it spawned (uvicorn
 * workers, reloaders, shells). Groups still running when Node exits (a crashed or
 * interrupted test) are killed on the way out.
 */
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnGroup } from "../../src/dev/processes.js";

export interface StartOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunningProcess {
  readonly child: ChildProcess;
  /** stdout and stderr so far, interleaved; for failure messages. */
  output(): string;
  /** True once the process has exited. */
  exited(): boolean;
  /** Resolves with the exit status once the process has exited: its code, 128 when a signal ended it, 127 when it never started. */
  readonly exitCode: Promise<number>;
  /** SIGTERM the whole group, SIGKILL it if still alive after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

process.on("exit", () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group is already gone.
    }
  }
});

/** Spawn `command` in a new process group, capturing its output. */
export function startProcess(command: string, args: string[], options: StartOptions = {}): RunningProcess {
  const group = spawnGroup(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  const { child } = group;
  if (child.pid !== undefined) running.add(child);
  let output = "";
  let hasExited = false;
  child.on("error", (error) => (output += `\n[spawn error] ${error.message}\n`));
  const exitCode = group.exited.then((status) => {
    hasExited = true;
    running.delete(child);
    return status;
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  return {
    child,
    output: () => output,
    exited: () => hasExited,
    exitCode,
    async stop(graceMs) {
      await group.stop(graceMs);
      await exitCode;
    },
  };
}

/** How long a server may take to answer after its start: seconds for uvicorn's imports and tables, many more on a busy machine. */
const READY_TIMEOUT_MS = 60_000;

/**
 * Poll `url` until it answers (any HTTP status). Fails early with the process's
 * output when `proc` exits first, and after `timeoutMs` otherwise.
 */
export async function waitForHttp(url: string, proc: RunningProcess, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited()) {
      throw new Error(`process exited before ${url} answered:\n${proc.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${proc.output()}`);
}

/** The exit status of `proc`, failing with its output if it still runs after `timeoutMs`. */
export async function exitWithin(proc: RunningProcess, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, timeoutMs, "timeout")));
  const status = await Promise.race([proc.exitCode, timeout]).finally(() => clearTimeout(timer));
  if (status === "timeout") throw new Error(`still running after ${timeoutMs} ms:\n${proc.output()}`);
  return status;
}

/** The pids of `proc`'s own children (uvicorn's workers, nginx's), from Linux's /proc. */
export async function childPids(proc: RunningProcess): Promise<number[]> {
  const pid = proc.child.pid!;
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8");
  return listed.trim().split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Wait until `condition` holds (a condition that throws, such as a fetch refused, does not yet),
 * polling every 50 ms, while `processes` run; once one of them has exited, or past `timeoutMs`,
 * fail with the output of them all.
 */
export async function until(what: string, condition: () => Promise<boolean> | boolean, processes: RunningProcess[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  const holds = () =>
    Promise.resolve()
      .then(condition)
      .catch((error: unknown) => {
        lastError = error;
        return false;
      });
  while (!(await holds())) {
    const exited = processes.some((p) => p.exited());
    if (exited || Date.now() > deadline) {
      const why = exited ? "a process exited while waiting" : `timed out after ${timeoutMs} ms waiting`;
      const last = lastError === undefined ? "" : ` (the condition last threw: ${String(lastError)})`;
      throw new Error(`${why} for ${what}${last}:\n${processes.map((p) => p.output()).join("\n---\n")}`);
    }
    await sleep(50);
  }
}
