/**
 * End-to-end: rate limits of the generated blog, served by two uvicorn worker processes
 * against one real PostgreSQL. With "5/minute" on POST /articles, exactly 5 of 20
 * concurrent requests pass and the rest are 429 with Retry-After, RateLimit and
 * RateLimit-Policy; `false` on the list leaves it unlimited; and the median latency of a
 * limited route is measured against an unlimited one in the same run. A second server, with
 * JWT auth and a project-wide limit, shows every route counts under it: a list's search,
 * discovery's `GET /_filters` and `POST /_values`, and the token endpoint.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { JsonClient, REQUEST_TIMEOUT_MS, type Reply } from "../support/http.js";
import { freePort } from "../support/ports.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type RunningProcess, startProcess, waitForHttp } from "../support/processes.js";
import { ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog, signedInClient } from "./support/blog.js";
import { median } from "../support/stats.js";

const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "../support");

// The blog with a limited article resource: its create entry 5 a minute, its list unlimited
// by `false`; tags limited so loosely that nothing is refused, categories not limited at all.
const CONFIG = `
local base = import 'project.jsonnet';
base {
  generate_tests: false,
  resources: [
    if resource.model == 'blog.models.Article' then resource {
      rate_limit: '100/minute',
      operations: [
        if std.isObject(op) && op.name == 'create' then op { rate_limit: '5/minute' }
        // The blog's list is an entry with modifiers: keep them, switch its limit off.
        else if std.isObject(op) && op.name == 'list' then op { rate_limit: false }
        else op
        for op in super.operations
      ],
    }
    else if resource.model == 'blog.models.Tag' then resource { rate_limit: '1000000/minute' }
    else resource
    for resource in super.resources
  ],
}
`;

describe("rate limits across two worker processes", () => {
  let postgres: Postgres | undefined;
  let server: RunningProcess | undefined;
  let projectDir: string | undefined;
  let api: JsonClient;
  const workerPids = new Set<string>();

  async function send(method: string, path: string, body?: unknown): Promise<Reply> {
    const reply = await api.send(method, path, body);
    const pid = reply.headers.get("x-worker-pid");
    if (pid) workerPids.add(pid);
    return reply;
  }

  before(async () => {
    const venv = await ensureVenv();
    projectDir = await prepareBlogProject("config/override.jsonnet", CONFIG);
    postgres = await startPostgres();
    const port = await freePort();
    server = startProcess(venv.python, [join(SUPPORT_DIR, "workers.py"), "--port", String(port), "--workers", "2"], {
      cwd: projectDir,
      env: { ...process.env, DATABASE_URL: postgres.asyncUrl, PYTHONPATH: `${projectDir}:${SUPPORT_DIR}`, PYTHONDONTWRITEBYTECODE: "1" },
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    // Two workers import the app side by side: on a busy machine that takes longer than one.
    await waitForHttp(`${baseUrl}/openapi.json`, server);
    api = new JsonClient(baseUrl);
    // Both workers boot on their own (on a busy machine, the second can take long); wait until each has answered once.
    const deadline = Date.now() + 60_000;
    while (workerPids.size < 2 && Date.now() < deadline) await Promise.all(Array.from({ length: 8 }, () => send("GET", "/openapi.json")));
  });

  after(async () => {
    await server?.stop();
    await postgres?.stop();
    if (projectDir) await rm(projectDir, { recursive: true, force: true });
  });

  it("runs two workers", () => {
    assert.equal(workerPids.size, 2, `workers seen: ${[...workerPids].join(", ")}\n${server?.output()}`);
  });

  it('lets exactly 5 of 20 concurrent POST /articles through "5/minute"; the rest are 429 with the headers', async () => {
    const author = await send("POST", "/authors", { name: "Ada", email: `ada-${randomBytes(4).toString("hex")}@example.com` });
    assert.equal(author.status, 201);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => send("POST", "/articles", { title: `Burst ${index}`, body: "b", author_id: author.body.id })),
    );
    const passed = replies.filter((reply) => reply.status === 201);
    const refused = replies.filter((reply) => reply.status === 429);
    assert.equal(passed.length, 5, replies.map((reply) => reply.status).join(" "));
    assert.equal(refused.length, 15);
    const pidsOfBurst = new Set(replies.map((reply) => reply.headers.get("x-worker-pid")));
    for (const reply of refused) {
      const retryAfter = Number(reply.headers.get("retry-after"));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${reply.headers.get("retry-after")}`);
      assert.equal(reply.headers.get("ratelimit-policy"), '"60s";q=5;w=60');
      assert.match(reply.headers.get("ratelimit") ?? "", /^"60s";r=0;t=([1-9]|[1-5]\d|60)$/);
      assert.match(reply.body.detail, /^Rate limit exceeded: 5 requests per 60s$/);
    }
    // Each passing request saw its own count: 4, 3, 2, 1 and 0 left.
    const remaining = passed.map((reply) => /;r=(\d+);/.exec(reply.headers.get("ratelimit") ?? "")?.[1]).sort();
    assert.deepEqual(remaining, ["0", "1", "2", "3", "4"]);
    // Both workers answered the burst, so the count of 5 was shared between processes (a
    // counter in each worker's memory would have let more through).
    assert.equal(pidsOfBurst.size, 2, `the burst reached one worker only: ${[...pidsOfBurst].join(", ")}`);
  });

  it("leaves the list unlimited where the entry says rate_limit: false", async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, () => send("GET", "/articles?limit=1")));
    assert.deepEqual(
      replies.map((reply) => reply.status),
      Array(20).fill(200),
    );
    assert.ok(replies.every((reply) => reply.headers.get("ratelimit") === null));
  });

  it("documents the 429 in OpenAPI on limited operations only", async () => {
    const spec = (await send("GET", "/openapi.json")).body;
    assert.ok(spec.paths["/articles"].post.responses["429"], "createArticle documents 429");
    assert.deepEqual(Object.keys(spec.paths["/articles"].post.responses["429"].headers).sort(), ["RateLimit", "RateLimit-Policy", "Retry-After"]);
    assert.equal(spec.paths["/articles"].get.responses["429"], undefined);
  });

  it("measures the median latency of a limited route against an unlimited one", async (t) => {
    const tag = await send("POST", "/tags", { name: `tag-${randomBytes(4).toString("hex")}` });
    const category = await send("POST", "/categories", { slug: `c-${randomBytes(4).toString("hex")}`, title: "C" });
    assert.equal(tag.status, 201);
    assert.equal(category.status, 201);
    const limited: number[] = [];
    const unlimited: number[] = [];
    const time = async (path: string, into: number[]) => {
      const start = performance.now();
      const reply = await send("GET", path);
      into.push(performance.now() - start);
      assert.equal(reply.status, 200);
      return reply;
    };
    // Warm both workers' pools, then interleave so both routes see the same conditions.
    for (let round = 0; round < 300; round++) {
      const sample = round >= 50;
      const reply = await time(`/tags/${tag.body.id}`, sample ? limited : []);
      if (round === 0) assert.match(reply.headers.get("ratelimit") ?? "", /^"60s";r=\d+;t=\d+$/);
      await time(`/categories/${category.body.slug}`, sample ? unlimited : []);
    }
    const [withLimit, withoutLimit] = [median(limited), median(unlimited)];
    t.diagnostic(`p50 GET /tags/{pk} (limited): ${withLimit.toFixed(2)} ms; GET /categories/{pk} (unlimited): ${withoutLimit.toFixed(2)} ms; ` +
      `overhead ${(withLimit - withoutLimit).toFixed(2)} ms over ${limited.length} requests each`);
    // The limit costs one statement on its own connection: measurable, never a multiple.
    assert.ok(withLimit < withoutLimit * 3 + 5, `limited ${withLimit} ms vs unlimited ${withoutLimit} ms`);
  });
});

// The blog with JWT auth and only the project's limit, 4 a minute per client and route.
const PROJECT_LIMIT_CONFIG = `
local base = import 'auth.jsonnet';
base { rate_limit: '4/minute', generate_tests: false }
`;

describe("the project's rate limit on routes beyond the entries'", () => {
  let limitedPostgres: Postgres | undefined;
  let limitedServer: BlogServer | undefined;
  let limitedDir: string | undefined;

  before(async () => {
    const venv = await ensureVenv();
    limitedDir = await prepareBlogProject("config/override.jsonnet", PROJECT_LIMIT_CONFIG);
    limitedPostgres = await startPostgres();
    limitedServer = await serveBlog(limitedDir, venv, limitedPostgres.asyncUrl, { JWT_SECRET: randomBytes(48).toString("base64url") });
  });

  after(async () => {
    await limitedServer?.process.stop();
    await limitedPostgres?.stop();
    if (limitedDir) await rm(limitedDir, { recursive: true, force: true });
  });

  /** The statuses of `count` requests sent one after the other. */
  async function statuses(count: number, request: () => Promise<Reply>): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await request()).status);
    return seen;
  }

  it("refuses the fifth search, /_filters, /_values and token request with 429, documented in OpenAPI", async () => {
    const base = limitedServer!.baseUrl;
    // The first token request of the client counts too.
    const client = await signedInClient(base);
    const anonymous = new JsonClient(base);
    assert.deepEqual(await statuses(5, () => anonymous.post("/articles/search", { limit: 1 })), [200, 200, 200, 200, 429], "POST /articles/search");
    assert.deepEqual(await statuses(5, () => client.get("/_filters")), [200, 200, 200, 200, 429], "GET /_filters");
    assert.deepEqual(await statuses(5, () => client.post("/_values", { resource: "article", field: "title", q: "x" })), [200, 200, 200, 200, 429], "POST /_values");
    const login = () =>
      fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ username: "ada", password: "analytical-engine" }), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const tokens = [];
    for (let i = 0; i < 4; i++) tokens.push(await login());
    assert.deepEqual(tokens.map((reply) => reply.status), [200, 200, 200, 429], "POST /auth/token");
    const refused = tokens[3]!;
    assert.ok(Number(refused.headers.get("retry-after")) >= 1, `Retry-After: ${refused.headers.get("retry-after")}`);
    assert.equal(refused.headers.get("ratelimit-policy"), '"60s";q=4;w=60');
    const spec = (await anonymous.get("/openapi.json")).body;
    for (const [path, method] of [["/articles/search", "post"], ["/_filters", "get"], ["/_values", "post"], ["/auth/token", "post"]] as const) {
      assert.ok(spec.paths[path][method].responses["429"], `${method.toUpperCase()} ${path} documents 429`);
    }
  });
});
