/**
 * End-to-end: hooks and serializers of the blog generated from config/hooks.jsonnet (and one
 * more post hook, which fails, on categories), served by uvicorn against a real PostgreSQL.
 * The `pre` hook changes what article create and update store; the `post` hooks log committed
 * writes in a table of their own; a failing `post` hook leaves the write committed and the
 * client told so; the author card and the tag labels are what the routes answer.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonClient, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, serveBlog } from "./support/blog.js";
import { prepareHooksProject } from "./support/projects.js";

let venv: Venv;
let postgres: Postgres | undefined;
let projectDir: string | undefined;
let server: BlogServer | undefined;
let api: JsonClient;
let staticChecks: Promise<CheckResult[]>;

before(async () => {
  venv = await ensureVenv();
  [projectDir, postgres] = await Promise.all([prepareHooksProject(), startPostgres()]);
  // Collected in its own test; pyright: test/e2e/pyright.test.ts.
  staticChecks = Promise.all([ruffCheck(venv, projectDir, ["blog"])]);
  server = await serveBlog(projectDir, venv, postgres.asyncUrl);
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

async function author(): Promise<string> {
  const created = await api.post("/authors", { name: "Ada Lovelace", email: `ada-${randomUUID()}@example.com` });
  expectStatus(created, 201, "create author");
  return created.body.id;
}

async function storedWordCount(id: string): Promise<number> {
  const [row] = await postgres!.query("SELECT word_count FROM articles WHERE id = $1", [id]);
  return Number(row!.word_count);
}

async function activity(id: string): Promise<unknown[][]> {
  const rows = await postgres!.query("SELECT kind, summary FROM activity WHERE subject_id = $1 ORDER BY id", [id]);
  return rows.map((row) => [row.kind, row.summary]);
}

describe("hooks", () => {
  it("the generated routes calling the hooks pass ruff and pyright", async () => {
    for (const check of await staticChecks) assert.ok(check.ok, check.output);
  });

  it("pre changes what create and update store", async () => {
    const body = { title: "Engines", body: "On the analytical engine", word_count: 99, author_id: await author() };
    const created = await api.post("/articles", body);
    expectStatus(created, 201, "create article");
    assert.equal(created.body.word_count, 4, "the answer shows what was stored, not what was sent");
    assert.equal(await storedWordCount(created.body.id), 4);
    const changed = await api.patch(`/articles/${created.body.id}`, { body: "Notes by the translator", word_count: 1 });
    expectStatus(changed, 200, "update article");
    assert.equal(changed.body.word_count, 4);
    // Only the fields sent reach the hook: without a body, word_count is stored as sent.
    const retitled = await api.patch(`/articles/${created.body.id}`, { title: "Engines, again", word_count: 7 });
    expectStatus(retitled, 200, "update title");
    assert.equal(await storedWordCount(created.body.id), 7);
    assert.equal((await api.get(`/articles/${created.body.id}`)).body.word_count, 7);
  });

  it("post sees the committed row: create with its generated id, delete as it was", async () => {
    const title = `Notes ${randomUUID().slice(0, 8)}`;
    const created = await api.post("/articles", { title, body: "G", author_id: await author() });
    expectStatus(created, 201, "create article");
    const id = created.body.id;
    assert.deepEqual(await activity(id), [["article_created", title]]);
    expectStatus(await api.delete(`/articles/${id}`), 204, "delete article");
    assert.deepEqual(await activity(id), [
      ["article_created", title],
      ["article_deleted", title],
    ]);
    assert.deepEqual(await postgres!.query("SELECT id FROM articles WHERE id = $1", [id]), []);
    expectStatus(await api.delete(`/articles/${id}`), 404, "delete again");
    assert.equal((await activity(id)).length, 2, "a 404 runs no post hook");
  });

  it("a failing post hook leaves the write committed, answers its success and logs the error", async () => {
    const slug = `c-${randomUUID().slice(0, 8)}`;
    const created = await api.post("/categories", { slug, title: "Mechanics" });
    expectStatus(created, 201, "create category");
    assert.deepEqual(created.body, { slug, title: "Mechanics" });
    assert.equal((await postgres!.query("SELECT title FROM categories WHERE slug = $1", [slug])).length, 1);
    const logged = `post hook blog.flaky.explode failed; the write it followed is committed`;
    for (let tries = 0; tries < 50 && !server!.process.output().includes(`no announcement for ${slug}`); tries++) await sleep(20);
    const output = server!.process.output();
    assert.ok(output.includes(logged), output);
    assert.ok(output.includes(`RuntimeError: no announcement for ${slug}`), output);
  });

  it("a serializer's shape is the answer, and its schema the OpenAPI response", async () => {
    const id = await author();
    await api.post("/articles", { title: "One", body: "x", author_id: id });
    const card = await api.get(`/authors/${id}`);
    expectStatus(card, 200, "get author");
    assert.deepEqual(card.body, { id, name: "Ada Lovelace", article_count: 1 });
    const name = `gears-${randomUUID().slice(0, 8)}`;
    expectStatus(await api.post("/tags", { name }), 201, "create tag");
    const tags = await api.get("/tags?limit=100");
    expectStatus(tags, 200, "list tags");
    assert.ok(tags.body.items.includes(`#${name}`), JSON.stringify(tags.body));
    assert.ok(tags.body.items.every((item: unknown) => typeof item === "string"));
    const openapi = (await api.get("/openapi.json")).body;
    const answer = openapi.paths["/authors/{pk}"].get.responses["200"].content["application/json"].schema;
    assert.deepEqual(answer, { $ref: "#/components/schemas/AuthorCard" });
    assert.deepEqual(Object.keys(openapi.components.schemas.AuthorCard.properties), ["id", "name", "article_count"]);
  });
});
