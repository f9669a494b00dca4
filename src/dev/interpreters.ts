// The Python interpreters `codegen dev`'s steps run in: the check (check_references.py), the
// database steps (db_steps.py) and the backend (uvicorn_when_told.py), each a Python script
// run as `python script args`, in the project's directory and environment.
//
// Under `codegen dev`, interpreters are started ahead (warm_python.py), once a run has ended:
// each imports the libraries its scripts need (SQLAlchemy, Alembic, FastAPI, uvicorn: most
// of a step's time) and waits. The next save's steps then import only the project's code.
// An interpreter started ahead imports nothing of the project before it is handed a script,
// so it runs the code as saved. Each is a process group recorded in the lock, and ends at
// the end of its input: when `codegen dev` is gone, so are the interpreters it kept.

import { type SpawnOptions, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { DevLock } from "./lock.js";
import { type ProcessGroup, spawnGroup } from "./processes.js";

const WARM_PYTHON = fileURLToPath(new URL("./warm_python.py", import.meta.url));

/** What the check imports: SQLAlchemy's ORM, which the models use. */
export const CHECK_MODULES = ["sqlalchemy.orm"];

/** What the database steps import: SQLAlchemy, Alembic, and the generated API's database module's FastAPI. */
export const STEP_MODULES = ["sqlalchemy.orm", "sqlalchemy.ext.asyncio", "sqlalchemy.dialects.postgresql.asyncpg", "alembic.command", "alembic.autogenerate", "fastapi"];

/** What a generated application imports of its libraries, and uvicorn's server. */
export const SERVER_MODULES = ["sqlalchemy.orm", "sqlalchemy.ext.asyncio", "sqlalchemy.dialects.postgresql.asyncpg", "fastapi", "pydantic.v1", "uvicorn.main", "uvicorn.protocols.http.httptools_impl"];

export interface InterpreterOptions {
  python: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the scripts' standard output goes: piped to the caller, or this process's. */
  stdout: "pipe" | "inherit";
}

/** Runs Python scripts; each run's stdin and stderr are pipes, its stdout as the options say. */
export interface Interpreters {
  /** The interpreter's path. */
  readonly python: string;
  /** Starts `python script ...args`. */
  start(script: string, args: readonly string[]): ProcessGroup;
}

const stdio = (options: InterpreterOptions): SpawnOptions["stdio"] => ["pipe", options.stdout, "pipe"];

/** A new interpreter for each script, in this process's group, so a Ctrl-C stops it too (`codegen check`, `codegen db`). */
export function newInterpreters(options: InterpreterOptions): Interpreters {
  return {
    python: options.python,
    start(script, args) {
      const child = spawn(options.python, [script, ...args], { cwd: options.cwd, env: options.env, stdio: stdio(options) });
      child.stdin!.on("error", () => undefined); // one that died at once: its status says why
      const exited = new Promise<number>((resolve) => {
        child.once("error", () => resolve(127));
        child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
      });
      return {
        child,
        exited,
        async stop() {
          child.kill("SIGTERM");
          await exited;
        },
      };
    },
  };
}

export interface WarmInterpreters extends Interpreters {
  /** Starts interpreters ahead, up to the number kept, while nothing else runs. */
  warmUp(): void;
  /** Stops the interpreters kept; none is started after. */
  close(): Promise<void>;
}

/** Interpreters started ahead, `kept` at most, with `modules` imported; a script finding none starts one. */
export function warmInterpreters(options: InterpreterOptions & { modules: readonly string[]; kept: number; lock: DevLock }): WarmInterpreters {
  let spares: ProcessGroup[] = [];
  let closed = false;

  const spawnSpare = (): ProcessGroup => {
    const spare = spawnGroup(options.python, [WARM_PYTHON, ...options.modules], { cwd: options.cwd, env: options.env, stdio: stdio(options) });
    spare.child.stdin!.on("error", () => undefined); // one that died: its status says why
    const pid = spare.child.pid;
    if (pid !== undefined) {
      const recorded = options.lock.record({ name: "Python", pid, group: true, signal: "SIGTERM" });
      void spare.exited.then(async () => {
        await recorded;
        await options.lock.forget(pid);
      });
    }
    return spare;
  };

  const alive = (spare: ProcessGroup) => spare.child.exitCode === null && spare.child.signalCode === null;

  return {
    python: options.python,
    start(script, args) {
      let run = spares.shift();
      while (run !== undefined && !alive(run)) run = spares.shift();
      run ??= spawnSpare();
      run.child.stdin!.write(`${JSON.stringify([script, ...args])}\n`);
      return run;
    },
    warmUp() {
      spares = spares.filter(alive);
      for (let i = spares.length; i < options.kept && !closed; i++) spares.push(spawnSpare());
    },
    async close() {
      closed = true;
      await Promise.all(spares.splice(0).map((spare) => spare.stop()));
    },
  };
}
