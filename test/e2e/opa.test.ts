/**
 * End-to-end: OPA authorization of the generated blog backend (examples/blog/config/opa.jsonnet,
 * policy examples/blog/policy/authz.rego) against a real OPA server (test/support/opa.ts) and a
 * real PostgreSQL. A permission matrix where groups, the guard `blog.authz.can_edit_article`
 * and OPA each decide part; OPA's rows (its partial evaluation, in SQL) are the articles'
 * visibility rule, so lists answer exactly the rows `get` answers, in a number of statements
 * that does not grow with the rows, and the attack matrix (support/attack.ts) holds: no read
 * path shows a hidden row, no write reaches one; a UUID claim reads the same for get and
 * lists however it is written; OPA stopped or slower than the timeout answers 503 in time
 * (fail closed) or allows (fail open); a policy row filters cannot translate stops the
 * application at startup.
 */
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { generateFromConfig } from "../helpers/golden.js";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type OpaServer, opaTest, startOpa } from "../support/opa.js";
import { freePort } from "../support/ports.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, serveBlog } from "./support/blog.js";
import { prepareOpaProject } from "./support/projects.js";
import { attackMatrix } from "./support/attack.js";
import { claims, signJwt } from "./support/jwt.js";
import { BlogRoles, type Matrix, ROLES, type Role, expectConstantStatements, expectListIsGet, expectMatrix, expectPermissionsMatch, matrixReplies, listedIds } from "./support/roles.js";

const SECRET = randomBytes(48).toString("base64url");
/**
 * `auth.opa.timeout_seconds` of the tests' config, in milliseconds: the example's 0.5 s,
 * raised so a busy machine never turns a slow but working OPA into a 503.
 */
const TIMEOUT_MS = 2_000;
/** How long a 503 may take past the timeout on a busy machine. */
const SLACK_MS = 2_000;

let venv: Venv;
let postgres: Postgres | undefined;
let opa: OpaServer | undefined;
let proxy: DelayingProxy | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let staticChecks: Promise<CheckResult[]>;

// The policy knows a writer's articles by the token's author_id claim (their author row); the guard by the row's owner.
const blog: BlogRoles = new BlogRoles(() => server!.baseUrl, SECRET, (role): Record<string, string> => (role === "author" || role === "other" ? { author_id: blog.authors[role] } : {}));

/**
 * An HTTP proxy in front of OPA that can hold each request for `delayMs` first: OPA slower
 * than the backend's timeout, without touching the policy.
 */
interface DelayingProxy {
  url: string;
  delayMs: number;
  /** When set, the body of a 200 answering every `/v1/compile` in OPA's stead. */
  compileAnswer?: string;
  /** Requests forwarded so far, by path. */
  calls: string[];
  server: Server;
}

async function startProxy(target: () => string): Promise<DelayingProxy> {
  const state: DelayingProxy = { url: "", delayMs: 0, calls: [], server: undefined as unknown as Server };
  state.server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      state.calls.push(request.url ?? "");
      if (state.delayMs > 0) await sleep(state.delayMs);
      if (state.compileAnswer !== undefined && request.url === "/v1/compile") {
        response.writeHead(200, { "content-type": "application/json" }).end(state.compileAnswer);
        return;
      }
      try {
        const upstream = await fetch(`${target()}${request.url}`, { method: request.method, headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
        response.writeHead(upstream.status, { "content-type": "application/json" }).end(Buffer.from(await upstream.arrayBuffer()));
      } catch {
        if (!response.headersSent) response.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  const address = state.server.address() as { port: number };
  state.url = `http://127.0.0.1:${address.port}`;
  return state;
}

before(async () => {
  venv = await ensureVenv();
  dir = await prepareOpaProject();
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = Promise.all([ruffCheck(venv, dir, ["blog"])]);
  [postgres, opa] = await Promise.all([startPostgres(), startOpa([join(dir, "policy")])]);
  proxy = await startProxy(() => opa!.url);
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET, OPA_URL: proxy.url });
  await blog.createAuthors();
});

after(async () => {
  await server?.process.stop();
  await opa?.stop();
  await new Promise((resolve) => proxy?.server.close(resolve) ?? resolve(undefined));
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the policies", () => {
  it("of the example pass their own opa test suite", async () => {
    const result = await opaTest([join(dir!, "policy")]);
    assert.ok(result.ok, result.output);
    assert.match(result.output, /PASS: 6\/6/);
  });

  it("of be_root's starter pass their own opa test suite", async () => {
    const { out, temps } = await generateFromConfig("be_root", { name: "shop", auth: true, opa: true });
    try {
      const result = await opaTest([join(out, "policy")]);
      assert.ok(result.ok, result.output);
      assert.match(result.output, /PASS: 5\/5/);
    } finally {
      for (const temp of temps) await rm(temp, { recursive: true, force: true });
    }
  });
});

describe("the permission matrix of articles with OPA", () => {
  // Who decides: 401 the token; create, delete and publish their groups; update the guard;
  // the policy which articles exist for a user (a draft one may not see is a 404, as a
  // missing one) and that a published article cannot be published.
  const MATRIX: Matrix = {
    "get a published article": { anonymous: 401, reader: 200, author: 200, editor: 200, admin: 200 },
    "get the author's draft": { anonymous: 401, reader: 404, author: 200, editor: 200, admin: 200 },
    "get another author's draft": { anonymous: 401, reader: 404, author: 404, editor: 200, admin: 200 },
    list: { anonymous: 401, reader: 200, author: 200, editor: 200, admin: 200 },
    create: { anonymous: 401, reader: 403, author: 201, editor: 201, admin: 201 },
    "update the author's published article": { anonymous: 401, reader: 403, author: 200, editor: 200, admin: 200 },
    "update another author's draft": { anonymous: 401, reader: 404, author: 404, editor: 200, admin: 200 },
    "update another author's published article": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
    "delete a published article": { anonymous: 401, reader: 403, author: 403, editor: 403, admin: 204 },
    "publish another author's draft": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
    "publish a published article": { anonymous: 401, reader: 403, author: 403, editor: 403, admin: 403 },
  };

  for (const role of ROLES) {
    it(`answers ${role} as the matrix says`, async () => {
      const replies = await matrixReplies(blog, role);
      expectMatrix(MATRIX, replies, role);
      expectPermissionsMatch(MATRIX, replies, role);
      // The policy, not groups, refused these: its own message.
      if (role === "editor") assert.match((replies["publish a published article"]!.body as { detail: string }).detail, /policy/);
    });
  }
});

describe("lists filtered by OPA's partial evaluation", () => {
  it("answer each role exactly the rows it may get, in statements that do not grow with the rows", async () => {
    const { authors } = blog;
    const rows = [await blog.article(authors.author, true), await blog.article(authors.author, false), await blog.article(authors.other, false), await blog.article(authors.other, true)];
    const shown = new Map<Role, Set<string>>();
    for (const role of ROLES.filter((role) => role !== "anonymous")) shown.set(role, await expectListIsGet(blog.client(role), rows, role));
    // Not everything: a reader sees the published rows only, the author her own drafts too.
    const reader = shown.get("reader")!;
    assert.ok(reader.has(rows[0]!) && !reader.has(rows[1]!) && !reader.has(rows[2]!));
    const author = shown.get("author")!;
    assert.ok(author.has(rows[1]!) && !author.has(rows[2]!));
    await expectConstantStatements(blog, await blog.client("reader").get("/articles?limit=100"), ["reader", "author", "editor"]);
  });

  it("leave out the comments of articles a user may not see", async () => {
    const draft = await blog.article(blog.authors.other, false);
    const comment = await blog.client("other").post("/comments", { body: `on a draft ${blog.run}`, article_id: draft, author_id: blog.authors.other });
    expectStatus(comment, 201, "the other writer comments on their draft");
    const id = (comment.body as { id: string }).id;
    for (const role of ["reader", "author"] as const) {
      expectStatus(await blog.client(role).get(`/comments/${id}`), 404, `${role} gets the comment`);
      assert.ok(!listedIds(await blog.client(role).get("/comments?limit=100")).has(id), `${role} lists the comment`);
    }
    expectStatus(await blog.client("editor").get(`/comments/${id}`), 200, "the editor gets the comment");
  });

  it("ask OPA once per request, and only when the request reads articles", async () => {
    const id = await blog.article(blog.authors.other, true);
    const calls = async (what: string, reply: Promise<Reply>): Promise<string[]> => {
      proxy!.calls.length = 0;
      expectStatus(await reply, 200, what);
      return [...proxy!.calls];
    };
    const reader = blog.client("reader");
    assert.deepEqual(await calls("reader gets", reader.get(`/articles/${id}`)), ["/v1/compile"]);
    assert.deepEqual(await calls("reader lists", reader.get("/articles?limit=5")), ["/v1/compile"]);
    assert.deepEqual(await calls("reader reads an author and their articles", reader.get(`/authors/${blog.authors.other}`)), ["/v1/compile"]);
    assert.deepEqual(await calls("reader lists comments", reader.get("/comments?limit=5")), ["/v1/compile"]);
    assert.deepEqual(await calls("reader lists tags", reader.get("/tags")), []);
  });
});

describe("claims compared by the policy", () => {
  it("name the same rows for get and lists however a UUID claim is written", async () => {
    const draft = await blog.article(blog.authors.author, false);
    const author = blog.authors.author;
    for (const written of [author.toUpperCase(), `{${author}}`, `{${author.toUpperCase()}}`]) {
      const as = new JsonClient(server!.baseUrl).with({ authorization: `Bearer ${signJwt(claims({ sub: blog.email.author, roles: ["writer"], author_id: written }), SECRET)}` });
      expectStatus(await as.get(`/articles/${draft}`), 200, `get with author_id ${written}`);
      assert.ok(listedIds(await as.get(`/articles?author_id=${author}&limit=100`)).has(draft), `the list with author_id ${written} shows the draft`);
    }
    // A claim that is no UUID names no article: the draft is hidden on both, not a 503.
    const stranger = new JsonClient(server!.baseUrl).with({ authorization: `Bearer ${signJwt(claims({ sub: blog.email.author, roles: ["writer"], author_id: "not-a-uuid" }), SECRET)}` });
    expectStatus(await stranger.get(`/articles/${draft}`), 404, "get with a claim that is no UUID");
    const listed = await stranger.get(`/articles?author_id=${author}&limit=100`);
    expectStatus(listed, 200, "list with a claim that is no UUID");
    assert.ok(!listedIds(listed).has(draft));
  });

  it("holding NaN or Infinity (which PyJWT accepts and JSON cannot carry) make the token unusable on every read: 401", async () => {
    for (const number of ["NaN", "Infinity", "-Infinity"]) {
      // JSON.stringify cannot write these numbers: the payload's text is written by hand.
      const payload = JSON.stringify(claims({ sub: blog.email.author, roles: ["writer"], author_id: "@number@" })).replace('"@number@"', number);
      const input = `${Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")}.${Buffer.from(payload).toString("base64url")}`;
      const token = `${input}.${createHmac("sha256", SECRET).update(input).digest("base64url")}`;
      const as = new JsonClient(server!.baseUrl).with({ authorization: `Bearer ${token}` });
      for (const [what, reply] of Object.entries({
        get: await as.get(`/articles/${await blog.article(blog.authors.author, false)}`),
        list: await as.get("/articles?limit=5"),
        "an author with their articles": await as.get(`/authors/${blog.authors.author}`),
        "values of titles": await as.post("/_values", { resource: "article", field: "title", limit: 5 }),
      })) {
        expectStatus(reply, 401, `${what} with author_id ${number}`);
      }
    }
  });
});

describe("the visibility attack matrix with OPA", () => {
  attackMatrix(blog);
});

describe("when OPA fails, failing closed", () => {
  it("answers 503 within the timeout while OPA is slower than it", async () => {
    const id = await blog.article(blog.authors.other, true);
    // Well past the timeout: the 503 comes from it, not from OPA answering late.
    proxy!.delayMs = TIMEOUT_MS * 5;
    try {
      for (const path of [`/articles/${id}`, "/articles?limit=5"]) {
        const started = Date.now();
        const reply = await blog.client("reader").get(path);
        const elapsed = Date.now() - started;
        expectStatus(reply, 503, `GET ${path} with OPA slow`);
        assert.equal(typeof (reply.body as { detail?: unknown }).detail, "string");
        assert.ok(reply.headers.get("retry-after"), "a Retry-After header");
        assert.ok(elapsed < TIMEOUT_MS + SLACK_MS, `answered in ${elapsed} ms, the timeout being ${TIMEOUT_MS} ms`);
      }
    } finally {
      proxy!.delayMs = 0;
    }
    expectStatus(await blog.client("reader").get(`/articles/${id}`), 200, "OPA answers again");
  });

  it("answers 503 while OPA is stopped, and decides again once it is back", async () => {
    const id = await blog.article(blog.authors.other, true);
    const port = Number(new URL(opa!.url).port);
    await opa!.stop();
    try {
      const started = Date.now();
      const reply = await blog.client("reader").get(`/articles/${id}`);
      expectStatus(reply, 503, "get with OPA stopped");
      assert.ok(Date.now() - started < TIMEOUT_MS + SLACK_MS);
      expectStatus(await blog.client("reader").get("/articles?limit=5"), 503, "list with OPA stopped");
      // Reads of articles nobody wrote OPA into fail closed too: nested, discovery.
      expectStatus(await blog.client("reader").get(`/authors/${blog.authors.other}`), 503, "an author with their articles, OPA stopped");
      expectStatus(await blog.client("reader").post("/_values", { resource: "article", field: "title", limit: 5 }), 503, "values of titles, OPA stopped");
      // Routes that read no articles still work.
      expectStatus(await blog.client("reader").get("/tags"), 200, "tags without OPA");
    } finally {
      opa = await startOpa([join(dir!, "policy")], port);
    }
    expectStatus(await blog.client("reader").get(`/articles/${id}`), 200, "OPA is back");
  });
});

describe("a compile answer that is no row condition", () => {
  it("answers 503 on every read of articles, and shows no hidden row", async () => {
    const draft = await blog.article(blog.authors.other, false, `hidden-${blog.run}-compile`);
    const author = blog.client("author");
    for (const answer of ['{"result": {"queries": "all"}}', '{"result": {"queries": [[1]]}}', '{"result": []}', "[]"]) {
      proxy!.compileAnswer = answer;
      try {
        const replies = {
          get: await author.get(`/articles/${draft}`),
          list: await author.get("/articles?limit=100"),
          "an author with their articles": await author.get(`/authors/${blog.authors.other}`),
          comments: await author.get("/comments?limit=100"),
          "values of titles": await author.post("/_values", { resource: "article", field: "title", limit: 100 }),
          "schedule-article": await author.post(`/articles/${draft}/schedule-article`, { publish_on: "2031-01-01", note: null }),
        };
        for (const [what, reply] of Object.entries(replies)) {
          expectStatus(reply, 503, `${what} with the compile answer ${answer}`);
          assert.ok(!JSON.stringify(reply.body).includes(draft), `${what} shows the draft`);
        }
        expectStatus(await author.get("/tags"), 200, "tags read no articles");
      } finally {
        proxy!.compileAnswer = undefined;
      }
    }
    expectStatus(await author.get(`/articles/${draft}`), 404, "OPA answers again: the draft is hidden");
  });
});

describe("failing open", () => {
  it("allows what OPA would have decided, and lists every row, while OPA is unreachable", async () => {
    const openDir = await prepareOpaProject(" + { auth+: { opa+: { fail: 'open' } } }");
    // Nothing listens there: every call to OPA fails.
    const open = await serveBlog(openDir, venv, postgres!.asyncUrl, { JWT_SECRET: SECRET, OPA_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const draft = await blog.article(blog.authors.other, false);
      const reader = new JsonClient(open.baseUrl).with({ authorization: `Bearer ${signJwt(claims({ sub: `r-${blog.run}`, roles: ["reader"] }), SECRET)}` });
      expectStatus(await reader.get(`/articles/${draft}`), 200, "a reader gets a draft the policy would refuse");
      const listed = await reader.get("/articles?limit=100");
      expectStatus(listed, 200, "a reader lists");
      assert.ok(listedIds(listed).has(draft), "the list shows the draft too");
      // Groups still decide without OPA.
      expectStatus(await reader.post("/articles", { title: "x", body: "b", author_id: blog.authors.author }), 403, "groups refuse the reader's create");
    } finally {
      await open.process.stop();
      await rm(openDir, { recursive: true, force: true });
    }
  });
});

describe("a policy outside what row filters translate", () => {
  it("stops the application at startup with a message naming the expression", async () => {
    const policyDir = join(dir!, "unsupported-policy");
    await rm(policyDir, { recursive: true, force: true });
    await mkdir(policyDir);
    await writeFile(
      join(policyDir, "authz.rego"),
      'package blog.authz\n\ndefault allow := false\n\nallow if {\n\tinput.action == "get"\n\tstartswith(input.object.title, "public-")\n}\n',
    );
    const bad = await startOpa([policyDir]);
    try {
      await assert.rejects(
        serveBlog(dir!, venv, postgres!.asyncUrl, { JWT_SECRET: SECRET, OPA_URL: bad.url }),
        (error: Error) => /cannot filter article rows/.test(error.message) && /startswith/.test(error.message),
      );
    } finally {
      await bad.stop();
    }
  });
});

describe("the generated code", () => {
  it("passes ruff and pyright", async () => {
    for (const result of await staticChecks) assert.ok(result.ok, result.output);
  });
});
