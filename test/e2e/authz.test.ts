/**
 * End-to-end: authorization of the generated blog backend (examples/blog/config/authz.jsonnet)
 * over real HTTP, against a real PostgreSQL. A permission matrix — anonymous, reader, the
 * article's author, editor, admin × get, list, create, update, delete and publish — where
 * groups (the token's `roles` claim), the guard `blog.authz.can_change` and the visibility
 * rule `blog.authz.visible_articles` each decide part; lists answer exactly the rows `get`
 * answers, in a number of statements that does not grow with the rows. The attack matrix
 * (support/attack.ts): two writers, an editor and a reader never meet a row they may not
 * see on any read path, cannot change it, and cannot take over another writer's rows.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { attackMatrix } from "./support/attack.js";
import { BlogRoles, type Matrix, ROLES, expectConstantStatements, expectListIsGet, expectMatrix, expectPermissionsMatch, matrixReplies } from "./support/roles.js";

const SECRET = randomBytes(48).toString("base64url");

let venv: Venv;
let postgres: Postgres | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let staticChecks: Promise<CheckResult[]>;

const blog = new BlogRoles(() => server!.baseUrl, SECRET);

before(async () => {
  venv = await ensureVenv();
  dir = await prepareBlogProject("config/authz.jsonnet");
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = Promise.all([ruffCheck(venv, dir, ["blog"])]);
  postgres = await startPostgres();
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
  await blog.createAuthors();
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the permission matrix of articles", () => {
  // Expected statuses per route and role; each role works on rows of its own.
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
    "publish the author's draft": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
    "publish another author's draft": { anonymous: 401, reader: 403, author: 403, editor: 200, admin: 200 },
  };

  for (const role of ROLES) {
    it(`answers ${role} as the matrix says`, async () => {
      const replies = await matrixReplies(blog, role);
      expectMatrix(MATRIX, replies, role);
      expectPermissionsMatch(MATRIX, replies, role);
      const refused = replies["create"]!;
      if (role === "reader") assert.match((refused.body as { detail: string }).detail, /admin, editor, writer/);
    });
  }
});

describe("lists", () => {
  it("answer each role exactly the rows it may get, in statements that do not grow with the rows", async () => {
    const { authors } = blog;
    const rows = [await blog.article(authors.author, true), await blog.article(authors.author, false), await blog.article(authors.other, false)];
    for (const role of ROLES.filter((role) => role !== "anonymous")) await expectListIsGet(blog.client(role), rows, role);
    await expectConstantStatements(blog, await blog.client("reader").get("/articles?limit=100"), ["reader", "author", "editor"]);
  });
});

describe("the visibility attack matrix", () => {
  attackMatrix(blog);
});

describe("the generated code", () => {
  it("passes ruff", async () => {
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
