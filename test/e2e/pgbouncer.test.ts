/**
 * The blog backend behind Debian's PgBouncer in transaction pooling (docs/pgbouncer.md):
 * 300 concurrent clients each create a tag, list tags and read theirs back. Generated with
 * `transaction_pooling: true` every request succeeds. Generated without it, asyncpg's
 * prepared statements meet server connections PgBouncer handed to other clients, and those
 * requests are 503s with `Retry-After`, never 500s: the option is what makes the difference.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { REQUEST_TIMEOUT_MS } from "../support/http.js";
import { type Pgbouncer, startPgbouncer } from "../support/pgbouncer.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";

const CLIENTS = 300;
/** Server connections PgBouncer keeps: far fewer than the app's clients, so they are shared. */
const SERVER_CONNECTIONS = 4;

let venv: Venv;
let postgres: Postgres | undefined;
let pgbouncer: Pgbouncer | undefined;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  [venv, postgres] = await Promise.all([ensureVenv(), startPostgres()]);
  pgbouncer = await startPgbouncer(postgres.url, SERVER_CONNECTIONS);
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await pgbouncer?.stop();
  await postgres?.stop();
});

/** The blog with its tags only, its database reached through PgBouncer, with or without the option. */
async function serveThroughPgbouncer(transactionPooling: boolean): Promise<BlogServer> {
  const override = `
local r = import 'resources.libsonnet';
local project = import 'project.jsonnet';
project + {
  resources: [r.tag],
  generate_tests: false,
  databases: [project.databases[0] + { transaction_pooling: ${transactionPooling} }],
}`;
  const projectDir = await prepareBlogProject("config/override.jsonnet", override);
  const server = await serveBlog(projectDir, venv, pgbouncer!.asyncUrl, {}, { countStatements: false });
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
    const server = await serveThroughPgbouncer(true);
    const outcome = await createListRead(server.baseUrl);
    const { statuses } = outcome;
    t.diagnostic(describeStatuses(statuses));
    const failed = [...statuses].filter(([status]) => status === 0 || status >= 300);
    assert.deepEqual(failed, [], explain(outcome, server));
    assert.equal(statuses.get(201), CLIENTS, explain(outcome, server));
  });

  it("without it, the shared server connections' statement errors are 503s with Retry-After, never 500s", async (t) => {
    const server = await serveThroughPgbouncer(false);
    const outcome = await createListRead(server.baseUrl);
    const { statuses, unavailableWithoutRetryAfter } = outcome;
    t.diagnostic(describeStatuses(statuses));
    assert.ok((statuses.get(503) ?? 0) > 0, `PgBouncer let asyncpg's cached statements through: ${explain(outcome, server)}`);
    assert.deepEqual([...statuses].filter(([status]) => status === 0 || (status >= 500 && status !== 503)), [], explain(outcome, server));
    assert.equal(unavailableWithoutRetryAfter, 0, explain(outcome, server));
  });
});
