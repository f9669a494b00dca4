/**
 * End-to-end: authorization of the generated blog backend (examples/blog/config/authz.jsonnet)
 * over real HTTP, against a real PostgreSQL. A permission matrix — anonymous, reader, the
 * article's author, editor, admin × get, list, create, update, delete and publish — where
 * groups (the token's `roles` claim), the guard `blog.authz.can_edit_article` and the
 * visibility filter `blog.authz.visible_articles` each decide part; lists answer exactly the
 * rows `get` answers, in a number of statements that does not grow with the rows.
 */
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, pyright, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { claims, signJwt } from "./support/jwt.js";

const SECRET = randomBytes(48).toString("base64url");

let venv: Venv;
let postgres: Postgres | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let staticChecks: Promise<CheckResult[]>;

type Role = "anonymous" | "reader" | "author" | "editor" | "admin";
const ROLES: Role[] = ["anonymous", "reader", "author", "editor", "admin"];
const run = randomUUID().slice(0, 8);
const EMAIL = { author: `ada-${run}@example.com`, other: `bob-${run}@example.com` };

function client(role: Role): JsonClient {
  const anonymous = new JsonClient(server!.baseUrl);
  if (role === "anonymous") return anonymous;
  const [sub, roles] = {
    reader: [`reader-${run}@example.com`, ["reader"]],
    author: [EMAIL.author, ["writer"]],
    editor: [`ed-${run}@example.com`, ["editor"]],
    admin: [`root-${run}@example.com`, ["admin"]],
  }[role] as [string, string[]];
  // A token for `sub` in the groups `roles`, signed as the app signs its own.
  return anonymous.with({ authorization: `Bearer ${signJwt(claims({ sub, roles }), SECRET)}` });
}

let authors: { author: string; other: string };

async function article(author: string, published: boolean, title = `t-${randomUUID()}`): Promise<string> {
  const reply = await client("admin").post("/articles", { title, body: "words", published, author_id: author });
  expectStatus(reply, 201, "admin creates an article");
  return (reply.body as { id: string }).id;
}

before(async () => {
  venv = await ensureVenv();
  dir = await prepareBlogProject("config/authz.jsonnet");
  staticChecks = Promise.all([ruffCheck(venv, dir, ["blog"]), pyright(venv, dir, ["blog"])]);
  postgres = await startPostgres();
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
  const ids = [];
  for (const email of [EMAIL.author, EMAIL.other]) {
    const reply = await client("admin").post("/authors", { name: email, email });
    expectStatus(reply, 201, "admin creates an author");
    ids.push((reply.body as { id: string }).id);
  }
  authors = { author: ids[0]!, other: ids[1]! };
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the permission matrix of articles", () => {
  // Expected statuses per route and role; each role works on rows of its own.
  const MATRIX: Record<string, Record<Role, number>> = {
    "get a published article": { anonymous: 401, reader: 200, author: 200, editor: 200, admin: 200 },
    "get the author's draft": { anonymous: 401, reader: 404, author: 200, editor: 200, admin: 200 },
    "get another author's draft": { anonymous: 401, reader: 404, author: 404, editor: 200, admin: 200 },
    list: { anonymous: 401, reader: 200, author: 200, editor: 200, admin: 200 },
    create: { anonymous: 401, reader: 403, author: 201, editor: 201, admin: 201 },
    "update the author's published article": { anonymous: 401, reader: 403, author: 200, editor: 200, admin: 200 },
    "update another author's draft": { anonymous: 401, reader: 404, author: 404, editor: 200, admin: 200 },
    "update another author's published article": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
    "delete a published article": { anonymous: 401, reader: 403, author: 403, editor: 403, admin: 204 },
    "publish the author's draft": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
    "publish another author's draft": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
  };

  for (const role of ROLES) {
    it(`answers ${role} as the matrix says`, async () => {
      const as = client(role);
      const rows = {
        published: await article(authors.author, true),
        draft: await article(authors.author, false),
        otherDraft: await article(authors.other, false),
        otherPublished: await article(authors.other, true),
      };
      const replies: Record<string, Reply> = {
        "get a published article": await as.get(`/articles/${rows.published}`),
        "get the author's draft": await as.get(`/articles/${rows.draft}`),
        "get another author's draft": await as.get(`/articles/${rows.otherDraft}`),
        list: await as.get("/articles?limit=100"),
        create: await as.post("/articles", { title: "new", body: "b", author_id: authors.author }),
        "update the author's published article": await as.patch(`/articles/${rows.published}`, { title: "changed" }),
        "update another author's draft": await as.patch(`/articles/${rows.otherDraft}`, { title: "changed" }),
        "update another author's published article": await as.patch(`/articles/${rows.otherPublished}`, { title: "changed" }),
        "delete a published article": await as.delete(`/articles/${rows.otherPublished}`),
        "publish the author's draft": await as.post(`/articles/${rows.draft}/publish-article`),
        "publish another author's draft": await as.post(`/articles/${rows.otherDraft}/publish-article`),
      };
      for (const [route, expected] of Object.entries(MATRIX)) {
        const reply = replies[route]!;
        expectStatus(reply, expected[role], `${role}: ${route}`);
        if (reply.status === 401 || reply.status === 403) assert.equal(typeof (reply.body as { detail?: unknown }).detail, "string", `${role}: ${route}: a JSON detail`);
      }
      const refused = replies["create"]!;
      if (role === "reader") assert.match((refused.body as { detail: string }).detail, /admin, editor, writer/);
    });
  }
});

describe("lists", () => {
  it("answer each role exactly the rows it may get, in statements that do not grow with the rows", async () => {
    const rows = [await article(authors.author, true), await article(authors.author, false), await article(authors.other, false)];
    for (const role of ROLES.filter((role) => role !== "anonymous")) {
      const as = client(role);
      const listed = await as.get("/articles?limit=100");
      expectStatus(listed, 200, `${role} lists`);
      const ids = new Set((listed.body as { items: { id: string }[] }).items.map((item) => item.id));
      // Every listed row is one the role may get, and every row it may get is listed.
      for (const id of ids) expectStatus(await as.get(`/articles/${id}`), 200, `${role} gets a listed row`);
      for (const id of rows) assert.equal(ids.has(id), (await as.get(`/articles/${id}`)).status === 200, `${role}: row ${id} listed exactly when get answers it`);
    }
    const before = await client("reader").get("/articles?limit=100");
    for (let i = 0; i < 20; i++) await article(i % 2 === 0 ? authors.author : authors.other, i % 3 === 0);
    for (const role of ["reader", "author", "editor"] as Role[]) {
      const first = await client(role).get("/articles?limit=100");
      const search = await client(role).post("/articles/search", { limit: 100 });
      expectStatus(search, 200, `${role} searches`);
      assert.deepEqual(
        new Set((search.body as { items: { id: string }[] }).items.map((item) => item.id)),
        new Set((first.body as { items: { id: string }[] }).items.map((item) => item.id)),
        `${role}: the search route shows what the list shows`,
      );
      assert.ok(first.statements > 0);
      assert.equal(first.statements, before.statements, `${role}: statements per list page stay ${before.statements}`);
    }
  });
});

describe("the generated code", () => {
  it("passes ruff and pyright", async () => {
    for (const result of await staticChecks) assert.ok(result.ok, result.output);
  });

  it("documents 403 on the routes that may answer it, and not on the others", async () => {
    const openapi = (await new JsonClient(server!.baseUrl).get("/openapi.json")).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    assert.ok("403" in openapi.paths["/articles"]!.post!.responses);
    assert.ok("403" in openapi.paths["/articles/{pk}"]!.patch!.responses);
    assert.ok("403" in openapi.paths["/articles/{pk}"]!.delete!.responses);
    assert.ok("403" in openapi.paths["/articles/{pk}"]!.get!.responses);
    assert.ok(!("403" in openapi.paths["/tags"]!.get!.responses));
  });
});
