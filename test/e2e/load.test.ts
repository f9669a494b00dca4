/**
 * Load on 127.0.0.1: the generated blog backend under many concurrent clients (a mix of
 * list, get and create on /tags), against the same routes written by hand the obvious
 * FastAPI + SQLAlchemy way and serving the same contract (a 1 MiB body limit,
 * `Idempotency-Key`), measured in the same run on the same database and server
 * settings. Then the failure modes: an exhausted pool and a PostgreSQL restart during
 * load are answered 503 with `Retry-After`, never a 500 or a hang, and every create that
 * was acknowledged is still there afterwards.
 *
 * Bounded: every phase runs for a fixed time; the whole file takes about two minutes.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { REQUEST_TIMEOUT_MS } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog, serveScript } from "./support/blog.js";
import { type LoadRequest, type LoadResult, describeLoad, loadAgent, runLoad } from "./support/load.js";
import { median } from "../support/stats.js";


/** Concurrent clients of the throughput runs. */
const CLIENTS = 200;
const WARMUP_MS = 3_000;
/**
 * Measured rounds: both servers under load at the same time, each from its own clients,
 * so a busy moment of the shared machine slows both alike; each round gives one ratio.
 */
const ROUNDS = 8;
const ROUND_MS = 4_000;
/**
 * The generated routes serve at least this share of the hand-written requests per CPU
 * second, on a quiet or a loaded machine: below it, a change made requests dearer.
 */
const GOAL_RATIO = 0.9;

let venv: Venv;
let postgres: Postgres | undefined;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  [venv, postgres] = await Promise.all([ensureVenv(), startPostgres()]);
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await postgres?.stop();
});

async function generatedServer(override?: string): Promise<BlogServer> {
  const projectDir = await prepareBlogProject(override === undefined ? undefined : "config/override.jsonnet", override);
  const server = await serveBlog(projectDir, venv, postgres!.asyncUrl, {}, { countStatements: false });
  cleanups.push(async () => {
    await server.process.stop();
    await rm(projectDir, { recursive: true, force: true });
  });
  return server;
}

async function handwrittenServer(projectDir: string): Promise<BlogServer> {
  const server = await serveScript("handwritten_tags.py", projectDir, venv.python, postgres!.asyncUrl, "/openapi.json");
  cleanups.push(() => server.process.stop());
  return server;
}

// The blog generated with its tags only: the same routes the hand-written app serves (a
// FastAPI app matches a request against its routes one by one, so an app with 30 routes
// would pay for the 27 the baseline does not have).
const TAGS_ONLY = `
local r = import 'resources.libsonnet';
(import 'project.jsonnet') + { resources: [r.tag], generate_tests: false }`;

function uniqueName(): string {
  return `tag-${randomBytes(8).toString("hex")}`;
}

/** Half gets of a known tag, three in ten lists of 20, two in ten creates (which add to the known tags). */
function tagMix(known: number[]): () => LoadRequest {
  return () => {
    const roll = Math.random();
    if (roll < 0.5) return { method: "GET", path: `/tags/${known[Math.floor(Math.random() * known.length)]}` };
    if (roll < 0.8) return { method: "GET", path: "/tags?limit=20" };
    return {
      method: "POST",
      path: "/tags",
      body: { name: uniqueName() },
      onReply: (status, body) => {
        if (status === 201) known.push(JSON.parse(body).id);
      },
    };
  };
}

function listed(ratios: number[]): string {
  return ratios.map((ratio) => ratio.toFixed(2)).join(", ");
}

function assertNoServerError(result: LoadResult, label: string): void {
  // 0 counts network errors: a refused, reset or timed-out (hung) request.
  const bad = [...result.statuses].filter(([status]) => status === 0 || status >= 500);
  assert.deepEqual(bad, [], `${label}: ${describeLoad(result)}`);
}

describe("load on the generated blog backend", () => {
  let generated: BlogServer;
  let handwritten: BlogServer;
  const known: number[] = [];

  before(async () => {
    generated = await generatedServer(TAGS_ONLY);
    const projectDir = await prepareBlogProject();
    cleanups.push(() => rm(projectDir, { recursive: true, force: true }));
    handwritten = await handwrittenServer(projectDir);
    for (let index = 0; index < 100; index++) {
      const reply = await fetch(`${generated.baseUrl}/tags`, {
        method: "POST",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: uniqueName() }),
      });
      assert.equal(reply.status, 201);
      known.push(((await reply.json()) as { id: number }).id);
    }
  });

  // The comparison is fair only if both serve the same contract: bodies up to 1 MiB, and
  // a create retried with its Idempotency-Key answered again, not made twice.
  it("the hand-written routes serve the contract the generated ones do", async () => {
    for (const { baseUrl } of [generated, handwritten]) {
      const post = (body: string, key?: string) =>
        fetch(`${baseUrl}/tags`, {
          method: "POST",
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          headers: { "content-type": "application/json", ...(key === undefined ? {} : { "Idempotency-Key": key }) },
          body,
        });
      const name = uniqueName();
      const key = `key-${name}`;
      const first = await post(JSON.stringify({ name }), key);
      assert.equal(first.status, 201, baseUrl);
      const firstBody = await first.json();
      const again = await post(JSON.stringify({ name }), key);
      assert.equal(again.status, 201, baseUrl);
      assert.equal(again.headers.get("idempotent-replayed"), "true", baseUrl);
      assert.deepEqual(await again.json(), firstBody, baseUrl);
      assert.equal((await post(JSON.stringify({ name: uniqueName() }), key)).status, 409, `${baseUrl}: a key reused with another body`);
      assert.equal((await post(JSON.stringify({ name }))).status, 409, `${baseUrl}: a name taken`);
      assert.equal((await post(JSON.stringify({ name: "x".repeat(1024 * 1024) }))).status, 413, `${baseUrl}: a body over 1 MiB`);
    }
  });

  // Throughput is compared per CPU second of each server process as well as per wall
  // second: requests per server CPU second is what one core of a dedicated machine would
  // serve. The two servers run side by side in every round, so whatever else the shared
  // machine does at that moment weighs on both; the median of the rounds' ratios is the
  // verdict, so one disturbed round cannot decide it either way.
  const cpuRatios: number[] = [];
  /** The generated routes' 99th percentile latency over the hand-written routes', by round. */
  const p99Ratios: number[] = [];
  it(`serves ${CLIENTS} clients without a 5xx, beside the hand-written routes`, async () => {
    // Each server keeps its clients' connections from the warm-up to the last round: the
    // rounds measure requests, not connection set-up.
    const servers = [
      { baseUrl: generated.baseUrl, serverPid: generated.process.child.pid, agent: loadAgent(CLIENTS) },
      { baseUrl: handwritten.baseUrl, serverPid: handwritten.process.child.pid, agent: loadAgent(CLIENTS) },
    ];
    cleanups.push(async () => servers.forEach(({ agent }) => agent.destroy()));
    // Warmed alike, together: the same mix for the same time, so both pools are full and
    // every statement is cached before the first measured round.
    await Promise.all(servers.map(({ baseUrl, agent }) => runLoad({ baseUrl, clients: CLIENTS, durationMs: WARMUP_MS, next: tagMix(known), agent })));
    const wallRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [mine, theirs] = await Promise.all(
        servers.map(({ baseUrl, serverPid, agent }) => runLoad({ baseUrl, clients: CLIENTS, durationMs: ROUND_MS, next: tagMix(known), serverPid, agent })),
      );
      assertNoServerError(mine!, "generated");
      assertNoServerError(theirs!, "handwritten");
      const cpuRatio = mine!.requests / mine!.serverCpuSeconds! / (theirs!.requests / theirs!.serverCpuSeconds!);
      cpuRatios.push(cpuRatio);
      wallRatios.push(mine!.throughput / theirs!.throughput);
      p99Ratios.push(mine!.p99Ms / theirs!.p99Ms);
      console.log(`round ${round + 1}: ${cpuRatio.toFixed(2)} per server CPU second\n  generated:   ${describeLoad(mine!)}\n  handwritten: ${describeLoad(theirs!)}`);
    }
    console.log(
      `generated/handwritten, median of ${ROUNDS} rounds: ${median(cpuRatios).toFixed(2)} per server CPU second (${listed(cpuRatios)}), ` +
        `${median(wallRatios).toFixed(2)} per wall second (${listed(wallRatios)}); p99 ${median(p99Ratios).toFixed(2)}x (${listed(p99Ratios)})`,
    );
  });

  // Measured with this test (median of 8 side-by-side rounds), against the baseline with
  // the body limit and Idempotency-Key, on 2 cores shared with other work: 1.00x at a load
  // average of 19 and 1.04x at 9-13 while the pool pinged each connection, 1.09x (rounds
  // 1.02-1.29) at 15-18 since it reads the connection's state instead (docs/be.md,
  // Throughput); the rounds of one run spread by up to 0.5x.
  it(`serves at ${GOAL_RATIO}x the hand-written routes' throughput per CPU second or better`, () => {
    assert.equal(cpuRatios.length, ROUNDS, "the throughput rounds did not all run");
    const ratio = median(cpuRatios);
    assert.ok(ratio >= GOAL_RATIO, `the generated routes served ${ratio.toFixed(2)}x the hand-written requests per CPU second (rounds: ${listed(cpuRatios)})`);
  });

  // A session waits for a connection in a first-come, first-served queue
  // (runtime/pool_queue.py). Before it, SQLAlchemy's pool served newcomers first: the
  // generated p99 was 4.3-4.6 s in 4-second rounds, as slow as the hand-written routes'.
  it("answers its slowest requests (p99) no later than the hand-written routes", () => {
    assert.equal(p99Ratios.length, ROUNDS, "the throughput rounds did not all run");
    const ratio = median(p99Ratios);
    assert.ok(ratio <= 1, `the generated routes' p99 was ${ratio.toFixed(2)}x the hand-written routes' (rounds: ${listed(p99Ratios)})`);
  });

  // Creates carry an Idempotency-Key, and a client retries one answered 503 (or not at all)
  // with the same key, as a careful client would: a create that was committed before its
  // answer was lost is replayed, never refused as a duplicate (409) nor made twice.
  it("answers 503 with Retry-After, never a 500, while PostgreSQL restarts; no acknowledged create is lost", async () => {
    const acknowledged: string[] = [];
    const retries = new Map<number, LoadRequest>();
    const next = (client: number): LoadRequest => {
      const retry = retries.get(client);
      if (retry) return retry;
      if (Math.random() < 0.5) return { method: "GET", path: `/tags/${known[Math.floor(Math.random() * known.length)]}` };
      const name = uniqueName();
      const job: LoadRequest = {
        method: "POST",
        path: "/tags",
        body: { name },
        headers: { "Idempotency-Key": name },
        onReply: (status) => {
          if (status === 503 || status === 0) {
            retries.set(client, job);
            return;
          }
          retries.delete(client);
          if (status === 201) acknowledged.push(name);
        },
      };
      return job;
    };
    const load = runLoad({ baseUrl: generated.baseUrl, clients: 50, durationMs: 12_000, next, timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await postgres!.restart(3_000);
    const result = await load;
    console.log(`during a restart: ${describeLoad(result)}`);
    const unexpected = [...result.statuses].filter(([status]) => status === 0 || (status >= 500 && status !== 503));
    assert.deepEqual(unexpected, [], `${describeLoad(result)}\n${generated.process.output().slice(-30000)}`);
    assert.ok((result.statuses.get(503) ?? 0) > 0, `the outage was never seen: ${describeLoad(result)}`);
    assert.ok((result.statuses.get(201) ?? 0) > 0, `nothing was created: ${describeLoad(result)}`);
    assert.equal(result.statuses.get(409) ?? 0, 0, `a retried create was refused: ${describeLoad(result)}`);
    const rows = await postgres!.query("SELECT name FROM tags WHERE name = ANY($1)", [acknowledged]);
    assert.equal(rows.length, acknowledged.length, "an acknowledged create is missing after the restart");
    // Recovered: the next request succeeds without a restart of the app.
    const reply = await fetch(`${generated.baseUrl}/tags?limit=1`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    assert.equal(reply.status, 200);
  });

  // The pool holds connections the restart closed: each is discarded as it leaves the
  // pool (runtime/pool_check.py), so no request meets one. More gets than the pool has
  // connections, one at a time, so every pooled connection is checked out.
  it("after PostgreSQL restarted under an idle app, every request is answered 200", async () => {
    await postgres!.restart(1_000);
    const statuses: number[] = [];
    for (let index = 0; index < 20; index++) {
      statuses.push((await fetch(`${generated.baseUrl}/tags/${known[index]}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).status);
    }
    assert.deepEqual(statuses, statuses.map(() => 200), generated.process.output().slice(-5000));
  });
});

describe("an exhausted pool", () => {
  // Two connections, a one-second wait for one, and statements cancelled after two seconds.
  const STRAINED = `
local db = import 'be/db/databases.libsonnet';
(import 'project.jsonnet') + {
  databases: [db.postgres('primary', { url_env: 'DATABASE_URL', default: true, pool_size: 2, max_overflow: 0, pool_timeout: 1, statement_timeout: 2 })],
}`;

  it("answers 503 with Retry-After within the pool wait and statement timeout, then recovers", async () => {
    const server = await generatedServer(STRAINED);
    const created = await fetch(`${server.baseUrl}/tags`, {
      method: "POST",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: uniqueName() }),
    });
    assert.equal(created.status, 201);
    const id = ((await created.json()) as { id: number }).id;
    // Every statement on tags now waits for this lock: the pool's connections are stuck.
    const release = await postgres!.hold("BEGIN; LOCK TABLE tags IN ACCESS EXCLUSIVE MODE");
    try {
      const result = await runLoad({ baseUrl: server.baseUrl, clients: 40, durationMs: 4_000, next: () => ({ method: "GET", path: `/tags/${id}` }), timeoutMs: 10_000 });
      console.log(`with the pool exhausted: ${describeLoad(result)}`);
      assert.deepEqual([...result.statuses.keys()], [503], describeLoad(result));
      assert.ok(result.maxMs < 4_000, `a request waited ${result.maxMs.toFixed(0)} ms`);
      const reply = await fetch(`${server.baseUrl}/tags/${id}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      assert.equal(reply.status, 503);
      assert.equal(reply.headers.get("retry-after"), "1");
    } finally {
      await release();
    }
    const recovered = await fetch(`${server.baseUrl}/tags/${id}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    assert.equal(recovered.status, 200);
  });
});
