/**
 * Long-running child processes for tests: servers and workers.
 *
 * Each process leads its own process group, so `stop()` reaches everything it
 * spawned (uvicorn workers, reloaders, shells). Groups still running when Node
 * exits (a crashed or interrupted test) are killed on the way out.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

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
  /** Resolves with the exit code once the process has exited (null when a signal ended it or it never started). */
  readonly exitCode: Promise<number | null>;
  /** SIGTERM the whole group, SIGKILL it if still alive after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

process.on("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Spawn `command` in a new process group, capturing its output. */
export function startProcess(command: string, args: string[], options: StartOptions = {}): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  let hasExited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => {
      hasExited = true;
      running.delete(child);
      resolve(code);
    });
    child.on("error", (error) => {
      output += `\n[spawn error] ${error.message}\n`;
      hasExited = true;
      running.delete(child);
      resolve(null);
    });
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  return {
    child,
    output: () => output,
    exited: () => hasExited,
    exitCode: exit,
    async stop(graceMs = 5000) {
      if (hasExited) return;
      killGroup(child, "SIGTERM");
      const timer = sleep(graceMs).then(() => "timeout" as const);
      if ((await Promise.race([exit.then(() => "exited" as const), timer])) === "timeout") {
        killGroup(child, "SIGKILL");
        await exit;
      }
    },
  };
}

/**
 * Poll `url` until it answers (any HTTP status). Fails early with the process's
 * output when `proc` exits first, and after `timeoutMs` otherwise.
 */
export async function waitForHttp(url: string, proc: RunningProcess, timeoutMs = 20_000): Promise<void> {
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
