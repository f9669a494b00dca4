// The embedded PostgreSQL of `codegen dev`: real PostgreSQL binaries from the npm registry,
// its data kept in the project (`.codegen/postgres/`), so each project has its own
// database and nothing is shared between projects. Listens on 127.0.0.1, on a free port
// (postgres-server.ts starts it).

import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DevLock } from "./lock.js";
import { enterableByOthers } from "./postgres-binaries.js";
import { startEmbeddedPostgres } from "./postgres-server.js";
import { DevError } from "./project.js";
import { isAlive } from "./processes.js";

/** A started database: its SQLAlchemy async URL, its data directory, and how to stop it. */
export interface DevDatabase {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

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
async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => undefined);
  const pid = Number(text?.split("\n", 1)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Starts the project's PostgreSQL (creating its cluster and database on first use), under
 * the project's lock: no other run uses the database, a server still running on its data
 * was left by a dead one, and the new server is recorded in the lock.
 */
export async function startProjectDatabase(root: string, database: string, lock: DevLock): Promise<DevDatabase> {
  const { dir } = dataDirectory(root);
  await stopLeftover(dir);
  await mkdir(path.dirname(dir), { recursive: true });
  const server = await startEmbeddedPostgres({ dataDir: dir, persistent: true });
  await lock.record({ name: "PostgreSQL", pid: server.pid(), group: false, signal: "SIGINT" });
  const name = database.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  try {
    const client = await server.connect();
    try {
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) await server.createDatabase(name);
    } finally {
      await client.end();
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.urlOf(name, "asyncpg"), dataDir: dir, stop: () => server.stop() };
}
