// Child processes of `codegen dev`: one-shot commands (alembic, pip) that must succeed, and
// long-running servers (uvicorn, vite), each in a process group of its own so that stopping
// one stops everything it spawned (npm and vite); and the
// stopping of what a killed run left behind.

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { OwnedProcess } from "./lock.js";
import { DevError } from "./project.js";

/** A free TCP port on 127.0.0.1, as the system picks it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Fails when something listens on 127.0.0.1:`port` already.
 * @throws DevError naming the port and how to pick another.
 */
export function assertPortFree(port: number, whose: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new DevError(
          error.code === "EADDRINUSE"
            ? `port ${port} of 127.0.0.1, for ${whose}, is in use: stop what listens there, or pick another port (--port, or PORT)`
            : `cannot listen on 127.0.0.1:${port} for ${whose}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

/**
 * Resolves once `url` answers HTTP (any status), or once `until` is aborted (the server
 * exited, or `codegen dev` stops); says so once when it takes long. Aborting ends the
 * polling, which would otherwise keep the process alive.
 */
export async function waitForHttp(url: string, say: (line: string) => void, until: AbortSignal): Promise<void> {
  const slowAfter = Date.now() + 30_000;
  let told = false;
  while (!until.aborted) {
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
      return;
    } catch {
      if (!told && Date.now() > slowAfter) {
        told = true;
        say(`${url} does not answer yet; its output is above`);
      }
      // A refused connection costs next to nothing: the sooner it answers, the sooner it serves.
      await sleep(50);
    }
  }
}

/** Whether process `pid` exists (it may belong to another user: the `postgres` one under root). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat):
 * with the pid, it names one process, never a later one given the same pid. Undefined
 * where there is no /proc, or no such process.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name, which is in parentheses and may hold spaces: fields 3 onwards.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** How long a leftover process has to stop after its signal before a group of them is killed. */
const LEFTOVER_GRACE_MS = 10_000;

/**
 * Stops the processes a killed `codegen dev` recorded, those still running: each gets its
 * clean-stop signal (to its whole group for a group), then groups that outlive the grace
 * are killed. A pid now held by another process (its start time differs) is left alone.
 * @throws DevError when a process that cannot be killed (PostgreSQL) does not stop.
 */
export async function stopLeftovers(leftovers: readonly OwnedProcess[], say: (line: string) => void): Promise<void> {
  const target = (owned: OwnedProcess) => (owned.group ? -owned.pid : owned.pid);
  const running = leftovers.filter((owned) => {
    const startTime = owned.startTime === undefined ? undefined : processStartTime(owned.pid);
    if (startTime !== undefined && startTime !== owned.startTime) return false;
    return isAlive(target(owned));
  });
  if (running.length === 0) return;
  say(`stopping what a killed codegen dev left running: ${running.map((owned) => `${owned.name} (pid ${owned.pid})`).join(", ")}`);
  for (const owned of running) signal(target(owned), owned.signal);
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  while (running.some((owned) => isAlive(target(owned))) && Date.now() < deadline) await sleep(100);
  for (const owned of running) if (owned.group) signal(target(owned), "SIGKILL");
  const stuck = running.filter((owned) => !owned.group && isAlive(owned.pid));
  if (stuck.length > 0) throw new DevError(`${stuck.map((owned) => `${owned.name} (pid ${owned.pid})`).join(", ")}, left by a killed codegen dev, did not stop; stop it and run codegen dev again`);
}

/** Sends `name` to a process (or to a group: a negative pid), if it is still there. */
function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone.
  }
}

export interface CommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs `command` to completion with the terminal as its output; returns its exit status.
 * @throws DevError when it cannot start (not installed).
 */
export function runCommand(command: string, args: readonly string[], options: CommandOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "inherit" });
    child.once("error", (error) => reject(new DevError(`cannot run ${command}: ${error.message}`)));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * A child process leading a process group of its own: `exited` settles with its exit status
 * (its code; 128 when a signal ended it; 127 when it could not start), and `stop()` ends it
 * and everything it spawned.
 */
export interface ProcessGroup {
  readonly child: ChildProcess;
  readonly exited: Promise<number>;
  /** SIGTERM to the group, SIGKILL when the leader outlives `graceMs`, then SIGKILL to what outlived the leader. */
  stop(graceMs?: number): Promise<void>;
}

/** How long a process has to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5000;

/**
 * Spawns `command` as the leader of a new process group (the tests' servers start this way
 * too: test/support/processes.ts).
 */
export function spawnGroup(command: string, args: readonly string[], options: Omit<SpawnOptions, "detached">): ProcessGroup {
  const child = spawn(command, args, { ...options, detached: true });
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  return {
    child,
    exited,
    async stop(graceMs = STOP_GRACE_MS) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      // Children of the group that outlived their parent (vite under npm) go too.
      signalGroup("SIGKILL");
    },
  };
}

/** Starts a long-running server (uvicorn, vite) in its own process group, its output on the terminal. */
export function startServer(command: string, args: readonly string[], options: CommandOptions): ProcessGroup {
  return spawnGroup(command, args, { cwd: options.cwd, env: options.env, stdio: "inherit" });
}
