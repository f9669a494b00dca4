/**
 * The blog backend behind Debian's PgBouncer in transaction pooling (docs/pgbouncer.md):
 * 300 concurrent clients each create a tag, list tags and read theirs back. Generated with
 * `transaction_pooling: true` every request succeeds. Generated without it, asyncpg's
 * prepared statements meet server connections PgBouncer handed to other clients, and those
 * requests are 503s with `Retry-After`, never 500s: the option is what makes the difference.
 *
 * Then read replicas (docs/replicas.md): the test makes a streaming replica of its PostgreSQL
 * and serves the blog with `replicas` on both. Both servers count statements
 * (`pg_stat_statements`): reads of tags run on the replica; with the replica's replay paused,
 * a create answers the row it stored (read back on the primary), and once the replica is
 * `max_lag` behind, reads find the new row on the primary; a stopped replica moves reads to
 * the primary with no 500.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonClient, REQUEST_TIMEOUT_MS, type Reply, expectStatus } from "../support/http.js";
import { type Pgbouncer, startPgbouncer } from "../support/pgbouncer.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";

const CLIENTS = 300;
/** Server connections PgBouncer keeps: far fewer than the app's clients, so they are shared. */
const SERVER_CONNECTIONS = 4;
/** How long a replica may take to replay what the primary committed, or the app to stop reading from it. */
const REPLICATION_TIMEOUT_MS = 30_000;

let venv: Venv;
let postgres: Postgres | undefined;
let pgbouncer: Pgbouncer | undefined;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  // Statements counted on each server, the replica's too (it gets the same options).
  [venv, postgres] = await Promise.all([ensureVenv(), startPostgres({ flags: ["-c", "shared_preload_libraries=pg_stat_statements"] })]);
  await postgres.query("CREATE EXTENSION pg_stat_statements");
  pgbouncer = await startPgbouncer(postgres.url, SERVER_CONNECTIONS);
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await pgbouncer?.stop();
  await postgres?.stop();
});

/**
 * The blog with its tags only, its database reached through PgBouncer; `database` is jsonnet
 * merged into its database entry (`{ transaction_pooling: true }`), `env` added to the server's.
 */
async function serveThroughPgbouncer(database: string, env: Record<string, string> = {}): Promise<BlogServer> {
  const override = `
local r = import 'resources.libsonnet';
local project = import 'project.jsonnet';
project + {
  resources: [r.tag],
  generate_tests: false,
  databases: [project.databases[0] + ${database}],
}`;
  const projectDir = await prepareBlogProject("config/override.jsonnet", override);
  const server = await serveBlog(projectDir, venv, pgbouncer!.asyncUrl, env, { countStatements: false });
  cleanups.push(async () => {
    await server.process.stop();
    await rm(projectDir, { recursive: true, force: true });
  });
  return server;
}

interface Outcome {
  /** Requests by status (0: no answer). */
  statuses: Map<number, number>;
  /** The requests without an answer, by what went wrong. */
  unanswered: Map<string, number>;
  unavailableWithoutRetryAfter: number;
}

/**
 * `fetch`, with a GET sent again once when the server closed the kept-alive connection it
 * went out on: uvicorn closes a connection idle for 5 s, and on a busy machine the client
 * can reuse one in the instant it closes. HTTP/1.1 lets a client retry an idempotent request
 * then (RFC 9112, 9.3.1), as browsers do; a create is never sent twice.
 */
async function fetchRetryingReads(url: string, init: RequestInit): Promise<Response> {
  const send = () => fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  try {
    return await send();
  } catch (error) {
    const closed = String((error as { cause?: unknown }).cause).includes("other side closed");
    if ((init.method ?? "GET") !== "GET" || !closed) throw error;
    return await send();
  }
}

/** Each client creates a tag, lists tags, reads its tag; the statuses of all, counted. */
async function createListRead(baseUrl: string): Promise<Outcome> {
  const statuses = new Map<number, number>();
  const unanswered = new Map<string, number>();
  let unavailableWithoutRetryAfter = 0;
  const send = async (path: string, init: RequestInit = {}): Promise<string | undefined> => {
    let status = 0;
    let body: string | undefined;
    try {
      const response = await fetchRetryingReads(`${baseUrl}${path}`, init);
      status = response.status;
      body = await response.text();
      if (status === 503 && response.headers.get("retry-after") === null) unavailableWithoutRetryAfter++;
    } catch (error) {
      // A refused, reset or hung request: counted as status 0, and why.
      const why = `${init.method ?? "GET"}: ${String((error as { cause?: unknown }).cause ?? error)}`;
      unanswered.set(why, (unanswered.get(why) ?? 0) + 1);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    return status >= 200 && status < 300 ? body : undefined;
  };
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const name = `tag-${randomBytes(8).toString("hex")}`;
      const created = await send("/tags", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
      await send("/tags?limit=20");
      const id = created === undefined ? 0 : (JSON.parse(created) as { id: number }).id;
      if (id !== 0) await send(`/tags/${id}`);
    }),
  );
  return { statuses, unanswered, unavailableWithoutRetryAfter };
}

function describeStatuses(statuses: Map<number, number>): string {
  return [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`).join(", ");
}

/** For a failure: the statuses, why requests went unanswered, and the server's output. */
function explain({ statuses, unanswered }: Outcome, server: BlogServer): string {
  const reasons = [...unanswered].map(([why, count]) => `${count} × ${why}`).join("; ");
  return `${describeStatuses(statuses)}${reasons ? `\nunanswered: ${reasons}` : ""}\nserver output:\n${server.process.output()}`;
}

describe("the blog behind PgBouncer in transaction pooling", () => {
  it("with transaction_pooling, concurrent creates, lists and reads all succeed", async (t) => {
    const server = await serveThroughPgbouncer("{ transaction_pooling: true }");
    const outcome = await createListRead(server.baseUrl);
    const { statuses } = outcome;
    t.diagnostic(describeStatuses(statuses));
    const failed = [...statuses].filter(([status]) => status === 0 || status >= 300);
    assert.deepEqual(failed, [], explain(outcome, server));
    assert.equal(statuses.get(201), CLIENTS, explain(outcome, server));
  });

  it("without it, the shared server connections' statement errors are 503s with Retry-After, never 500s", async (t) => {
    const server = await serveThroughPgbouncer("{ transaction_pooling: false }");
    const outcome = await createListRead(server.baseUrl);
    const { statuses, unavailableWithoutRetryAfter } = outcome;
    t.diagnostic(describeStatuses(statuses));
    assert.ok((statuses.get(503) ?? 0) > 0, `PgBouncer let asyncpg's cached statements through: ${explain(outcome, server)}`);
    assert.deepEqual([...statuses].filter(([status]) => status === 0 || (status >= 500 && status !== 503)), [], explain(outcome, server));
    assert.equal(unavailableWithoutRetryAfter, 0, explain(outcome, server));
  });
});

/** The SELECTs of the tags table `server` ran so far (`pg_stat_statements`). */
async function tagReads(server: Postgres): Promise<number> {
  const [row] = await server.query(
    "SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements WHERE query ILIKE 'SELECT %' AND query LIKE '%FROM tags%' AND query NOT LIKE '%pg_stat_statements%'",
  );
  return row.calls as number;
}

/** Polls `check` every 100 ms until it holds; fails naming `what` after REPLICATION_TIMEOUT_MS. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + REPLICATION_TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${REPLICATION_TIMEOUT_MS} ms`);
    await sleep(100);
  }
}

/** The replica's row count of tag `id`: 0 until it replays the create. */
async function replicaHas(replica: Postgres, id: number): Promise<boolean> {
  const [row] = await replica.query("SELECT count(*)::int AS n FROM tags WHERE id = $1", [id]);
  return row.n === 1;
}

describe("the blog reading from a streaming replica", () => {
  /** Reads of one tag and of a page of tags, each answering 200. */
  const READS = 30;
  let replica: Postgres;
  let server: BlogServer;
  let api: JsonClient;

  before(async () => {
    replica = await postgres!.startReplica();
    cleanups.push(() => replica.stop());
    server = await serveThroughPgbouncer("{ transaction_pooling: true, replicas: { max_lag: 1, check_interval: 0.2 } }", { DATABASE_REPLICA_URLS: replica.asyncUrl });
    api = new JsonClient(server.baseUrl);
  });

  async function create(name: string): Promise<number> {
    const reply = await api.post("/tags", { name });
    expectStatus(reply, 201, `create ${name}`);
    assert.equal(reply.body.name, name);
    return reply.body.id as number;
  }

  /** A read of tag `id` (even `index`) or of the first page of tags (odd). */
  function read(id: number, index: number): Promise<Reply> {
    return api.get(index % 2 === 0 ? `/tags/${id}` : "/tags?limit=20");
  }

  it("get and list read from the replica", async (t) => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => create(`replicated-${randomBytes(6).toString("hex")}`)));
    await eventually("the replica replays the creates", async () => (await Promise.all(ids.map((id) => replicaHas(replica, id)))).every(Boolean));
    const [onReplica, onPrimary] = [await tagReads(replica), await tagReads(postgres!)];
    for (let index = 0; index < READS; index++) expectStatus(await read(ids[index % ids.length], index), 200, `read ${index}`);
    const [replicaReads, primaryReads] = [(await tagReads(replica)) - onReplica, (await tagReads(postgres!)) - onPrimary];
    t.diagnostic(`${READS} reads: ${replicaReads} tag selects on the replica, ${primaryReads} on the primary`);
    assert.ok(replicaReads >= READS, `only ${replicaReads} of ${READS} reads ran on the replica`);
    // A check may find the replica behind in the instant it receives WAL the primary wrote
    // meanwhile (autovacuum): a read or two may go to the primary then, not more.
    assert.ok(primaryReads < READS / 4, `${primaryReads} of ${READS} reads ran on the primary`);
  });

  it("with the replica's replay paused, a create reads its row back from the primary, and reads move there past max_lag", async () => {
    await replica.query("SELECT pg_wal_replay_pause()");
    let id: number;
    try {
      // Written, then read back in the same request: from the primary, as the replica lacks it.
      id = await create(`unreplicated-${randomBytes(6).toString("hex")}`);
      assert.equal(await replicaHas(replica, id), false, "the paused replica replayed the create");
      // Within max_lag + check_interval the replica counts as behind, and reads find the row on the primary.
      const onPrimary = await tagReads(postgres!);
      let last: Reply | undefined;
      await eventually("a read of the new tag answered 200", async () => {
        last = await api.get(`/tags/${id}`);
        assert.ok(last.status === 200 || last.status === 404, `GET /tags/${id}: ${last.status} ${JSON.stringify(last.body)}`);
        return last.status === 200;
      });
      assert.equal(await replicaHas(replica, id), false, "the paused replica replayed the create");
      assert.ok((await tagReads(postgres!)) > onPrimary, "the read did not run on the primary");
    } finally {
      await replica.query("SELECT pg_wal_replay_resume()");
    }
    // Caught up again, the replica serves reads again.
    await eventually("the replica replays the create", () => replicaHas(replica, id));
    const onReplica = await tagReads(replica);
    await eventually("reads return to the replica", async () => {
      expectStatus(await api.get(`/tags/${id}`), 200);
      return (await tagReads(replica)) > onReplica;
    });
  });

  it("a stopped replica moves reads to the primary with no 500", async (t) => {
    const ids = [await create(`survivor-${randomBytes(6).toString("hex")}`)];
    await eventually("the replica replays the create", () => replicaHas(replica, ids[0]));
    const statuses = new Map<number, number>();
    let unavailableWithoutRetryAfter = 0;
    let stopped = false;
    let index = 0;
    const readOnce = async () => {
      const reply = await read(ids[0], index++);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (reply.status === 503 && reply.headers.get("retry-after") === null) unavailableWithoutRetryAfter++;
      assert.ok(reply.status === 200 || reply.status === 503, `a read answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    };
    // Readers keep reading while the replica stops, and for 100 reads after.
    const readers = Array.from({ length: 10 }, async () => {
      while (!stopped) await readOnce();
    });
    await sleep(200);
    await replica.stop();
    stopped = true;
    await Promise.all(readers);
    const onPrimary = await tagReads(postgres!);
    const failedBefore = statuses.get(503) ?? 0;
    for (let after = 0; after < 100; after++) await readOnce();
    t.diagnostic(`reads: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(", ")}`);
    assert.equal(unavailableWithoutRetryAfter, 0);
    assert.equal(statuses.get(503) ?? 0, failedBefore, "reads after the replica stopped failed");
    assert.ok((await tagReads(postgres!)) - onPrimary >= 100, "reads after the replica stopped did not run on the primary");
  });
});
