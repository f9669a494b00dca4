/**
 * Outside clients by role: schemathesis drives the blog's authorization example
 * (examples/blog/config/authz.jsonnet) from its OpenAPI, signed in as each role the example
 * tells apart (two writers, an editor, a reader) and with no token, over real HTTP against a
 * real PostgreSQL. It checks that no request meets a server error and that every status
 * answered is documented for its route.
 *
 * Each writer first makes an author, a draft and a published article with a comment on each
 * (support/attack.ts); generated requests name those rows as well as drawn keys
 * (support/schemathesis_hooks.py), so row routes, reference fields, ownership checks and the
 * visibility rule meet rows that exist, are hidden, or belong to someone else. The five runs
 * share one server and go at once; each is seeded and bounded in cases per operation.
 */
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient, REQUEST_TIMEOUT_MS } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type AttackRows, attackRows } from "./support/attack.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { type Actor, BlogRoles } from "./support/roles.js";
import { type KnownRows, configDir, generatedCases, schemathesis, summary } from "./support/schemathesis.js";

const SECRET = randomBytes(48).toString("base64url");

/** What the test reads of the served OpenAPI document. */
interface OpenApi {
  paths: Record<string, Record<string, { parameters: { name: string; schema: { anyOf?: { maxItems?: number }[] } }[]; responses: Record<string, unknown> }>>;
}

/** The roles the runs sign in as: `author` and `other` are the two writers. */
const RUNS: Actor[] = ["author", "other", "editor", "reader", "anonymous"];

/**
 * Cases per operation: what each run does, about 300 cases a role. A case costs the five
 * runs together about 0.025 s on 2 quiet cores beyond a run's fixed 10 s or so (6 cases an
 * operation took 35 s): 9 adds about 12 s.
 */
const MAX_EXAMPLES = 9;
/** How long one run may take: several times what it takes on a busy machine; past it the run is stuck. */
const RUN_TIMEOUT_MS = 600_000;

/**
 * The setup's bound: the venv (cached), PostgreSQL, generating the example, the server
 * (itself bounded by serveBlog's wait), then the writers' rows over HTTP.
 */
const SETUP_TIMEOUT_MS = 240_000;
/** The runs go at once: the test waits as long as one run may take, and a little more for the report. */
const RUNS_TIMEOUT_MS = RUN_TIMEOUT_MS + 30_000;

// No links are inferred for stateful runs (see schemathesis.test.ts): keys come from the
// rows made first.
const CONFIG = `
[phases.stateful.inference]
algorithms = []
`;

let venv: Venv;
let postgres: Postgres | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let config: Awaited<ReturnType<typeof configDir>> | undefined;
let known: KnownRows;

const blog = new BlogRoles(() => server!.baseUrl, SECRET);

before(async () => {
  venv = await ensureVenv();
  [postgres, dir, config] = await Promise.all([startPostgres(), prepareBlogProject("config/authz.jsonnet"), configDir(CONFIG)]);
  // The example's token endpoint limits attempts per address: every run comes from 127.0.0.1.
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
  const rows = await writersRows(server);
  const writers = [rows.author, rows.other];
  const articles = writers.flatMap((owned) => [owned.draft, owned.published]);
  const authors = writers.map((owned) => owned.author);
  known = {
    paths: { "/articles": articles, "/authors": authors, "/comments": writers.map((owned) => owned.draftComment), "/tags": [rows.tag] },
    fields: { article_id: articles, author_id: authors, tag_id: [rows.tag] },
  };
}, { timeout: SETUP_TIMEOUT_MS });

/** Each writer's author and rows (support/attack.ts); a failure shows the server's output. */
async function writersRows(server: BlogServer): Promise<AttackRows> {
  try {
    await blog.createAuthors();
    return await attackRows(blog);
  } catch (error) {
    throw new Error(`making the writers' rows failed: ${(error as Error).message}\n\nserver output:\n${server.process.output()}`, { cause: error });
  }
}

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await config?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * The server's whole answer to `request`, written to a new connection in `pieces` writes
 * 50 ms apart, read until the server ends the connection; rejects after REQUEST_TIMEOUT_MS.
 */
function exchange(baseUrl: string, request: Buffer, pieces: number): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    const chunks: Buffer[] = [];
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy(new Error(`no end of answer within ${REQUEST_TIMEOUT_MS} ms`)));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => {
      socket.end();
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    socket.on("error", reject);
    socket.on("connect", async () => {
      const size = Math.ceil(request.length / pieces);
      for (let start = 0; start < request.length && socket.writable; start += size) {
        socket.write(request.subarray(start, start + size));
        await sleep(50);
      }
    });
  });
}

describe("schemathesis against the authorization example, by role", () => {
  // What a run met at 15 cases per operation: `author_id__in` at the 1,000 values it then
  // allowed made a 51 KB request line, over the server's 16 KiB head limit. uvicorn's h11
  // protocol alone accepted it when it arrived in one read and answered a plain-text 400 when
  // the network split it.
  it("answers every request its OpenAPI allows, and a head over the server's limit with the JSON 414 it documents, however the bytes arrive", async () => {
    const operation = ((await new JsonClient(server!.baseUrl).get("/openapi.json")).body as OpenApi).paths["/comments"]!.get!;
    assert.ok("414" in operation.responses, "GET /comments documents its 414");
    // Every `in` list of GET /comments (keys, all UUIDs) at its most: a request the OpenAPI allows.
    const lists = operation.parameters.filter((parameter) => parameter.name.endsWith("__in"));
    assert.deepEqual(lists.map((parameter) => [parameter.name, parameter.schema.anyOf?.[0]?.maxItems]), [["article_id__in", 100], ["author_id__in", 100]]);
    const longest = lists.flatMap((parameter) => Array.from({ length: 100 }, () => `${parameter.name}=${randomUUID()}`)).join("&");
    const over = Array.from({ length: 1000 }, () => `author_id__in=${randomUUID()}`).join("&");
    const request = (query: string) => Buffer.from(`GET /comments?${query} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
    for (const pieces of [1, 4]) {
      const allowed = await exchange(server!.baseUrl, request(longest), pieces);
      assert.match(allowed, /^HTTP\/1\.1 401 /, `the longest allowed, in ${pieces} writes, reaches the route (no token: 401): ${allowed.slice(0, 300)}`);
      const answer = await exchange(server!.baseUrl, request(over), pieces);
      assert.match(answer, /^HTTP\/1\.1 414 /, `in ${pieces} writes: ${answer.slice(0, 300)}`);
      assert.match(answer, /\r\ncontent-type: application\/json\r\n/);
      assert.deepEqual(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), { detail: "The request line is longer than 16,384 bytes." });
    }
  });

  it("finds no server error and no undocumented status, signed in as each role", { timeout: RUNS_TIMEOUT_MS }, async (t) => {
    const started = Date.now();
    const outcomes = await Promise.all(
      RUNS.map((role) =>
        schemathesis(venv, config!.path, server!.baseUrl, {
          checks: ["not_a_server_error", "status_code_conformance"],
          phases: ["examples", "fuzzing"],
          maxExamples: MAX_EXAMPLES,
          timeoutMs: RUN_TIMEOUT_MS,
          headers: blog.headers(role),
          known,
        }),
      ),
    );
    const lines: string[] = [];
    const failed: string[] = [];
    for (const [index, role] of RUNS.entries()) {
      const outcome = outcomes[index]!;
      const generated = generatedCases(outcome.output);
      if (!outcome.ok) failed.push(`signed in as ${role}:\n${outcome.output}`);
      else if (generated < 100) failed.push(`signed in as ${role}, too few test cases ran:\n${summary(outcome.output)}`);
      lines.push(`${role}: ${generated} cases`);
    }
    assert.deepEqual(failed, [], `${failed.join("\n\n")}\n\nserver output:\n${server!.process.output()}`);
    t.diagnostic(`${lines.join(", ")}, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
