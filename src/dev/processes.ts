// Child processes of `codegen dev`: one-shot commands (alembic, pip) that must succeed, and
// long-running servers (uvicorn, vite), each in a process group of its own so that stopping
// one stops everything it spawned (uvicorn's reloader and worker, npm and vite).

import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { createServer } from "node:net";
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
