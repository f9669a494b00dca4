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
 *
 * Last, Debian's nginx in front of 3 instances of 2 uvicorn workers each, through PgBouncer:
 * a rolling restart (SIGTERM to one instance at a time, then a new one in its place) under
 * creates and reads loses no request, and throughput through one instance and through three
 * is measured, in total and per CPU second of the instances.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { type IncomingHttpHeaders, request as httpRequest } from "node:http";
import { dirname } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonClient, REQUEST_TIMEOUT_MS, type Reply, expectStatus } from "../support/http.js";
import { type Pgbouncer, startPgbouncer } from "../support/pgbouncer.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type Nginx, startNginx } from "../support/nginx.js";
import { freePort } from "../support/ports.js";
import { type RunningProcess, childPids, exitWithin, startProcess, waitForHttp } from "../support/processes.js";
import { type BlogServer, SERVE_SCRIPT, prepareBlogProject, serveBlog } from "./support/blog.js";

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

/** Each client creates a tag, lists tags, reads its tag; the statuses of all, counted. */
async function createListRead(baseUrl: string): Promise<Outcome> {
  const statuses = new Map<number, number>();
  const unanswered = new Map<string, number>();
  let unavailableWithoutRetryAfter = 0;
  const send = async (method: string, path: string, payload?: unknown): Promise<string | undefined> => {
    const { status, headers, body } = await sendAlone(method, `${baseUrl}${path}`, payload);
    tally(statuses, status);
    // A refused, reset or hung request: counted as status 0, and why.
    if (status === 0) tally(unanswered, `${method}: ${body}`);
    if (status === 503 && headers["retry-after"] === undefined) unavailableWithoutRetryAfter++;
    return status >= 200 && status < 300 ? body : undefined;
  };
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const name = `tag-${randomBytes(8).toString("hex")}`;
      const created = await send("POST", "/tags", { name });
      await send("GET", "/tags?limit=20");
      const id = created === undefined ? 0 : (JSON.parse(created) as { id: number }).id;
      if (id !== 0) await send("GET", `/tags/${id}`);
    }),
  );
  return { statuses, unanswered, unavailableWithoutRetryAfter };
}

/** One more of `key` in `counts`. */
function tally<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** `600 × 200, 300 × 201`: requests by status, for a diagnostic or a failure. */
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
      tally(statuses, reply.status);
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
    t.diagnostic(`reads: ${describeStatuses(statuses)}`);
    assert.equal(unavailableWithoutRetryAfter, 0);
    assert.equal(statuses.get(503) ?? 0, failedBefore, "reads after the replica stopped failed");
    assert.ok((await tagReads(postgres!)) - onPrimary >= 100, "reads after the replica stopped did not run on the primary");
  });
});

/** One uvicorn with 2 workers serving test/e2e/support/instance.py: the blog with graceful shutdown and `/ready`. */
interface Instance {
  port: number;
  process: RunningProcess;
}

/** How long an instance may take to become ready, or to exit after SIGTERM. */
const INSTANCE_TIMEOUT_MS = 60_000;
/**
 * Seconds readiness answers 503 after SIGTERM, before the instance stops accepting: short, as
 * the test takes an instance out of nginx's rotation before it stops it.
 */
const DRAIN_SECONDS = "0.25";
/**
 * Clients creating and reading during the rolling restart: enough to keep the instances busy
 * (16 sent no more requests), few enough to leave CPU for each new instance's start.
 */
const ROLLING_CLIENTS = 8;

describe("3 instances behind nginx", () => {
  let projectDir: string;
  let nginx: Nginx;
  const instances: Instance[] = [];

  async function startInstance(port: number): Promise<Instance> {
    const proc = startProcess(
      venv.python,
      ["-m", "uvicorn", "instance:app", "--host", "127.0.0.1", "--port", String(port), "--workers", "2"]
        .concat(["--timeout-graceful-shutdown", "10", "--http", "blog.api.runtime.server:BoundedH11Protocol", "--log-level", "warning", "--no-access-log"]),
      {
        cwd: projectDir,
        env: { ...process.env, DATABASE_URL: pgbouncer!.asyncUrl, PYTHONPATH: `${dirname(SERVE_SCRIPT)}:${projectDir}`, PYTHONDONTWRITEBYTECODE: "1", SHUTDOWN_DRAIN_SECONDS: DRAIN_SECONDS },
      },
    );
    const ready = `http://127.0.0.1:${port}/ready`;
    try {
      await waitForHttp(ready, proc, INSTANCE_TIMEOUT_MS);
      // A new instance is not draining: ready at its first answer.
      const { status } = await fetch(ready, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      assert.equal(status, 200, `GET ${ready}: ${status}\n${proc.output()}`);
    } catch (error) {
      await proc.stop();
      throw error;
    }
    return { port, process: proc };
  }

  before(async () => {
    const override = `
local r = import 'resources.libsonnet';
local project = import 'project.jsonnet';
project + { resources: [r.tag], generate_tests: false, databases: [project.databases[0] + { transaction_pooling: true }] }`;
    projectDir = await prepareBlogProject("config/override.jsonnet", override);
    // The tables, as serve.py creates them.
    const prepare = startProcess(venv.python, ["-c", "import asyncio, importlib, serve; asyncio.run(serve.prepare_database('blog', importlib.import_module('blog.api.db.session')))"], {
      cwd: projectDir,
      env: { ...process.env, DATABASE_URL: pgbouncer!.asyncUrl, PYTHONPATH: `${dirname(SERVE_SCRIPT)}:${projectDir}` },
    });
    assert.equal(await exitWithin(prepare, INSTANCE_TIMEOUT_MS), 0, prepare.output());
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    instances.push(...(await Promise.all(ports.map(startInstance))));
    // The first balancer spreads requests over all three; the second sends all to the first.
    nginx = await startNginx([ports, [ports[0]]]);
    cleanups.push(async () => {
      await nginx.stop();
      for (const instance of instances) await instance.process.stop();
      await rm(projectDir, { recursive: true, force: true });
    });
  });

  it("a rolling restart under creates and reads fails no request and loses no write", async (t) => {
    const all = instances.map((instance) => instance.port);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const created: number[] = [];
    let restarting = true;
    const send = async (what: string, method: string, path: string, expected: number, body?: unknown) => {
      const reply = await sendAlone(method, `${nginx.baseUrls[0]}${path}`, body);
      tally(statuses, reply.status);
      if (reply.status !== expected && failures.length < 10) failures.push(`${what}: ${reply.status} ${reply.body}`);
      return reply.status === expected ? reply.body : undefined;
    };
    const clients = Array.from({ length: ROLLING_CLIENTS }, async () => {
      while (restarting) {
        const body = await send("create", "POST", "/tags", 201, { name: `rolling-${randomBytes(6).toString("hex")}` });
        if (body === undefined) continue;
        const id = (JSON.parse(body) as { id: number }).id;
        created.push(id);
        await send("read", "GET", `/tags/${id}`, 200);
      }
    });
    try {
      for (const [index, instance] of instances.entries()) {
        await sleep(300);
        // Out of rotation first (nginx cannot read readiness), then stopped as an orchestrator
        // stops a container: SIGTERM to the server process only, which finishes what it has.
        await nginx.setUpstreams(0, all.filter((port) => port !== instance.port));
        instance.process.child.kill("SIGTERM");
        assert.equal(await exitWithin(instance.process, INSTANCE_TIMEOUT_MS), 0, instance.process.output());
        instances[index] = await startInstance(instance.port);
        await nginx.setUpstreams(0, all);
      }
      await sleep(300);
    } finally {
      restarting = false;
      await Promise.all(clients);
    }
    t.diagnostic(`during the rolling restart: ${describeStatuses(statuses)}`);
    assert.deepEqual(failures, [], nginx.process.output());
    const [row] = await postgres!.query("SELECT count(*)::int AS n FROM tags WHERE id = ANY($1)", [created]);
    assert.equal(row.n, created.length, "an acknowledged create is missing");
  });

  it("throughput through 1 instance and through 3, in total and per CPU second", async (t) => {
    const created = await new JsonClient(nginx.baseUrls[0]).post("/tags", { name: `measured-${randomBytes(6).toString("hex")}` });
    expectStatus(created, 201, "the measured tag");
    const id = created.body.id as number;
    const measure = async (baseUrl: string, measured: Instance[]) => {
      const api = new JsonClient(baseUrl);
      const cpuBefore = await cpuSeconds(measured);
      const started = Date.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (Date.now() - started < MEASURE_MS) {
            expectStatus(await api.get(`/tags/${id}`), 200);
            done++;
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      const cpu = (await cpuSeconds(measured)) - cpuBefore;
      return { perSecond: done / seconds, perCpuSecond: done / cpu, cpu };
    };
    const one = await measure(nginx.baseUrls[1], [instances[0]]);
    const three = await measure(nginx.baseUrls[0], instances);
    const line = (name: string, m: { perSecond: number; perCpuSecond: number; cpu: number }) =>
      `${name}: ${m.perSecond.toFixed(0)} reads/s, ${m.perCpuSecond.toFixed(0)} per CPU second of the instances (${m.cpu.toFixed(1)} CPU s)`;
    t.diagnostic(line("1 instance", one));
    t.diagnostic(line("3 instances", three));
    assert.ok(one.perSecond > 0 && three.perSecond > 0);
  });
});

/** How long each throughput measurement runs. */
const MEASURE_MS = 3000;

/** CPU seconds (user and system) the instances' processes (each uvicorn and its workers) have used so far. */
async function cpuSeconds(instances: Instance[]): Promise<number> {
  let ticks = 0;
  for (const instance of instances) {
    for (const each of [instance.process.child.pid!, ...(await childPids(instance.process))]) {
      // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis.
      const fields = (await readFile(`/proc/${each}/stat`, "utf8")).split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  }
  return ticks / 100;
}

/**
 * One request on a connection of its own (as a balancer's many clients send theirs): no
 * kept-alive connection that the server closes in the instant it is reused (nginx reloading,
 * uvicorn closing one idle for 5 s). Status 0 and the error for a request without an answer.
 */
function sendAlone(method: string, url: string, body?: unknown): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = httpRequest(url, { method, agent: false, timeout: REQUEST_TIMEOUT_MS, headers: payload === undefined ? {} : { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on("error", (error) => resolve({ status: 0, headers: {}, body: String(error) }));
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on("error", (error) => resolve({ status: 0, headers: {}, body: String(error) }));
    request.end(payload);
  });
}
