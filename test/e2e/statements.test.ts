/**
 * SQL statements per request, for every shape of generated route: the blog backend
 * against a real PostgreSQL, counted by the test launcher (test/e2e/support/serve.py: a
 * SQLAlchemy `before_cursor_execute` listener, answered in `X-SQL-Statements`).
 *
 * Each read that nests rows is asked for few and for many of them (2 and 20 comments, tags,
 * articles, list rows) and must send as many statements for both: nested rows are loaded
 * per level, never per row. Every shape also has a budget, the statements docs/be.md
 * explains: a change that adds a statement to a route fails here until the docs say why.
 * The app reaches PostgreSQL through a relay counting its writes, so the round trips of a
 * get are counted as well.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { type Server, type Socket, connect, createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";

let postgres: Postgres | undefined;
let server: BlogServer | undefined;
let projectDir: string | undefined;
let api: JsonClient;
let relay: Relay | undefined;

/** How long the relay may take to listen, and to reach PostgreSQL for one of the app's connections. */
const RELAY_LISTEN_TIMEOUT_MS = 5000;
const RELAY_CONNECT_TIMEOUT_MS = 10_000;

interface Relay {
  server: Server;
  sockets: Set<Socket>;
  /** The app's writes so far. */
  writes: number;
  /** What went wrong on the relay's connections, for failure messages. */
  errors: string[];
}

/**
 * A TCP relay between the app and PostgreSQL counting the app's writes: asyncpg sends each
 * round trip's messages in one write and waits for the answer, so on a quiet loopback
 * the writes a request adds are its round trips.
 */
async function startRelay(databaseUrl: string): Promise<{ url: string }> {
  const target = new URL(databaseUrl);
  const [host, port] = [target.hostname, Number(target.port)];
  const state: Relay = { server: createServer(), sockets: new Set<Socket>(), writes: 0, errors: [] };
  state.server.on("connection", (app) => {
    const database = connect(port, host);
    // Until it connects: a database that never answers closes the app's connection too.
    database.setTimeout(RELAY_CONNECT_TIMEOUT_MS, () => {
      state.errors.push(`PostgreSQL at ${host}:${port} did not accept within ${RELAY_CONNECT_TIMEOUT_MS} ms`);
      database.destroy();
    });
    database.once("connect", () => database.setTimeout(0));
    for (const socket of [app, database]) {
      state.sockets.add(socket);
      socket.on("close", () => state.sockets.delete(socket));
      socket.on("error", (error) => state.errors.push(`${socket === app ? "app" : "database"} side: ${error.message}`));
    }
    app.on("data", (chunk) => {
      state.writes += 1;
      database.write(chunk);
    });
    database.on("data", (chunk) => app.write(chunk));
    app.on("close", () => database.destroy());
    database.on("close", () => app.destroy());
  });
  await new Promise<void>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`the relay did not listen within ${RELAY_LISTEN_TIMEOUT_MS} ms`)), RELAY_LISTEN_TIMEOUT_MS);
    state.server.once("error", (error) => (clearTimeout(timer), failed(error)));
    state.server.listen(0, "127.0.0.1", () => (clearTimeout(timer), listening()));
  });
  relay = state;
  const address = state.server.address();
  assert.ok(address !== null && typeof address === "object");
  target.port = String(address.port);
  return { url: target.toString() };
}

before(async () => {
  const venv = await ensureVenv();
  projectDir = await prepareBlogProject();
  postgres = await startPostgres();
  const relayed = await startRelay(postgres.asyncUrl);
  server = await serveBlog(projectDir, venv, relayed.url);
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  relay?.sockets.forEach((socket) => socket.destroy());
  relay?.server.close();
  await postgres?.stop();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

function unique(): string {
  return randomBytes(4).toString("hex");
}

/** The server's output and the relay's errors, for a request that failed. */
function diagnostics(): string {
  return `\nserver output:\n${server?.process.output() ?? ""}\nrelay errors: ${relay?.errors.join("; ") || "none"}`;
}

async function ok(reply: Promise<Reply>, status: number, what: string): Promise<Reply> {
  let answered: Reply;
  try {
    answered = await reply;
    expectStatus(answered, status, what);
  } catch (error) {
    throw new Error(`${String(error)}${diagnostics()}`, { cause: error });
  }
  assert.ok(answered.statements >= 0, `${what}: the launcher counts statements`);
  return answered;
}

async function author(name = `Author ${unique()}`): Promise<string> {
  return (await ok(api.post("/authors", { name, email: `a-${unique()}@example.com` }), 201, "create author")).body.id;
}

async function article(authorId: string): Promise<string> {
  return (await ok(api.post("/articles", { title: `Title ${unique()}`, body: "one two three", author_id: authorId }), 201, "create article")).body
    .id;
}

/** An article by its own author with `count` tags and `count` comments (each by another author). */
async function articleWith(count: number): Promise<{ articleId: string; authorId: string }> {
  const authorId = await author();
  const articleId = await article(authorId);
  for (let index = 0; index < count; index++) {
    const tag = (await ok(api.post("/tags", { name: `tag-${unique()}` }), 201, "create tag")).body.id;
    await ok(api.post(`/articles/${articleId}/tag-article`, { tag_id: tag }), 200, "tag article");
    await ok(api.post("/comments", { body: `Comment ${index}`, article_id: articleId, author_id: await author() }), 201, "create comment");
  }
  return { articleId, authorId };
}

/** An author with `count` articles. */
async function authorWith(count: number): Promise<string> {
  const authorId = await author();
  for (let index = 0; index < count; index++) await article(authorId);
  return authorId;
}

/** Statements per request of each shape, printed at the end as the table docs/be.md shows. */
const counted = new Map<string, number>();

/** Asks `path` of a few and of many rows; both must send the same statements, within `budget`. */
function sameForFewAndMany(shape: string, few: Reply, many: Reply, budget: number): void {
  assert.equal(many.statements, few.statements, `${shape}: ${few.statements} statements for few rows, ${many.statements} for many`);
  assert.ok(few.statements <= budget, `${shape}: ${few.statements} statements, more than the ${budget} docs/be.md explains`);
  counted.set(shape, few.statements);
}

function within(shape: string, reply: Reply, budget: number): void {
  assert.ok(reply.statements <= budget, `${shape}: ${reply.statements} statements, more than the ${budget} docs/be.md explains`);
  counted.set(shape, reply.statements);
}

describe("statements per request, by route shape", () => {
  let few: { articleId: string; authorId: string };
  let many: { articleId: string; authorId: string };
  let fewAuthor: string;
  let manyAuthor: string;

  before(async () => {
    few = await articleWith(2);
    many = await articleWith(20);
    fewAuthor = await authorWith(2);
    manyAuthor = await authorWith(20);
    // The first 20 authors by name, each with two articles: the author lists below nest them.
    for (let index = 0; index < 20; index++) {
      const authorId = await author(`Aaa ${unique()}`);
      await article(authorId);
      await article(authorId);
    }
  });

  after(() => {
    console.log([...counted].map(([shape, statements]) => `${statements}  ${shape}`).join("\n"));
  });

  it("get with a nested one (author) and nested manys (tags; comments with their authors)", async () => {
    const two = await ok(api.get(`/articles/${few.articleId}`), 200, "get article");
    const twenty = await ok(api.get(`/articles/${many.articleId}`), 200, "get article");
    assert.equal(two.body.comments.length, 2);
    assert.equal(twenty.body.comments.length, 20);
    assert.equal(twenty.body.tags.length, 20);
    assert.ok(twenty.body.comments.every((comment: { author: { id: string } | null }) => comment.author?.id));
    sameForFewAndMany("get, nested one and manys (GET /articles/{id})", two, twenty, 3);
  });

  it("round trips of a get: its statements alone, in autocommit (no BEGIN, no ROLLBACK); the pool's check of the connection sends nothing", async () => {
    // More gets than the pool has connections, so each has the statements prepared.
    for (let index = 0; index < 16; index++) await ok(api.get(`/articles/${few.articleId}`), 200, "get article");
    const trips: number[] = [];
    for (let index = 0; index < 6; index++) {
      const before = relay!.writes;
      const reply = await ok(api.get(`/articles/${few.articleId}`), 200, "get article");
      trips.push(relay!.writes - before);
      assert.equal(reply.statements, 3);
    }
    assert.deepEqual(trips, trips.map(() => 3), `round trips per get: ${trips.join(", ")}`);
  });

  it("get with a nested many (an author's articles)", async () => {
    const two = await ok(api.get(`/authors/${fewAuthor}`), 200, "get author");
    const twenty = await ok(api.get(`/authors/${manyAuthor}`), 200, "get author");
    assert.equal(two.body.articles.length, 2);
    assert.equal(twenty.body.articles.length, 20);
    sameForFewAndMany("get, nested many (GET /authors/{id})", two, twenty, 2);
  });

  it("get read as columns (a comment with its author's link): one statement", async () => {
    // The premise: the blog's comment get reads a row of columns, no ORM object (docs/be.md, "Statements per request").
    const routes = await readFile(join(projectDir!, "blog/api/content/routes/comment.py"), "utf8");
    assert.match(routes, /return await _read_comment\(session, pk\)\n/);
    const commentId = (await ok(api.post("/comments", { body: "A comment", article_id: few.articleId, author_id: fewAuthor }), 201, "create comment")).body.id;
    const reply = await ok(api.get(`/comments/${commentId}`), 200, "get comment");
    assert.deepEqual(reply.body.author, { type: "author", id: fewAuthor, label: (await ok(api.get(`/authors/${fewAuthor}`), 200, "get author")).body.name });
    within("get read as columns (GET /comments/{id})", reply, 1);
    const missing = await api.get("/comments/00000000-0000-4000-8000-000000000000");
    expectStatus(missing, 404);
    within("get read as columns, missing row (404)", missing, 1);
  });

  it("get of a missing row", async () => {
    const missing = await api.get("/articles/00000000-0000-4000-8000-000000000000");
    expectStatus(missing, 404);
    within("get, missing row (404)", missing, 1);
  });

  it("list with a nested one (each article's author link)", async () => {
    const two = await ok(api.get(`/articles?author_id=${fewAuthor}`), 200, "list articles");
    const twenty = await ok(api.get(`/articles?author_id=${manyAuthor}&limit=20`), 200, "list articles");
    assert.equal(two.body.items.length, 2);
    assert.equal(twenty.body.items.length, 20);
    assert.ok(twenty.body.items.every((item: { author: { type: string; label: string } }) => item.author.type === "author" && item.author.label !== ""));
    sameForFewAndMany("list, nested one (GET /articles)", two, twenty, 1);
  });

  it("a list read as columns (no ORM objects): its one statement is its one round trip", async () => {
    // The premise: the blog's article list reads rows of columns (docs/be.md, "Throughput").
    const routes = await readFile(join(projectDir!, "blog/api/content/routes/article.py"), "utf8");
    assert.match(routes, /await keyset_rows\(/);
    for (let index = 0; index < 16; index++) await ok(api.get(`/articles?author_id=${manyAuthor}`), 200, "list articles");
    const trips: number[] = [];
    for (let index = 0; index < 4; index++) {
      const before = relay!.writes;
      const reply = await ok(api.get(`/articles?author_id=${manyAuthor}&limit=20`), 200, "list articles");
      trips.push(relay!.writes - before);
      assert.equal(reply.statements, 1);
    }
    assert.deepEqual(trips, trips.map(() => 1), `round trips per list: ${trips.join(", ")}`);
  });

  it("list with a nested many (each author's articles)", async () => {
    const two = await ok(api.get("/authors?limit=2"), 200, "list authors");
    const twenty = await ok(api.get("/authors?limit=20"), 200, "list authors");
    assert.equal(two.body.items.length, 2);
    assert.equal(twenty.body.items.length, 20);
    assert.ok(twenty.body.items.every((item: { articles: unknown[] }) => item.articles.length === 2));
    sameForFewAndMany("list, nested many (GET /authors)", two, twenty, 2);
  });

  it("search: an and/or tree (POST /search) and full text (?q=)", async () => {
    const tree = (authorId: string, limit: number) =>
      api.post("/articles/search", { filter: { field: "author_id", op: "eq", value: authorId }, limit });
    const two = await ok(tree(fewAuthor, 20), 200, "search articles");
    const twenty = await ok(tree(manyAuthor, 20), 200, "search articles");
    assert.equal(two.body.items.length, 2);
    assert.equal(twenty.body.items.length, 20);
    sameForFewAndMany("search, and/or tree (POST /articles/search)", two, twenty, 1);

    const textTwo = await ok(api.get(`/articles?q=three&author_id=${fewAuthor}`), 200, "full-text search");
    const textTwenty = await ok(api.get(`/articles?q=three&author_id=${manyAuthor}&limit=20`), 200, "full-text search");
    assert.equal(textTwo.body.items.length, 2);
    assert.equal(textTwenty.body.items.length, 20);
    sameForFewAndMany("search, full text (GET /articles?q=)", textTwo, textTwenty, 1);
  });

  it("create, with and without an Idempotency-Key", async () => {
    const body = () => ({ title: `Title ${unique()}`, body: "one two three", author_id: fewAuthor });
    within("create (POST /articles)", await ok(api.post("/articles", body()), 201, "create"), 4);
    const key = `key-${unique()}`;
    const keyed = api.with({ "Idempotency-Key": key });
    const sent = body();
    within("create with Idempotency-Key (POST /articles)", await ok(keyed.post("/articles", sent), 201, "keyed create"), 6);
    const replayed = await ok(keyed.post("/articles", sent), 201, "replayed create");
    assert.equal(replayed.headers.get("idempotent-replayed"), "true");
    within("create, replayed Idempotency-Key", replayed, 1);
  });

  it("update (PATCH), of a row with nested rows", async () => {
    const two = await ok(api.patch(`/articles/${few.articleId}`, { rating: 4 }), 200, "update");
    const twenty = await ok(api.patch(`/articles/${many.articleId}`, { rating: 4 }), 200, "update");
    assert.equal(twenty.body.comments.length, 20);
    sameForFewAndMany("update (PATCH /articles/{id})", two, twenty, 5);
  });

  it("update (PATCH) in one statement: no hook, relation or row check reads the row first", async () => {
    const two = await ok(api.patch(`/authors/${fewAuthor}`, { name: `Renamed ${unique()}` }), 200, "update author");
    const twenty = await ok(api.patch(`/authors/${manyAuthor}`, { name: `Renamed ${unique()}` }), 200, "update author");
    assert.equal(twenty.body.articles.length, 20);
    sameForFewAndMany("update, one UPDATE … RETURNING (PATCH /authors/{id})", two, twenty, 3);
    const missing = await api.patch("/authors/00000000-0000-4000-8000-000000000000", { name: "Nobody" });
    expectStatus(missing, 404, "update of a missing author");
    within("update of a missing row (404)", missing, 1);
  });

  it("create and update answered as columns (no hook takes the row): the write, then one select; a flat row's INSERT or UPDATE returns it all", async () => {
    // The premise: no ORM object is built for them (docs/be.md, "Statements per request").
    const routes = await readFile(join(projectDir!, "blog/api/content/routes/comment.py"), "utf8");
    assert.match(routes, /pk = \(await session\.execute\(_CREATE_COMMENT, body\.model_dump\(\)\)\)\.scalar_one\(\)\n {4}result = await _read_comment\(session, pk\)/);
    const created = await ok(api.post("/comments", { body: "A comment", article_id: few.articleId, author_id: fewAuthor }), 201, "create comment");
    assert.equal(created.body.author.id, fewAuthor);
    within("create answered as columns (POST /comments)", created, 2);
    const changed = await ok(api.patch(`/comments/${created.body.id}`, { body: "Changed" }), 200, "update comment");
    assert.equal(changed.body.body, "Changed");
    within("update answered as columns (PATCH /comments/{id})", changed, 2);
    const tag = await ok(api.post("/tags", { name: `tag-${unique()}` }), 201, "create tag");
    assert.match(tag.headers.get("location") ?? "", new RegExp(`/tags/${tag.body.id}$`));
    within("create of a flat row, one INSERT … RETURNING (POST /tags)", tag, 1);
    const renamed = await ok(api.patch(`/tags/${tag.body.id}`, { name: `renamed-${unique()}` }), 200, "update tag");
    assert.match(renamed.body.name, /^renamed-/);
    within("update of a flat row, one UPDATE … RETURNING (PATCH /tags/{id})", renamed, 1);
  });

  it("delete, of a row with nested rows", async () => {
    const doomedFew = await articleWith(2);
    const doomedMany = await articleWith(20);
    const two = await ok(api.delete(`/articles/${doomedFew.articleId}`), 204, "delete");
    const twenty = await ok(api.delete(`/articles/${doomedMany.articleId}`), 204, "delete");
    sameForFewAndMany("delete (DELETE /articles/{id})", two, twenty, 1);
  });

  it("actions: on a row with nested rows, and on the collection", async () => {
    const two = await ok(api.post(`/articles/${few.articleId}/publish-article`), 200, "publish");
    const twenty = await ok(api.post(`/articles/${many.articleId}/publish-article`), 200, "publish");
    assert.equal(twenty.body.comments.length, 20);
    sameForFewAndMany("action on a row (POST /articles/{id}/publish-article)", two, twenty, 7);
    within(
      "action on the collection, no database (POST /articles/count-words)",
      await ok(api.post("/articles/count-words", { text: "one two" }), 200, "count words"),
      0,
    );
  });
});
