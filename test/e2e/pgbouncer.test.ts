/**
 * The blog past one machine, as docs/pgbouncer.md and docs/replicas.md describe it: Debian's
 * nginx → 3 instances of 2 uvicorn workers each → Debian's PgBouncer in transaction pooling →
 * a primary PostgreSQL and a streaming replica of it the test makes, its reads through
 * PgBouncer too (database `<db>_replica`). Both servers count statements
 * (`pg_stat_statements`).
 *
 * First, a blog generated without `transaction_pooling` behind the same PgBouncer: asyncpg's
 * prepared statements meet server connections PgBouncer handed to other clients, and those
 * requests are 503s with `Retry-After`, never 500s: the option is what makes the difference.
 *
 * Then the topology, generated with it: 300 concurrent clients create, list and read, and all
 * succeed; reads run on the replica; with its replay paused, a request that writes reads its
 * write, and past `max_lag` reads move to the primary; the token endpoint's limit, an
 * `Idempotency-Key` and a logout hold across the instances; a rolling restart (SIGTERM to one
 * instance at a time) loses no request; throughput through 1 instance and through 3, in total
 * and per CPU second of the instances; PgBouncer killed gives 503s, then recovery with no
 * acknowledged write lost; a stopped replica moves reads to the primary with no 500.
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
import { type DeployRecipe, deployRecipe } from "../support/recipe.js";
import { type RunningProcess, childPids, exitWithin, startProcess, waitForHttp } from "../support/processes.js";
import { DEMO_LOGIN, SERVE_SCRIPT, prepareBlogProject, serveBlog } from "./support/blog.js";

const CLIENTS = 300;
/**
 * Clients of the blog generated without transaction_pooling: a third as many are still far
 * more than PgBouncer's server connections (out of 300, about 70 % of the requests failed).
 */
const UNPOOLED_CLIENTS = 100;
/** Server connections PgBouncer keeps: far fewer than the app's clients, so they are shared. */
const SERVER_CONNECTIONS = 4;
/** How long a replica may take to replay what the primary committed, the app to stop reading from it, or to recover. */
const REPLICATION_TIMEOUT_MS = 30_000;

let venv: Venv;
/** be_root's deploy/: nginx, PgBouncer and the instances run with its files. */
let recipe: DeployRecipe;
let postgres: Postgres | undefined;
let replica: Postgres | undefined;
let pgbouncer: Pgbouncer | undefined;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  // Statements counted on each server, the replica's too (it gets the same options).
  [venv, postgres, recipe] = await Promise.all([ensureVenv(), startPostgres({ flags: ["-c", "shared_preload_libraries=pg_stat_statements"] }), deployRecipe("blog")]);
  await postgres.query("CREATE EXTENSION pg_stat_statements");
  replica = await postgres.startReplica();
  pgbouncer = await startPgbouncer(recipe.pgbouncer, postgres.url, SERVER_CONNECTIONS, replica.url);
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await pgbouncer?.stop();
  await replica?.stop().catch(() => undefined);
  await postgres?.stop();
});

interface Outcome {
  /** Requests by status (0: no answer). */
  statuses: Map<number, number>;
  /** The requests without an answer, by what went wrong. */
  unanswered: Map<string, number>;
  unavailableWithoutRetryAfter: number;
}

/**
 * `clients` concurrent clients each create a tag, list tags and read a tag: its own, or tag
 * `readId` (one the replica has: a replica may not have replayed the client's create yet).
 * The statuses of all, counted.
 */
async function createListRead(baseUrl: string, clients: number, readId?: number): Promise<Outcome> {
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
    Array.from({ length: clients }, async () => {
      const name = `tag-${randomBytes(8).toString("hex")}`;
      const created = await send("POST", "/tags", { name });
      await send("GET", "/tags?limit=20");
      const id = readId ?? (created === undefined ? 0 : (JSON.parse(created) as { id: number }).id);
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

/** For a failure: the statuses, why requests went unanswered, and the servers' output. */
function explain({ statuses, unanswered }: Outcome, output: string): string {
  const reasons = [...unanswered].map(([why, count]) => `${count} × ${why}`).join("; ");
  return `${describeStatuses(statuses)}${reasons ? `\nunanswered: ${reasons}` : ""}\nserver output:\n${output}`;
}

describe("the blog behind PgBouncer in transaction pooling, generated without transaction_pooling", () => {
  it("the shared server connections' statement errors are 503s with Retry-After, never 500s", async (t) => {
    const override = `
local r = import 'resources.libsonnet';
local project = import 'project.jsonnet';
project + { resources: [r.tag], generate_tests: false, databases: [project.databases[0] + { transaction_pooling: false }] }`;
    const projectDir = await prepareBlogProject("config/override.jsonnet", override);
    const server = await serveBlog(projectDir, venv, pgbouncer!.asyncUrl, {}, { countStatements: false });
    cleanups.push(async () => {
      await server.process.stop();
      await rm(projectDir, { recursive: true, force: true });
    });
    const outcome = await createListRead(server.baseUrl, UNPOOLED_CLIENTS);
    const { statuses, unavailableWithoutRetryAfter } = outcome;
    t.diagnostic(describeStatuses(statuses));
    assert.ok((statuses.get(503) ?? 0) > 0, `PgBouncer let asyncpg's cached statements through: ${explain(outcome, server.process.output())}`);
    assert.deepEqual([...statuses].filter(([status]) => status === 0 || (status >= 500 && status !== 503)), [], explain(outcome, server.process.output()));
    assert.equal(unavailableWithoutRetryAfter, 0, explain(outcome, server.process.output()));
  });
});

/** The SELECTs of the tags table `server` ran so far (`pg_stat_statements`). */
async function tagReads(server: Postgres): Promise<number> {
  const [row] = await server.query(
    "SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements WHERE query ILIKE 'SELECT %' AND query LIKE '%FROM tags%' AND query NOT LIKE '%pg_stat_statements%'",
  );
  return row.calls as number;
}

/** The tag selects the replica and the primary run while `run` runs. */
async function readsDuring(run: () => Promise<void>): Promise<{ onReplica: number; onPrimary: number }> {
  const [replicaBefore, primaryBefore] = [await tagReads(replica!), await tagReads(postgres!)];
  await run();
  return { onReplica: (await tagReads(replica!)) - replicaBefore, onPrimary: (await tagReads(postgres!)) - primaryBefore };
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
async function replicaHas(id: number): Promise<boolean> {
  const [row] = await replica!.query("SELECT count(*)::int AS n FROM tags WHERE id = $1", [id]);
  return row.n === 1;
}

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
 * Clients creating and reading during the rolling restart and while PgBouncer is down: enough
 * to keep requests in flight at every moment, few enough to leave CPU for each new instance's
 * start (16 sent no more requests than 8, and 8 than 6, on 2 busy cores).
 */
const ROLLING_CLIENTS = 6;
const JWT_SECRET = randomBytes(32).toString("hex");

describe("nginx → 3 instances → PgBouncer → a primary and its streaming replica", () => {
  let projectDir: string;
  let nginx: Nginx;
  /** The blog through nginx. */
  let api: JsonClient;
  const instances: Instance[] = [];
  /** A tag the replica has: what the loads read (a client's own create may not be replayed yet). */
  let replicated: number;

  async function startInstance(port: number): Promise<Instance> {
    const proc = startProcess(
      venv.python,
      ["-m", "uvicorn", "instance:app", ...recipeOptions(port), "--workers", "2", "--log-level", "warning", "--no-access-log"],
      {
        cwd: projectDir,
        env: {
          ...process.env,
          DATABASE_URL: pgbouncer!.asyncUrl,
          DATABASE_REPLICA_URLS: pgbouncer!.replicaAsyncUrl,
          JWT_SECRET,
          PYTHONPATH: `${dirname(SERVE_SCRIPT)}:${projectDir}`,
          PYTHONDONTWRITEBYTECODE: "1",
          SHUTDOWN_DRAIN_SECONDS: DRAIN_SECONDS,
          FORWARDED_ALLOW_IPS: "127.0.0.1",
        },
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

  /**
   * uvicorn's options in the recipe's systemd unit (`ExecStart=…/uvicorn blog.main:app <options>`),
   * for the instance on `port`: the test serves instance.py with them.
   */
  function recipeOptions(port: number): string[] {
    const [, app, options] = /^ExecStart=\S+\/uvicorn (\S+) (.+)$/m.exec(recipe.unit) ?? [];
    assert.equal(app, "blog.main:app", `the recipe's unit runs no uvicorn blog.main:app:\n${recipe.unit}`);
    return options.replaceAll("%i", String(port)).split(" ");
  }

  /** What the instances printed, for a failure. */
  const output = () => instances.map((instance) => `instance on ${instance.port}:\n${instance.process.output()}`).join("\n");

  /** A client of instance `index` itself, not through nginx. */
  const direct = (index: number) => new JsonClient(`http://127.0.0.1:${instances[index].port}`);

  async function create(name: string): Promise<number> {
    const reply = await api.post("/tags", { name });
    expectStatus(reply, 201, `create ${name}`);
    assert.equal(reply.body.name, name);
    return reply.body.id as number;
  }

  before(async () => {
    // Tags are public; the token endpoint, logout and the session route are the auth's.
    const override = `
local auth = import 'be/auth/jwt.libsonnet';
local r = import 'resources.libsonnet';
local project = import 'project.jsonnet';
project + {
  resources: [r.tag],
  generate_tests: false,
  databases: [project.databases[0] + { transaction_pooling: true, replicas: { max_lag: 1 } }],
  trusted_proxies: ['127.0.0.1'],
  auth: auth.jwt({
    secret_env: 'JWT_SECRET',
    verify_credentials_fn: 'blog.auth.verify_credentials',
    // Few attempts, as each one costs a password hash.
    token_rate_limit: { username: '3/minute' },
    logout_url: '/auth/logout',
    session_url: '/auth/session',
    exclude_paths: ['/tags*'],
  }),
}`;
    projectDir = await prepareBlogProject("config/override.jsonnet", override);
    cleanups.push(async () => {
      for (const instance of instances) await instance.process.stop();
      await rm(projectDir, { recursive: true, force: true });
    });
    // The tables, as serve.py creates them.
    const prepare = startProcess(venv.python, ["-c", "import asyncio, importlib, serve; asyncio.run(serve.prepare_database('blog.api', importlib.import_module('blog.api.db.session')))"], {
      cwd: projectDir,
      env: { ...process.env, DATABASE_URL: pgbouncer!.asyncUrl, PYTHONPATH: `${dirname(SERVE_SCRIPT)}:${projectDir}` },
    });
    assert.equal(await exitWithin(prepare, INSTANCE_TIMEOUT_MS), 0, prepare.output());
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    instances.push(...(await Promise.all(ports.map(startInstance))));
    nginx = await startNginx(recipe.nginx, ports);
    cleanups.push(() => nginx.stop());
    api = new JsonClient(nginx.baseUrl);
    replicated = await create(`replicated-${randomBytes(6).toString("hex")}`);
    await eventually("the replica replays the first create", () => replicaHas(replicated));
  });

  it("300 concurrent clients create, list and read, and every request succeeds", async (t) => {
    let outcome: Outcome | undefined;
    const reads = await readsDuring(async () => void (outcome = await createListRead(nginx.baseUrl, CLIENTS, replicated)));
    const { statuses } = outcome!;
    t.diagnostic(`${describeStatuses(statuses)}; tag selects: ${reads.onReplica} on the replica, ${reads.onPrimary} on the primary`);
    const failed = [...statuses].filter(([status]) => status === 0 || status >= 300);
    assert.deepEqual(failed, [], explain(outcome!, output()));
    assert.equal(statuses.get(201), CLIENTS, explain(outcome!, output()));
  });

  it("with the replica caught up, get and list read from it", async (t) => {
    /** Reads of one tag and of a page of tags, each answering 200. */
    const READS = 30;
    const { onReplica, onPrimary } = await readsDuring(async () => {
      for (let index = 0; index < READS; index++) expectStatus(await api.get(index % 2 === 0 ? `/tags/${replicated}` : "/tags?limit=20"), 200, `read ${index}`);
    });
    t.diagnostic(`${READS} reads: ${onReplica} tag selects on the replica, ${onPrimary} on the primary`);
    assert.ok(onReplica >= READS, `only ${onReplica} of ${READS} reads ran on the replica`);
    // A check may find the replica behind in the instant it receives WAL the primary wrote
    // meanwhile (autovacuum): a read or two may go to the primary then, not more.
    assert.ok(onPrimary < READS / 4, `${onPrimary} of ${READS} reads ran on the primary`);
  });

  it("with the replica's replay paused, a request that writes reads its write, and reads move to the primary past max_lag", async () => {
    await replica!.query("SELECT pg_wal_replay_pause()");
    let id: number;
    try {
      // Written, then read back in the same request: from the primary, as the replica lacks it.
      id = await create(`unreplicated-${randomBytes(6).toString("hex")}`);
      for (const [index] of instances.entries()) {
        const reply = await direct(index).post("/write-then-read");
        expectStatus(reply, 200, `write then read on instance ${index}`);
        assert.deepEqual(reply.body, { found: true }, `instance ${index} read its write from the replica`);
      }
      assert.equal(await replicaHas(id), false, "the paused replica replayed the create");
      // Within max_lag + check_interval the replica counts as behind, and reads find the row on the primary.
      const onPrimary = await tagReads(postgres!);
      await eventually("a read of the new tag answered 200", async () => {
        const reply = await api.get(`/tags/${id}`);
        assert.ok(reply.status === 200 || reply.status === 404, `GET /tags/${id}: ${reply.status} ${JSON.stringify(reply.body)}`);
        return reply.status === 200;
      });
      assert.equal(await replicaHas(id), false, "the paused replica replayed the create");
      assert.ok((await tagReads(postgres!)) > onPrimary, "the read did not run on the primary");
    } finally {
      await replica!.query("SELECT pg_wal_replay_resume()");
    }
    // Caught up again, the replica serves reads again.
    await eventually("the replica replays the create", () => replicaHas(id));
    const onReplica = await tagReads(replica!);
    await eventually("reads return to the replica", async () => {
      expectStatus(await api.get(`/tags/${id}`), 200);
      return (await tagReads(replica!)) > onReplica;
    });
  });

  it("the token endpoint's limit counts attempts once across the instances", async () => {
    // 3 attempts a minute per username: 6 at once, 2 to each instance.
    const username = `nobody-${randomBytes(6).toString("hex")}`;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const response = await fetch(`http://127.0.0.1:${instances[index % 3].port}/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ username, password: "wrong" }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        tally(statuses, response.status);
      }),
    );
    assert.deepEqual(Object.fromEntries(statuses), { 401: 3, 429: 3 }, output());
  });

  it("one Idempotency-Key sent at once to every instance makes one row, and every retry answers it", async () => {
    const key = randomBytes(12).toString("hex");
    const name = `idempotent-${randomBytes(6).toString("hex")}`;
    const send = (index: number) => direct(index % 3).with({ "idempotency-key": key }).post("/tags", { name });
    const first = await Promise.all(Array.from({ length: 6 }, (_, index) => send(index)));
    // The second to commit is a 409; retried, it is answered as the first.
    const answers = await Promise.all(first.map((reply, index) => (reply.status === 409 ? send(index) : reply)));
    for (const reply of answers) expectStatus(reply, 201, "a create with the key");
    const originals = answers.filter((reply) => reply.headers.get("idempotent-replayed") !== "true");
    assert.equal(originals.length, 1, `answers not replayed: ${originals.length} (first statuses ${first.map((reply) => reply.status).join(", ")})`);
    for (const reply of answers) assert.deepEqual(reply.body, originals[0].body);
    const [row] = await postgres!.query("SELECT count(*)::int AS n FROM tags WHERE name = $1", [name]);
    assert.equal(row.n, 1);
  });

  it("a token revoked through one instance is refused by every instance", async () => {
    const signIn = async () => {
      const response = await fetch(`http://127.0.0.1:${instances[0].port}/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(DEMO_LOGIN),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return { authorization: `Bearer ${((await response.json()) as { access_token: string }).access_token}` };
    };
    const [revoked, kept] = [await signIn(), await signIn()];
    for (const [index] of instances.entries()) expectStatus(await direct(index).with(revoked).get("/auth/session"), 200, `the session on instance ${index}`);
    expectStatus(await direct(1).with(revoked).post("/auth/logout"), 204, "logout through instance 1");
    for (const [index] of instances.entries()) {
      const reply = await direct(index).with(revoked).get("/auth/session");
      expectStatus(reply, 401, `the revoked token on instance ${index}`);
      assert.equal(reply.body.detail, "The access token has been revoked");
      expectStatus(await direct(index).with(kept).get("/auth/session"), 200, `another token of the same user on instance ${index}`);
    }
  });

  it("a rolling restart under creates and reads fails no request and loses no write", async (t) => {
    const all = instances.map((instance) => instance.port);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const created: number[] = [];
    let restarting = true;
    const send = async (what: string, method: string, path: string, expected: number, body?: unknown) => {
      const reply = await sendAlone(method, `${nginx.baseUrl}${path}`, body);
      tally(statuses, reply.status);
      if (reply.status !== expected && failures.length < 10) failures.push(`${what}: ${reply.status} ${reply.body}`);
      return reply.status === expected ? reply.body : undefined;
    };
    const clients = Array.from({ length: ROLLING_CLIENTS }, async () => {
      while (restarting) {
        const body = await send("create", "POST", "/tags", 201, { name: `rolling-${randomBytes(6).toString("hex")}` });
        if (body !== undefined) created.push((JSON.parse(body) as { id: number }).id);
        await send("read", "GET", `/tags/${replicated}`, 200);
      }
    });
    const reads = await readsDuring(async () => {
      try {
        for (const [index, instance] of instances.entries()) {
          await sleep(300);
          // Out of rotation first (nginx cannot read readiness), then stopped as an orchestrator
          // stops a container: SIGTERM to the server process only, which finishes what it has.
          await nginx.setUpstreams(all.filter((port) => port !== instance.port));
          instance.process.child.kill("SIGTERM");
          assert.equal(await exitWithin(instance.process, INSTANCE_TIMEOUT_MS), 0, instance.process.output());
          instances[index] = await startInstance(instance.port);
          await nginx.setUpstreams(all);
        }
        await sleep(300);
      } finally {
        restarting = false;
        await Promise.all(clients);
      }
    });
    t.diagnostic(`during the rolling restart: ${describeStatuses(statuses)}; tag selects: ${reads.onReplica} on the replica, ${reads.onPrimary} on the primary`);
    assert.deepEqual(failures, [], nginx.process.output());
    const [row] = await postgres!.query("SELECT count(*)::int AS n FROM tags WHERE id = ANY($1)", [created]);
    assert.equal(row.n, created.length, "an acknowledged create is missing");
  });

  it("throughput through 1 instance and through 3, in total and per CPU second", async (t) => {
    const measure = async (baseUrl: string, measured: Instance[]) => {
      const reader = new JsonClient(baseUrl);
      const cpuBefore = await cpuSeconds(measured);
      const started = Date.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (Date.now() - started < MEASURE_MS) {
            expectStatus(await reader.get(`/tags/${replicated}`), 200);
            done++;
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      const cpu = (await cpuSeconds(measured)) - cpuBefore;
      return { perSecond: done / seconds, perCpuSecond: done / cpu, cpu };
    };
    // nginx sends every request to the first instance, then spreads them over the three again.
    await nginx.setUpstreams([instances[0].port]);
    const one = await measure(nginx.baseUrl, [instances[0]]);
    await nginx.setUpstreams(instances.map((instance) => instance.port));
    const three = await measure(nginx.baseUrl, instances);
    const line = (name: string, m: { perSecond: number; perCpuSecond: number; cpu: number }) =>
      `${name}: ${m.perSecond.toFixed(0)} reads/s, ${m.perCpuSecond.toFixed(0)} per CPU second of the instances (${m.cpu.toFixed(1)} CPU s)`;
    t.diagnostic(line("1 instance", one));
    t.diagnostic(line("3 instances", three));
    assert.ok(one.perSecond > 0 && three.perSecond > 0);
  });

  it("PgBouncer killed: 503s with Retry-After, never a 500; started again, it serves, and no acknowledged write is lost", async (t) => {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const acknowledged: string[] = [];
    /** Creates answered 503: retried with their key once PgBouncer is back. */
    const unanswered: { name: string; key: string }[] = [];
    let running = true;
    const check = (what: string, reply: Sent, expected: number) => {
      tally(statuses, reply.status);
      const unavailable = reply.status === 503 && reply.headers["retry-after"] !== undefined;
      if (reply.status !== expected && !unavailable && failures.length < 10) failures.push(`${what}: ${reply.status} ${reply.body}`);
      return reply.status === expected;
    };
    const clients = Array.from({ length: ROLLING_CLIENTS }, async () => {
      while (running) {
        const [name, key] = [`survivor-${randomBytes(6).toString("hex")}`, randomBytes(12).toString("hex")];
        const reply = await sendAlone("POST", `${nginx.baseUrl}/tags`, { name }, { "idempotency-key": key });
        if (check("create", reply, 201)) acknowledged.push(name);
        else unanswered.push({ name, key });
        check("read", await sendAlone("GET", `${nginx.baseUrl}/tags/${replicated}`), 200);
      }
    });
    let down = new Map<number, number>();
    try {
      await sleep(300);
      await pgbouncer!.kill();
      const before = new Map(statuses);
      await eventually("requests answer 503 while PgBouncer is down", async () => (statuses.get(503) ?? 0) - (before.get(503) ?? 0) >= 20);
      down = new Map([...statuses].map(([status, count]) => [status, count - (before.get(status) ?? 0)]));
      await pgbouncer!.start();
      const back = acknowledged.length;
      await eventually("creates succeed again", async () => acknowledged.length >= back + 20);
    } finally {
      running = false;
      await Promise.all(clients);
    }
    t.diagnostic(`while PgBouncer was down: ${describeStatuses(down)}; in all: ${describeStatuses(statuses)}, ${unanswered.length} creates retried`);
    assert.deepEqual(failures, [], `${output()}\n${pgbouncer!.process.output()}`);
    for (const { name, key } of unanswered) expectStatus(await api.with({ "idempotency-key": key }).post("/tags", { name }), 201, `create ${name} retried`);
    const names = [...acknowledged, ...unanswered.map(({ name }) => name)];
    const [row] = await postgres!.query("SELECT count(DISTINCT name)::int AS n, count(*)::int AS rows FROM tags WHERE name = ANY($1)", [names]);
    assert.deepEqual(row, { n: names.length, rows: names.length }, "a create is missing or stored twice");
  });

  it("a stopped replica moves reads to the primary with no 500", async (t) => {
    const statuses = new Map<number, number>();
    let unavailableWithoutRetryAfter = 0;
    let reading = true;
    let index = 0;
    const readOnce = async () => {
      const reply = await api.get(index++ % 2 === 0 ? `/tags/${replicated}` : "/tags?limit=20");
      tally(statuses, reply.status);
      if (reply.status === 503 && reply.headers.get("retry-after") === null) unavailableWithoutRetryAfter++;
      assert.ok(reply.status === 200 || reply.status === 503, `a read answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    };
    // Readers keep reading while the replica stops, and until each worker's reads and checks
    // waiting in PgBouncer for the replica have given up; then 100 reads more.
    const readers = Array.from({ length: 6 }, async () => {
      while (reading) {
        await readOnce();
        await sleep(100);
      }
    });
    await sleep(200);
    await replica!.stop();
    await sleep((Number(pgbouncer!.setting("query_wait_timeout")) + 1) * 1000);
    reading = false;
    await Promise.all(readers);
    const failedBefore = statuses.get(503) ?? 0;
    const primaryBefore = await tagReads(postgres!);
    for (let after = 0; after < 100; after++) await readOnce();
    const onPrimary = (await tagReads(postgres!)) - primaryBefore;
    t.diagnostic(`reads: ${describeStatuses(statuses)}`);
    assert.equal(unavailableWithoutRetryAfter, 0);
    assert.equal(statuses.get(503) ?? 0, failedBefore, "reads after the replica stopped failed");
    assert.ok(onPrimary >= 100, "reads after the replica stopped did not run on the primary");
  });
});

/** How long each throughput measurement runs. */
const MEASURE_MS = 2000;

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

/** An answer of `sendAlone`. */
interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request on a connection of its own (as a balancer's many clients send theirs): no
 * kept-alive connection that the server closes in the instant it is reused (nginx reloading,
 * uvicorn closing one idle for 5 s). Status 0 and the error for a request without an answer.
 */
function sendAlone(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = payload === undefined ? headers : { ...headers, "content-type": "application/json" };
    const request = httpRequest(url, { method, agent: false, timeout: REQUEST_TIMEOUT_MS, headers: sent }, (response) => {
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
