/**
 * End-to-end: the blog backend against a real PostgreSQL over real HTTP.
 *
 * One server for the whole suite. Tests create the rows they check (ids are random
 * UUIDs, names carry a unique suffix), so they do not depend on each other's data;
 * only the list tests look at whole tables, and they compare pages with each other.
 */
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let postgres: Postgres | undefined;
let server: BlogServer | undefined;
let projectDir: string | undefined;
let api: JsonClient;
let staticChecks: Promise<CheckResult>;

before(async () => {
  const venv = await ensureVenv();
  projectDir = await prepareBlogProject();
  // Collected in its own test; pyright: test/e2e/pyright.test.ts.
  staticChecks = ruffCheck(venv, projectDir, ["blog"]);
  postgres = await startPostgres();
  server = await serveBlog(projectDir, venv, postgres.asyncUrl);
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

/** A short random suffix keeping unique columns unique across tests. */
function unique(): string {
  return randomBytes(4).toString("hex");
}

async function created(path: string, body: unknown): Promise<Reply> {
  const reply = await api.post(path, body);
  expectStatus(reply, 201);
  return reply;
}

async function createAuthor(name = "Ada"): Promise<{ id: string; name: string; email: string }> {
  return (await created("/authors", { name, email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}-${unique()}@example.com` })).body;
}

async function createArticle(authorId: string, fields: Record<string, unknown> = {}) {
  return (await created("/articles", { title: `Title ${unique()}`, body: "one two three", author_id: authorId, ...fields }))
    .body;
}

async function createTag(name = `tag-${unique()}`): Promise<{ id: number; name: string }> {
  return (await created("/tags", { name })).body;
}

async function walk(path: string, limit: number): Promise<{ pages: number; ids: string[] }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${encodeURIComponent(cursor)}`;
    const page = await api.get(`${path}?${query}`);
    expectStatus(page, 200);
    assert.ok(page.body.items.length <= limit);
    ids.push(...page.body.items.map((item: { id: string }) => item.id));
    cursor = page.body.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { pages, ids };
}

describe("blog backend: CRUD", () => {
  it("creates an author: 201, a Location that resolves, and every field", async () => {
    const email = `grace-${unique()}@example.com`;
    const reply = await created("/authors", { name: "Grace", email });
    assert.match(reply.body.id, UUID);
    assert.equal(reply.body.name, "Grace");
    assert.equal(reply.body.email, email);
    assert.ok(Math.abs(Date.parse(reply.body.created_at) - Date.now()) < 60_000, reply.body.created_at);
    assert.deepEqual(reply.body.articles, []);
    const location = reply.headers.get("location");
    assert.equal(location, `${server!.baseUrl}/authors/${reply.body.id}`);

    const fetched = await api.get(location!);
    expectStatus(fetched, 200);
    assert.deepEqual(fetched.body, reply.body);
  });

  it("creates an article with a field of every type and reads each back", async () => {
    const author = await createAuthor();
    const sent = {
      title: "Types",
      body: "All the field types.",
      published: true,
      published_at: "2024-02-29T12:30:00Z",
      publish_on: "2024-03-01",
      word_count: 4,
      rating: 4.25,
      extra: { source: "import", flags: [1, 2], nested: { ok: true } },
      author_id: author.id,
    };
    const reply = await created("/articles", sent);
    assert.equal(reply.headers.get("location"), `${server!.baseUrl}/articles/${reply.body.id}`);
    const fetched = await api.get(`/articles/${reply.body.id}`);
    expectStatus(fetched, 200);
    for (const article of [reply.body, fetched.body]) {
      assert.match(article.id, UUID);
      assert.equal(article.title, "Types");
      assert.equal(article.body, "All the field types.");
      assert.equal(article.published, true);
      assert.equal(Date.parse(article.published_at), Date.parse(sent.published_at));
      assert.equal(article.publish_on, "2024-03-01");
      assert.equal(article.word_count, 4);
      assert.equal(article.rating, 4.25);
      assert.deepEqual(article.extra, sent.extra);
      assert.equal(article.author_id, author.id);
    }
  });

  it("applies create defaults for the fields left out", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    assert.equal(article.published, false);
    assert.equal(article.published_at, null);
    assert.equal(article.publish_on, null);
    assert.equal(article.word_count, 0);
    assert.equal(article.rating, null);
    assert.deepEqual(article.extra, {});
  });

  it("updates only the fields sent", async () => {
    const author = await createAuthor("Linus");
    const renamed = await api.patch(`/authors/${author.id}`, { name: "Linus T." });
    expectStatus(renamed, 200);
    assert.equal(renamed.body.name, "Linus T.");
    assert.equal(renamed.body.email, author.email);

    const article = await createArticle(author.id, { rating: 3.5, publish_on: "2030-01-01", extra: { a: 1 } });
    const updated = await api.patch(`/articles/${article.id}`, { rating: null, word_count: 12 });
    expectStatus(updated, 200);
    assert.equal(updated.body.rating, null);
    assert.equal(updated.body.word_count, 12);
    for (const field of ["title", "body", "published", "published_at", "publish_on", "extra", "author_id"]) {
      assert.deepEqual(updated.body[field], article[field], field);
    }
    const fetched = await api.get(`/articles/${article.id}`);
    assert.deepEqual(fetched.body, updated.body);

    const unchanged = await api.patch(`/articles/${article.id}`, {});
    expectStatus(unchanged, 200);
    assert.deepEqual(unchanged.body, updated.body);
  });

  it("deletes: 204 with no body, then 404 for get, update and delete", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const deleted = await api.delete(`/articles/${article.id}`);
    expectStatus(deleted, 204);
    assert.equal(deleted.body, undefined);
    expectStatus(await api.get(`/articles/${article.id}`), 404);
    expectStatus(await api.patch(`/articles/${article.id}`, { title: "x" }), 404);
    expectStatus(await api.delete(`/articles/${article.id}`), 404);
  });

  it("deleting an article deletes its comments and tag links, not the tags", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const tag = await createTag();
    expectStatus(await api.post(`/articles/${article.id}/tag-article`, { tag_id: tag.id }), 200);
    const comment = (await created("/comments", { body: "Bye", article_id: article.id, author_id: author.id })).body;
    // The link table has no route of its own: read it in the database.
    const links = () => postgres!.query("SELECT tag_id FROM article_tags WHERE article_id = $1", [article.id]);
    assert.deepEqual(await links(), [{ tag_id: tag.id }]);
    expectStatus(await api.delete(`/articles/${article.id}`), 204);
    expectStatus(await api.get(`/comments/${comment.id}`), 404);
    assert.deepEqual(await links(), [], "the article's tag links outlived it");
    expectStatus(await api.get(`/tags/${tag.id}`), 200);
  });

  it("sets an article's tags from their keys: create links them, update replaces the set, an unknown key is a 422 at its place", async () => {
    const author = await createAuthor();
    const [a, b, c] = [await createTag(), await createTag(), await createTag()];
    const link = (tag: { id: number; name: string }) => ({ type: "tag", id: tag.id, label: tag.name });
    const byName = (...tags: { id: number; name: string }[]) => tags.sort((x, y) => x.name.localeCompare(y.name)).map(link);
    const links = async (id: string) => (await postgres!.query("SELECT tag_id FROM article_tags WHERE article_id = $1 ORDER BY tag_id", [id])).map((row) => row.tag_id);

    // A key sent twice links its tag once; the answer lists the tags as get does (by name).
    const article = await createArticle(author.id, { tags: [b.id, a.id, b.id] });
    assert.deepEqual(article.tags, byName(a, b));
    assert.deepEqual(await links(article.id), [a.id, b.id].sort((x, y) => x - y));
    // The list is the new set; a change that leaves tags out keeps them.
    const replaced = await api.patch(`/articles/${article.id}`, { tags: [c.id, a.id] });
    expectStatus(replaced, 200);
    assert.deepEqual(replaced.body.tags, byName(a, c));
    const renamed = await api.patch(`/articles/${article.id}`, { title: "Tagged" });
    assert.deepEqual(renamed.body.tags, byName(a, c));
    assert.deepEqual((await api.get(`/articles/${article.id}`)).body, renamed.body);

    // A key no tag has is a 422 at its place in the list, and changes nothing (the title neither).
    const missing = 2 ** 31 - 1;
    const refused = await api.patch(`/articles/${article.id}`, { title: "Lost", tags: [b.id, missing] });
    expectStatus(refused, 422);
    assert.deepEqual(
      refused.body.detail.map((error: { loc: unknown[]; input: unknown }) => [error.loc, error.input]),
      [[["body", "tags", 1], missing]],
    );
    assert.deepEqual((await api.get(`/articles/${article.id}`)).body, renamed.body);
    const notCreated = await api.post("/articles", { title: `Never ${unique()}`, body: "x", author_id: author.id, tags: [missing] });
    expectStatus(notCreated, 422);
    assert.deepEqual(notCreated.body.detail[0].loc, ["body", "tags", 0]);
    // Keys are checked as the tag's key column: not a number, or past its range, before any query.
    for (const tags of [["1"], [2 ** 31], 1, null]) {
      expectStatus(await api.patch(`/articles/${article.id}`, { tags }), 422);
    }

    // An empty list unlinks every tag; the tags stay.
    const cleared = await api.patch(`/articles/${article.id}`, { tags: [] });
    assert.deepEqual(cleared.body.tags, []);
    assert.deepEqual(await links(article.id), []);
    expectStatus(await api.get(`/tags/${a.id}`), 200);
  });

  it("serves tags by an int primary key", async () => {
    const tag = await createTag("python");
    assert.equal(typeof tag.id, "number");
    const reply = await api.get(`/tags/${tag.id}`);
    expectStatus(reply, 200);
    assert.deepEqual(reply.body, { id: tag.id, name: "python" });
    const renamed = await api.patch(`/tags/${tag.id}`, { name: "python3" });
    assert.deepEqual(renamed.body, { id: tag.id, name: "python3" });
    expectStatus(await api.delete(`/tags/${tag.id}`), 204);
    expectStatus(await api.get(`/tags/${tag.id}`), 404);
    // Key routes match only segments shaped like a key: this is no tag's URL.
    expectStatus(await api.get("/tags/not-a-number"), 404);
    expectStatus(await api.get(`/tags/${2 ** 31}`), 422);
  });

  it("serves categories by a str primary key", async () => {
    const slug = `news-${unique()}`;
    const reply = await created("/categories", { slug, title: "News" });
    assert.deepEqual(reply.body, { slug, title: "News" });
    assert.equal(reply.headers.get("location"), `${server!.baseUrl}/categories/${slug}`);
    const renamed = await api.patch(`/categories/${slug}`, { title: "Latest news" });
    assert.deepEqual(renamed.body, { slug, title: "Latest news" });
    assert.deepEqual((await api.get(`/categories/${slug}`)).body, { slug, title: "Latest news" });
    expectStatus(await api.delete(`/categories/${slug}`), 204);
    const missing = await api.get(`/categories/${slug}`);
    expectStatus(missing, 404);
    assert.equal(missing.body.detail, `Category with slug '${slug}' not found`);
  });

  it("serves comments", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const reply = await created("/comments", { body: "Nice", article_id: article.id, author_id: author.id });
    assert.match(reply.body.id, UUID);
    assert.equal(reply.body.body, "Nice");
    assert.equal(reply.body.article_id, article.id);
    assert.equal(reply.body.author_id, author.id);
    assert.ok(!Number.isNaN(Date.parse(reply.body.created_at)));
    const edited = await api.patch(`/comments/${reply.body.id}`, { body: "Very nice" });
    assert.deepEqual(edited.body, { ...reply.body, body: "Very nice" });
    expectStatus(await api.delete(`/comments/${reply.body.id}`), 204);
  });

  it("replays a create or an action retried with the same Idempotency-Key, changing nothing", async () => {
    const keyed = api.with({ "Idempotency-Key": `retry-${unique()}` });
    const name = `tag-${unique()}`;
    const first = await keyed.post("/tags", { name });
    const again = await keyed.post("/tags", { name });
    expectStatus(first, 201);
    expectStatus(again, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get("location"), first.headers.get("location"));
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    const rows = await postgres!.query("SELECT count(*)::int AS n FROM tags WHERE name = $1", [name]);
    assert.equal(rows[0]!.n, 1);
    // The same key for another body conflicts; the same key on another route is another key.
    const reused = await keyed.post("/tags", { name: `${name}-other` });
    expectStatus(reused, 409);
    // The body of every 409 (runtime/responses.py's ConflictBody), with no constraint to name.
    assert.deepEqual(reused.body, { detail: "This Idempotency-Key was used for a request with another body.", constraint: null });
    expectStatus(await keyed.post("/categories", { slug: `s-${unique()}`, title: "T" }), 201);
    const article = await createArticle((await createAuthor()).id);
    const publish = api.with({ "Idempotency-Key": `publish-${unique()}` });
    const published = await publish.post(`/articles/${article.id}/publish-article`);
    expectStatus(published, 200);
    assert.deepEqual((await publish.post(`/articles/${article.id}/publish-article`)).body, published.body);
  });
});

describe("blog backend: errors", () => {
  it("answers 404 naming the model and the key, for every operation on a missing pk", async () => {
    const pk = randomUUID();
    const replies = [
      await api.get(`/articles/${pk}`),
      await api.patch(`/articles/${pk}`, { title: "x" }),
      await api.delete(`/articles/${pk}`),
      await api.post(`/articles/${pk}/publish-article`),
      await api.post(`/articles/${pk}/schedule-article`, { publish_on: "2030-01-01" }),
    ];
    for (const reply of replies) {
      expectStatus(reply, 404);
      assert.deepEqual(reply.body, { detail: `Article with id ${pk} not found` });
    }
    const tag = await api.get("/tags/987654321");
    expectStatus(tag, 404);
    assert.deepEqual(tag.body, { detail: "Tag with id 987654321 not found" });
    expectStatus(await api.get(`/authors/${pk}`), 404);
    expectStatus(await api.get(`/comments/${pk}`), 404);
  });

  it("answers 409 naming the constraint on a unique violation", async () => {
    const author = await createAuthor();
    const duplicate = await api.post("/authors", { name: "Copy", email: author.email });
    expectStatus(duplicate, 409);
    assert.equal(duplicate.body.constraint, "uq_authors_email");
    assert.equal(typeof duplicate.body.detail, "string");

    const other = await createAuthor();
    const clash = await api.patch(`/authors/${other.id}`, { email: author.email });
    expectStatus(clash, 409);
    assert.equal(clash.body.constraint, "uq_authors_email");

    const tag = await createTag();
    const tagClash = await api.post("/tags", { name: tag.name });
    expectStatus(tagClash, 409);
    assert.equal(tagClash.body.constraint, "uq_tags_name");

    const slug = `dup-${unique()}`;
    await created("/categories", { slug, title: "One" });
    const slugClash = await api.post("/categories", { slug, title: "Two" });
    expectStatus(slugClash, 409);
    assert.equal(slugClash.body.constraint, "pk_categories");
  });

  it("answers 409 naming the constraint on a foreign-key violation", async () => {
    const orphan = await api.post("/articles", { title: "Orphan", body: "x", author_id: randomUUID() });
    expectStatus(orphan, 409);
    assert.equal(orphan.body.constraint, "fk_articles_author_id_authors");

    const author = await createAuthor();
    const article = await createArticle(author.id);
    const comment = await api.post("/comments", { body: "?", article_id: randomUUID(), author_id: author.id });
    expectStatus(comment, 409);
    assert.equal(comment.body.constraint, "fk_comments_article_id_articles");

    const moved = await api.patch(`/articles/${article.id}`, { author_id: randomUUID() });
    expectStatus(moved, 409);
    assert.equal(moved.body.constraint, "fk_articles_author_id_authors");

    const stillReferenced = await api.delete(`/authors/${author.id}`);
    expectStatus(stillReferenced, 409);
    assert.equal(stillReferenced.body.constraint, "fk_articles_author_id_authors");
    expectStatus(await api.get(`/authors/${author.id}`), 200);
  });

  it("answers 422 for bad bodies and bad path params (404 for a segment that is no key)", async () => {
    const badEmail = await api.post("/authors", { name: "Bad", email: "not-an-email" });
    expectStatus(badEmail, 422);
    assert.deepEqual(badEmail.body.detail[0].loc, ["body", "email"]);

    const missing = await api.post("/authors", { email: `x-${unique()}@example.com` });
    expectStatus(missing, 422);
    assert.deepEqual(missing.body.detail[0].loc, ["body", "name"]);
    assert.equal(missing.body.detail[0].type, "missing");

    const author = await createAuthor();
    const badType = await api.post("/articles", { title: "t", body: "b", author_id: author.id, word_count: "many" });
    expectStatus(badType, 422);
    assert.deepEqual(badType.body.detail[0].loc, ["body", "word_count"]);

    const nulled = await api.patch(`/authors/${author.id}`, { name: null });
    expectStatus(nulled, 422);
    assert.deepEqual(nulled.body.detail[0].loc, ["body", "name"]);
    assert.equal((await api.get(`/authors/${author.id}`)).body.name, author.name);

    expectStatus(await api.get("/articles/not-a-uuid"), 404);
  });
});

describe("blog backend: actions", () => {
  it("runs a sync instance action without params (publish-article)", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const reply = await api.post(`/articles/${article.id}/publish-article`);
    expectStatus(reply, 200);
    assert.equal(reply.body.id, article.id);
    assert.equal(reply.body.published, true);
    assert.equal(reply.body.status, "published", "the action moves the status (article.status was draft)");
    assert.equal(article.status, "draft");
    assert.ok(Math.abs(Date.parse(reply.body.published_at) - Date.now()) < 60_000, reply.body.published_at);
    assert.equal(reply.body.author.id, author.id);
    assert.deepEqual((await api.get(`/articles/${article.id}`)).body, reply.body);
  });

  it("runs an async instance action with typed params (schedule-article)", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id, { extra: { kept: true } });
    const reply = await api.post(`/articles/${article.id}/schedule-article`, {
      publish_on: "2031-05-06",
      note: "after review",
    });
    expectStatus(reply, 200);
    assert.equal(reply.body.publish_on, "2031-05-06");
    assert.deepEqual(reply.body.extra, { kept: true, schedule_note: "after review" });
    assert.equal(reply.body.published, false);

    const withoutNote = await api.post(`/articles/${article.id}/schedule-article`, { publish_on: "2031-06-07" });
    expectStatus(withoutNote, 200);
    assert.equal(withoutNote.body.publish_on, "2031-06-07");
    assert.deepEqual(withoutNote.body.extra, { kept: true, schedule_note: "after review" });
  });

  it("rejects action params of the wrong type with 422 and changes nothing", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const badDate = await api.post(`/articles/${article.id}/schedule-article`, { publish_on: "someday" });
    expectStatus(badDate, 422);
    assert.deepEqual(badDate.body.detail[0].loc, ["body", "publish_on"]);
    expectStatus(await api.post(`/articles/${article.id}/schedule-article`, {}), 422);
    expectStatus(await api.post(`/articles/${article.id}/tag-article`, { tag_id: "first" }), 422);
    expectStatus(await api.post("/articles/archive-stale-articles", { before: "yesterday-ish" }), 422);
    assert.equal((await api.get(`/articles/${article.id}`)).body.publish_on, null);
  });

  it("answers 409 when an action violates a constraint, and rolls it back", async () => {
    const author = await createAuthor();
    const article = await createArticle(author.id);
    const tag = await createTag();
    expectStatus(await api.post(`/articles/${article.id}/tag-article`, { tag_id: tag.id }), 200);
    const again = await api.post(`/articles/${article.id}/tag-article`, { tag_id: tag.id });
    expectStatus(again, 409);
    assert.equal(again.body.constraint, "pk_article_tags");
    const unknown = await api.post(`/articles/${article.id}/tag-article`, { tag_id: 987654321 });
    expectStatus(unknown, 409);
    assert.equal(unknown.body.constraint, "fk_article_tags_tag_id_tags");
    assert.deepEqual((await api.get(`/articles/${article.id}`)).body.tags, [{ type: "tag", id: tag.id, label: tag.name }]);
  });

  it("runs an async collection action and answers with its return value (archive-stale-articles)", async () => {
    const author = await createAuthor();
    const old = [
      await createArticle(author.id, { published: true, published_at: "1999-01-01T00:00:00Z" }),
      await createArticle(author.id, { published: true, published_at: "1999-12-31T23:59:59Z" }),
    ];
    const newer = await createArticle(author.id, { published: true, published_at: "2000-06-01T00:00:00Z" });
    const reply = await api.post("/articles/archive-stale-articles", { before: "2000-01-01T00:00:00Z" });
    expectStatus(reply, 200);
    assert.deepEqual(reply.body, { archived: 2 });
    for (const article of old) {
      const { body } = await api.get(`/articles/${article.id}`);
      assert.deepEqual([body.published, body.status], [false, "archived"]);
    }
    const kept = (await api.get(`/articles/${newer.id}`)).body;
    assert.deepEqual([kept.published, kept.status], [true, "draft"]);
    // The status filters the list like any enum, several values at once; a value it does not know is a 422.
    const archived = await api.get(`/articles?author_id=${author.id}&status__in=archived,published&limit=10`);
    expectStatus(archived, 200);
    assert.deepEqual(archived.body.items.map((item: { id: string }) => item.id).sort(), old.map((article) => article.id).sort());
    expectStatus(await api.get("/articles?status=retired"), 422);
  });

  it("runs a sync collection action (count-words)", async () => {
    const reply = await api.post("/articles/count-words", { text: "  the quick\tbrown fox " });
    expectStatus(reply, 200);
    assert.deepEqual(reply.body, { words: 4 });
    expectStatus(await api.post("/articles/count-words", {}), 422);
  });
});

describe("blog backend: nested reads", () => {
  it("get nests the joined author, selectin tags, and selectin comments with their joined authors", async () => {
    const writer = await createAuthor("Writer");
    const readerA = await createAuthor("Reader A");
    const readerB = await createAuthor("Reader B");
    const article = await createArticle(writer.id);
    const zeta = await createTag(`zeta-${unique()}`);
    const alpha = await createTag(`alpha-${unique()}`);
    for (const tag of [zeta, alpha]) {
      expectStatus(await api.post(`/articles/${article.id}/tag-article`, { tag_id: tag.id }), 200);
    }
    const first = (await created("/comments", { body: "First!", article_id: article.id, author_id: readerA.id })).body;
    const second = (await created("/comments", { body: "Second", article_id: article.id, author_id: readerB.id })).body;

    const reply = await api.get(`/articles/${article.id}`);
    expectStatus(reply, 200);
    assert.deepEqual(reply.body.author, { id: writer.id, name: "Writer" });
    assert.deepEqual(reply.body.tags, [
      { type: "tag", id: alpha.id, label: alpha.name },
      { type: "tag", id: zeta.id, label: zeta.name },
    ]);
    assert.deepEqual(reply.body.comments, [
      { id: first.id, body: "First!", author: { id: readerA.id, name: "Reader A" } },
      { id: second.id, body: "Second", author: { id: readerB.id, name: "Reader B" } },
    ]);
    // joined author + one SELECT per selectin level (tags; comments with their joined authors).
    assert.equal(reply.statements, 3);
  });

  it("get nests the subquery-loaded articles of an author", async () => {
    const author = await createAuthor();
    const b = await createArticle(author.id, { title: `B ${unique()}` });
    const a = await createArticle(author.id, { title: `A ${unique()}` });
    const reply = await api.get(`/authors/${author.id}`);
    expectStatus(reply, 200);
    assert.deepEqual(reply.body.articles, [
      { id: a.id, title: a.title },
      { id: b.id, title: b.title },
    ]);
    assert.equal(reply.statements, 2);
  });

  it("the article list answers with the summary representation, get with the full one", async () => {
    const author = await createAuthor("Summary");
    const article = await createArticle(author.id, { rating: 4.5 });
    const full = (await api.get(`/articles/${article.id}`)).body;
    const listed = await api.get(`/articles?id=${article.id}`);
    expectStatus(listed, 200);
    assert.deepEqual(listed.body.items, [
      {
        id: article.id,
        title: full.title,
        published: false,
        status: "draft",
        published_at: null,
        rating: 4.5,
        word_count: full.word_count,
        author: { type: "author", id: author.id, label: "Summary" },
      },
    ]);
  });

  it("the author list carries the same nested data as get", async () => {
    const author = await createAuthor();
    await createArticle(author.id);

    const authors = await api.get("/authors?limit=100");
    const listedAuthor = authors.body.items.find((item: { id: string }) => item.id === author.id);
    assert.deepEqual(listedAuthor, (await api.get(`/authors/${author.id}`)).body);
  });
});

describe("blog backend: lists", () => {
  let seeded: string[] = [];

  before(async () => {
    // At least 50 articles, spread over three authors, with tags and comments, so
    // that every loader of the nested article list has rows to load.
    const authors = [await createAuthor("Pager"), await createAuthor("Pager"), await createAuthor("Pager")];
    const tags = [await createTag(), await createTag()];
    for (let i = 0; i < 5; i++) await created("/categories", { slug: `page-${i}-${unique()}`, title: `Page ${i}` });
    seeded = [];
    for (let i = 0; i < 54; i++) {
      const author = authors[i % authors.length];
      const article = await createArticle(author.id, { word_count: i });
      seeded.push(article.id);
      if (i % 3 === 0) await api.post(`/articles/${article.id}/tag-article`, { tag_id: tags[i % 2].id });
      if (i % 4 === 0) await created("/comments", { body: `c${i}`, article_id: article.id, author_id: author.id });
    }
  });

  it("walks every row once, in the default order (newest published first, then id), with limit and cursor", async () => {
    const full = await api.get("/articles?limit=100");
    expectStatus(full, 200);
    assert.equal(full.body.next_cursor, null, "the suite must stay under 100 articles for this test");
    const all: string[] = full.body.items.map((item: { id: string }) => item.id);
    const expected = [...full.body.items]
      .sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : -1))
      .sort((a: { published_at: string | null }, b: { published_at: string | null }) => {
        // Descending, NULLs first (as PostgreSQL sorts DESC).
        if (a.published_at === b.published_at) return 0;
        if (a.published_at === null) return -1;
        if (b.published_at === null) return 1;
        return Date.parse(b.published_at) - Date.parse(a.published_at);
      })
      .map((item: { id: string }) => item.id);
    assert.deepEqual(all, expected, "ordered by -published_at, then -id");
    for (const id of seeded) assert.ok(all.includes(id), id);

    const walked = await walk("/articles", 7);
    assert.deepEqual(walked.ids, all);
    assert.equal(walked.pages, Math.ceil(all.length / 7));

    const exact = await walk("/articles", all.length);
    assert.equal(exact.pages, 1, "a page that ends exactly at the last row has no next cursor");
  });

  it("pages subquery-loaded nested collections correctly", async () => {
    const full = await api.get("/authors?limit=100");
    assert.equal(full.body.next_cursor, null, "the suite must stay under 100 authors for this test");
    const walked: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: Reply = await api.get(`/authors?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      walked.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(walked, full.body.items);
  });

  it("walks tags by name with cursors, and categories by title with offsets", async () => {
    const full = await api.get("/tags?limit=100");
    const names = full.body.items.map((item: { name: string }) => item.name);
    assert.deepEqual(names, [...names].sort(), "tags by name");
    const walked: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: Reply = await api.get(`/tags?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      walked.push(...page.body.items.map((item: { name: string }) => item.name));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    assert.ok(names.length > 3);
    assert.deepEqual(walked, names);

    const all = await api.get("/categories?limit=50&total=true");
    expectStatus(all, 200);
    const titles: string[] = all.body.items.map((item: { title: string }) => item.title);
    assert.equal(all.body.total, titles.length);
    const paged: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: Reply = await api.get(`/categories?limit=2&offset=${offset}`);
      paged.push(...page.body.items.map((item: { title: string }) => item.title));
      offset = page.body.next_offset;
    }
    assert.deepEqual(paged, titles);
  });

  it("validates limit and cursor", async () => {
    expectStatus(await api.get("/articles?limit=0"), 422);
    expectStatus(await api.get("/articles?limit=101"), 422);
    const badCursor = await api.get("/articles?cursor=bm90LWpzb24");
    expectStatus(badCursor, 422);
    assert.deepEqual(badCursor.body.detail[0].loc, ["query", "cursor"]);
    const page = await api.get("/articles");
    expectStatus(page, 200);
    assert.equal(page.body.items.length, 20, "default page size");
  });

  it("runs the same number of statements for limit=1 and limit=50 of the nested article list", async () => {
    const one = await api.get("/articles?limit=1");
    const fifty = await api.get("/articles?limit=50");
    expectStatus(one, 200);
    expectStatus(fifty, 200);
    assert.equal(fifty.body.items.length, 50);
    // The summary shows the author as a link: loaded by the same joined query.
    assert.equal(one.statements, 1);
    assert.equal(fifty.statements, one.statements);

    const authorsOne = await api.get("/authors?limit=1");
    const authorsMany = await api.get("/authors?limit=50");
    assert.equal(authorsOne.statements, 2);
    assert.equal(authorsMany.statements, authorsOne.statements);
  });
});

describe("blog backend: queries", () => {
  it("filters articles by author, and refuses a filter it does not know", async () => {
    const [ada, bob] = [await createAuthor("Ada Query"), await createAuthor("Bob Query")];
    const mine = [await createArticle(ada.id), await createArticle(ada.id)];
    await createArticle(bob.id);
    const reply = await api.get(`/articles?author_id=${ada.id}`);
    expectStatus(reply, 200);
    assert.deepEqual(reply.body.items.map((item: { id: string }) => item.id).sort(), mine.map((item) => item.id).sort());
    const both = await api.get(`/articles?author_id__in=${ada.id},${bob.id}&limit=100`);
    assert.equal(both.body.items.length, 3);
    const unknown = await api.get(`/articles?writer_id=${ada.id}`);
    expectStatus(unknown, 422);
    assert.deepEqual(unknown.body.detail[0].loc, ["query", "writer_id"]);
  });

  it("filters comments by article, and searches them with an and/or tree", async () => {
    const author = await createAuthor();
    const [first, second] = [await createArticle(author.id), await createArticle(author.id)];
    const comment = (await created("/comments", { body: "On the first", article_id: first.id, author_id: author.id })).body;
    await created("/comments", { body: "On the second", article_id: second.id, author_id: author.id });
    const listed = await api.get(`/comments?article_id=${first.id}`);
    assert.deepEqual(listed.body.items.map((item: { id: string }) => item.id), [comment.id]);
    assert.deepEqual(listed.body.items[0].author, { type: "author", id: author.id, label: author.name });
    const tree = { or: [{ field: "article_id", op: "eq", value: first.id }, { field: "article_id", op: "eq", value: second.id }] };
    const searched = await api.post("/comments/search", { filter: tree, limit: 100 });
    expectStatus(searched, 200);
    assert.equal(searched.body.items.length, 2);
  });

  it("orders articles by a declared field and ranks ?q= by full-text relevance", async () => {
    const author = await createAuthor();
    const token = unique();
    const best = await createArticle(author.id, { title: `Gardening ${token}`, body: `Gardening tips: gardening in spring, ${token}` });
    const other = await createArticle(author.id, { title: `Cooking ${token}`, body: `A note on gardening, ${token}` });
    const ranked = await api.get(`/articles?q=${encodeURIComponent(`gardening ${token}`)}`);
    expectStatus(ranked, 200);
    assert.deepEqual(ranked.body.items.map((item: { id: string }) => item.id), [best.id, other.id]);
    const byRating = await api.get("/articles?order_by=-rating,title&limit=100");
    expectStatus(byRating, 200);
    const ratings = byRating.body.items.map((item: { rating: number | null }) => item.rating).filter((rating: number | null) => rating !== null);
    assert.deepEqual(ratings, [...ratings].sort((a, b) => b - a));
    expectStatus(await api.get("/articles?order_by=body"), 422);
  });

  it("describes its filters at /_filters and offers values at /_values", async () => {
    const filters = await api.get("/_filters");
    expectStatus(filters, 200);
    const lists = filters.body.lists.map((entry: { resource: string; path: string }) => [entry.resource, entry.path]);
    assert.deepEqual(lists, [
      ["article", "/articles"],
      ["comment", "/comments"],
    ]);
    const author = await createAuthor(`Zelda ${unique()}`);
    const values = await api.post("/_values", { resource: "article", field: "author_id", q: author.name });
    expectStatus(values, 200);
    assert.deepEqual(values.body.values[0], { value: author.id, label: author.name });
  });
});

describe("blog backend: static checks", () => {
  it("passes ruff check", async () => {
    const ruff = await staticChecks;
    assert.ok(ruff.ok, `ruff check failed:\n${ruff.output}`);
  });
});
