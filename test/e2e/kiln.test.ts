/**
 * End-to-end: a config written as kiln writes them (examples/blog/config/kiln.jsonnet: fields
 * per operation, apps with prefixes, `pk` in both forms, kiln's helper calls) generates,
 * boots against a real PostgreSQL, and answers over HTTP as the config says, its application
 * written as kiln's main.py is: the project router at a prefix (and a route of its own). Its
 * file resource keeps its bytes in a real S3-compatible server (test/support/s3.ts).
 * The project written in kiln's style (test/fixtures/kiln-style) is generated as kiln's justfile
 * does (its warnings name exactly what codegen reads differently; the tree passes ruff's gates)
 * and served beside it, mounted by its own main.py; its comms, in kiln's shape, reach a real
 * SMTP server through a pgqueuer worker.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type CliRun, runCodegen } from "../helpers/codegen-cli.js";
import { JsonClient, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { ruff } from "../support/python.js";
import { type RunningProcess, until } from "../support/processes.js";
import { type S3Server, startS3 } from "../support/s3.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { type SmtpSink, startSmtpSink } from "./support/comms.js";
import { installPgqueuer, startWorker } from "./support/pgqueuer.js";

const KILN_STYLE = resolve(fileURLToPath(import.meta.url), "../../fixtures/kiln-style");
const RULES = "E,F,I,UP,B,SIM";

const SECRET = randomBytes(32).toString("base64url");
/** Where kiln's main.py mounts the project router. */
const PREFIX = "/v1";
const KILN_MAIN = `from typing import Annotated

from fastapi import Depends, FastAPI
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from blog.api.db.primary_session import get_primary_db
from blog.api.routes import router
from blog.models import Author

app = FastAPI()
app.include_router(router, prefix="${PREFIX}")


@app.get("${PREFIX}/stats/authors")
async def count_authors(db: Annotated[AsyncSession, Depends(get_primary_db)]) -> int:
    return await db.scalar(select(func.count()).select_from(Author)) or 0
`;

/** How long the storage server may take to answer one request with a presigned URL. */
const STORAGE_TIMEOUT_MS = 10_000;

let venv: Venv;
let postgres: Postgres | undefined;
let s3: S3Server | undefined;
let sink: SmtpSink | undefined;
let server: BlogServer | undefined;
let shopServer: BlogServer | undefined;
/** The shop's comms worker (`pgq run`), running from the start: it takes each job as it is committed. */
let shopWorker: RunningProcess | undefined;
let projectDir: string | undefined;
let shopDir: string | undefined;
/** The shop's generation, as kiln's justfile runs it. */
let shopGenerated: CliRun;
let api: JsonClient;
let shop: JsonClient;
/** The environment of the shop's server and comms worker. */
let shopEnv: NodeJS.ProcessEnv;

/**
 * The kiln-style project, copied and generated as kiln's justfile generates one: the project
 * config, from the project's directory, the tree at package_prefix (`_generated`).
 */
async function prepareShop(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-kiln-shop-"));
  await cp(KILN_STYLE, dir, { recursive: true });
  shopGenerated = await runCodegen(dir, ["generate", "--target", "be", "--config", "config/project.jsonnet"]);
  assert.equal(shopGenerated.code, 0, shopGenerated.stderr);
  return dir;
}

before(async () => {
  // The database, the storage and mail servers start while the projects generate.
  venv = await ensureVenv();
  const servers = Promise.all([
    startPostgres().then((started) => (postgres = started)),
    startS3().then((started) => (s3 = started)),
    startSmtpSink(venv).then((started) => (sink = started)),
  ]);
  [projectDir, shopDir] = await Promise.all([prepareBlogProject("config/kiln.jsonnet"), prepareShop()]);
  // kiln's main.py: the project router (which applies the app prefixes) brings the login
  // routes and the error handlers; the application mounts it, and one route of its own
  // reads the database through the session module kiln's projects import.
  await writeFile(join(projectDir, "blog", "main.py"), KILN_MAIN);
  const [database, storage, smtp] = await servers;
  shopEnv = { ...process.env, DATABASE_URL: database.asyncUrl, PGDSN: database.url, JWT_SECRET: SECRET, SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) };
  const serving = Promise.all([
    serveBlog(projectDir, venv, database.asyncUrl, { JWT_SECRET: SECRET, ...storage.env }),
    serveBlog(shopDir, venv, database.asyncUrl, shopEnv, { layout: { api: "_generated", app: "main" } }),
  ]);
  // pgqueuer's tables, then the shop's comms worker, while the servers start.
  await installPgqueuer(venv, shopEnv);
  shopWorker = startWorker(venv, "_generated.comms:create_worker", shopDir, { ...shopEnv, PYTHONPATH: shopDir, PYTHONDONTWRITEBYTECODE: "1" });
  [server, shopServer] = await serving;
  api = new JsonClient(server.baseUrl + PREFIX);
  shop = new JsonClient(shopServer.baseUrl + PREFIX);
});

after(async () => {
  await shopWorker?.stop();
  await server?.process.stop();
  await shopServer?.process.stop();
  await sink?.stop();
  await postgres?.stop();
  await s3?.stop();
  for (const dir of [projectDir, shopDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** kiln's login: a JSON body of the credentials model; the token and the client carrying it. */
async function kilnLogin(password = "analytical-engine", username = "ada"): Promise<{ status: number; body: any; client: JsonClient }> {
  const response = await api.post("/auth/token", { username, password });
  return { ...response, client: new JsonClient(api.baseUrl, { authorization: `Bearer ${response.body?.access_token}` }) };
}

describe("a kiln-style config", () => {
  it("serves each resource under the app's prefix and the resource's route_prefix, with the per-operation fields", async () => {
    const author = await api.post("/content/authors", { name: "Ada", email: `ada-${randomBytes(4).toString("hex")}@example.com` });
    expectStatus(author, 201);
    // The get entry's fields, with the nested articles.
    assert.deepEqual(Object.keys(author.body).sort(), ["articles", "email", "id", "name"]);

    const article = await api.post("/content/posts", { title: "Engines", body: "Notes", author_id: author.body.id });
    expectStatus(article, 201);
    assert.deepEqual(article.body.author, { id: author.body.id, name: "Ada" });
    assert.equal(article.body.published, false);

    const read = await api.get(`/content/authors/${author.body.id}`);
    expectStatus(read, 200);
    assert.deepEqual(read.body.articles, [{ id: article.body.id, title: "Engines" }]);

    const page = await api.get("/content/authors?limit=100");
    expectStatus(page, 200);
    assert.ok(page.body.items.some((item: { id: string }) => item.id === author.body.id));
    // kiln's order modifier, as list.searchable writes it: by name unless order_by says otherwise.
    const names = (items: { name: string }[]) => items.map((item) => item.name);
    const byName = names(page.body.items);
    assert.deepEqual(byName, [...byName].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const descending = await api.get("/content/authors?limit=100&order_by=-name");
    expectStatus(descending, 200);
    assert.deepEqual(names(descending.body.items), [...byName].reverse());
    // kiln's filter, a bare field name: name is free text.
    const named = await api.get("/content/authors?limit=100&name=Ada");
    expectStatus(named, 200);
    assert.ok(named.body.items.some((item: { id: string }) => item.id === author.body.id));
    assert.deepEqual([...new Set(names(named.body.items))], ["Ada"]);
    const partly = await api.get("/content/authors?limit=100&name__contains=d");
    expectStatus(partly, 200);
    assert.ok(partly.body.items.length > 0 && partly.body.items.every((item: { name: string }) => item.name.toLowerCase().includes("d")));

    const renamed = await api.patch(`/content/posts/${article.body.id}`, { title: "Analytical engines" });
    expectStatus(renamed, 200);
    assert.equal(renamed.body.title, "Analytical engines");
    // update takes only its own fields.
    expectStatus(await api.patch(`/content/posts/${article.body.id}`, { body: 5 }), 200);
    assert.equal((await api.get(`/content/posts/${article.body.id}`)).body.body, "Notes");
  });

  it("answers a database error with its status through the project router alone: a repeated unique email is a 409 naming the constraint", async () => {
    const email = `twice-${randomBytes(4).toString("hex")}@example.com`;
    expectStatus(await api.post("/content/authors", { name: "Ada", email }), 201);
    const again = await api.post("/content/authors", { name: "Ada", email });
    expectStatus(again, 409);
    assert.equal(again.body.constraint, "uq_authors_email", JSON.stringify(again.body));
  });

  it("gives a route of the application's own a session through kiln's db/primary_session.get_primary_db", async () => {
    const before = await api.get("/stats/authors");
    expectStatus(before, 200);
    expectStatus(await api.post("/content/authors", { name: "Mary", email: `mary-${randomBytes(4).toString("hex")}@example.com` }), 201);
    const after = await api.get("/stats/authors");
    expectStatus(after, 200);
    assert.equal(after.body, before.body + 1);
  });

  it("keeps kiln's default for resource.action: the action needs a token on a public resource", async () => {
    const author = await api.post("/content/authors", { name: "Grace", email: `grace-${randomBytes(4).toString("hex")}@example.com` });
    const article = await api.post("/content/posts", { title: "Compilers", body: "A-0", author_id: author.body.id });
    expectStatus(await api.post(`/content/posts/${article.body.id}/publish`), 401);
    const published = await (await kilnLogin()).client.post(`/content/posts/${article.body.id}/publish`);
    expectStatus(published, 200);
    assert.equal(published.body.published, true);
    expectStatus(await api.delete(`/content/posts/${article.body.id}`), 204);
  });

  it("calls actions with kiln's signatures: fn(row, db=..., body=...), the body its model, the answer its return value (None: 204), the guard can(resource, session)", async () => {
    const author = await api.post("/content/authors", { name: "Hedy", email: `hedy-${randomBytes(4).toString("hex")}@example.com` });
    const article = await api.post("/content/posts", { title: "Frequency hopping", body: "FH", author_id: author.body.id });
    const { client } = await kilnLogin();
    const published = await client.post(`/content/posts/${article.body.id}/publish`);
    expectStatus(published, 200);
    // The function's Publication, not the article's read shape.
    assert.deepEqual(published.body, { id: article.body.id, published: true });

    expectStatus(await api.post(`/content/posts/${article.body.id}/retitle`, { title: "Spread spectrum" }), 401);
    const retitled = await client.post(`/content/posts/${article.body.id}/retitle`, { title: "Spread spectrum" });
    expectStatus(retitled, 204);
    assert.equal((await api.get(`/content/posts/${article.body.id}`)).body.title, "Spread spectrum");
    // The body is validated into the function's model before it runs: 422 naming the field.
    const empty = await client.post(`/content/posts/${article.body.id}/retitle`, { title: "" });
    expectStatus(empty, 422);
    assert.deepEqual(empty.body.detail[0].loc, ["body", "title"]);
    // kiln's guard, can(resource, session): an archived article keeps its title.
    const archived = await api.post("/content/posts", { title: "Wireless", body: "W", author_id: author.body.id, status: "archived" });
    expectStatus(await client.post(`/content/posts/${archived.body.id}/retitle`, { title: "Radio" }), 403);
    assert.equal((await api.get(`/content/posts/${archived.body.id}`)).body.title, "Wireless");
    // kiln's permissions_endpoint asks the same guard, with the same session: retitle is offered on the
    // article, not on the archived one, and to nobody without a token.
    const offered = async (as: JsonClient, id: string) => {
      const reply = await as.get(`/content/posts/${id}/permissions`);
      expectStatus(reply, 200, `the permissions of ${id}`);
      return (reply.body as { name: string; scope: string }[]).filter((action) => action.scope === "object").map((action) => action.name);
    };
    assert.deepEqual(await offered(client, article.body.id), ["get", "update", "delete", "publish", "retitle"]);
    assert.deepEqual(await offered(client, archived.body.id), ["get", "update", "delete", "publish"]);
    assert.deepEqual(await offered(api, article.body.id), ["get", "update", "delete"]);
    // include_actions_in_dump: every article get and list answer carries what its permissions route
    // says to the same user, signed in or not; the list's rows are the author's two articles.
    for (const as of [client, api]) {
      const listed = await as.get(`/content/posts?limit=100&author_id=${author.body.id}`);
      expectStatus(listed, 200);
      assert.equal(listed.body.items.length, 2);
      for (const id of [article.body.id, archived.body.id]) {
        const permissions = (await as.get(`/content/posts/${id}/permissions`)).body;
        const got = await as.get(`/content/posts/${id}`);
        expectStatus(got, 200);
        assert.deepEqual(got.body.actions, permissions, `the actions of ${id}`);
        assert.deepEqual(listed.body.items.find((row: { id: string }) => row.id === id).actions, permissions, `the listed actions of ${id}`);
      }
    }

    // A collection action given the model class (kiln's type[Model] parameter).
    const counted = await api.post("/content/posts/count");
    expectStatus(counted, 200);
    assert.ok(Number.isInteger(counted.body.count) && counted.body.count >= 1, JSON.stringify(counted.body));
  });

  it("calls a create's hooks with kiln's signatures: pre(body, db=...) returns the body to store, post(row, body, db=...) runs after the commit", async () => {
    const author = await api.post("/content/authors", { name: "Ida", email: `ida-${randomBytes(4).toString("hex")}@example.com` });
    const article = await api.post("/content/posts", { title: "  Ciphers  ", body: "Three words here", author_id: author.body.id });
    expectStatus(article, 201);
    assert.equal(article.body.title, "Ciphers");
    // post ran once the row was committed (the answer was already made): the next read shows its count.
    assert.equal(article.body.word_count, 0);
    assert.equal((await api.get(`/content/posts/${article.body.id}`)).body.word_count, 3);
  });

  it("types an enum field with the model's Enum: its values in OpenAPI, a member by default, 422 naming the field, filters by eq and in", async () => {
    const author = await api.post("/content/authors", { name: "Emmy", email: `emmy-${randomBytes(4).toString("hex")}@example.com` });
    const post = (status?: string) => api.post("/content/posts", { title: "Rings", body: "Ideals", author_id: author.body.id, ...(status && { status }) });
    const draft = await post();
    expectStatus(draft, 201);
    assert.equal(draft.body.status, "draft");
    const archived = await post("archived");
    expectStatus(archived, 201);
    assert.equal(archived.body.status, "archived");
    const wrong = await post("lost");
    expectStatus(wrong, 422);
    assert.deepEqual(wrong.body.detail[0].loc, ["body", "status"]);
    expectStatus(await api.patch(`/content/posts/${draft.body.id}`, { status: "published" }), 200);

    const spec = (await new JsonClient(server!.baseUrl).get("/openapi.json")).body;
    assert.deepEqual(spec.components.schemas.ArticleStatus.enum, ["draft", "published", "archived"]);
    assert.deepEqual(spec.components.schemas.ArticleRead.properties.status, { $ref: "#/components/schemas/ArticleStatus" });

    const statuses = async (query: string) => {
      const page = await api.get(`/content/posts?limit=100&${query}`);
      expectStatus(page, 200);
      return new Map(page.body.items.map((item: { id: string; status: string }) => [item.id, item.status]));
    };
    const published = await statuses("status=published");
    assert.equal(published.get(draft.body.id), "published");
    assert.deepEqual([...new Set(published.values())], ["published"]);
    const either = await statuses("status__in=draft,archived");
    assert.ok(either.has(archived.body.id) && !either.has(draft.body.id));
    const unknown = await api.get("/content/posts?status=lost");
    expectStatus(unknown, 422);
    assert.deepEqual(unknown.body.detail[0].loc, ["query", "status"]);
    const searched = await api.post("/content/posts/search", { filter: { field: "status", op: "eq", value: "archived" }, limit: 100 });
    expectStatus(searched, 200);
    assert.ok(searched.body.items.some((item: { id: string }) => item.id === archived.body.id));
    assert.ok(searched.body.items.every((item: { status: string }) => item.status === "archived"));
  });

  it("labels filter values by kiln's link kinds: an author (kind name) by its name, an article (kind id) by its key as text", async () => {
    const author = await api.post("/content/authors", { name: "Grace", email: `grace-${randomBytes(4).toString("hex")}@example.com` });
    const article = await api.post("/content/posts", { title: "Compilers", body: "A-0", author_id: author.body.id });
    expectStatus(article, 201);
    // Discovery is public here (kiln's resource_registry.require_auth: false); a token changes nothing.
    const { client } = await kilnLogin();
    const values = async (field: string, q: string) => {
      const answer = await client.post("/_values", { resource: "article", field, q, limit: 100 });
      expectStatus(answer, 200);
      return answer.body.values as { value: string; label: string }[];
    };
    assert.deepEqual((await values("author_id", "Grace")).find((choice) => choice.value === author.body.id), { value: author.body.id, label: "Grace" });
    assert.deepEqual(await values("id", article.body.id), [{ value: article.body.id, label: article.body.id }]);
    // The filters those values feed.
    const byAuthor = await api.get(`/content/posts?limit=100&author_id=${author.body.id}`);
    expectStatus(byAuthor, 200);
    assert.deepEqual(byAuthor.body.items.map((item: { id: string }) => item.id), [article.body.id]);
  });

  it("serves kiln's discovery without a token (resource_registry.require_auth: false): POST /_filters by resource, POST /_filters/fields by field", async () => {
    // Every other route needs a user unless it says otherwise; the discovery routes do not.
    const catalog = await api.get("/_filters");
    expectStatus(catalog, 200);
    const described = new Map<string, unknown>();
    for (const list of catalog.body.lists) for (const filter of list.filters) if (!described.has(`${list.resource}.${filter.field}`)) described.set(`${list.resource}.${filter.field}`, filter);
    const everything = await api.post("/_filters", {});
    expectStatus(everything, 200);
    assert.deepEqual(everything.body, (await api.post("/_filters", { resources: null })).body);
    assert.deepEqual(
      everything.body.resources.map((resource: { resource: string; filters: { field: string }[]; supports_search: boolean }) => [resource.resource, resource.filters.map((filter) => filter.field), resource.supports_search]),
      [["author", ["name"], false], ["article", ["status", "author_id", "id"], false]],
    );
    const articles = await api.post("/_filters", { resources: ["article"] });
    expectStatus(articles, 200);
    assert.deepEqual(articles.body.resources, [everything.body.resources[1]]);
    assert.deepEqual(articles.body.resources[0].filters, ["status", "author_id", "id"].map((field) => described.get(`article.${field}`)));
    const unknown = await api.post("/_filters", { resources: ["tag"] });
    expectStatus(unknown, 422);
    assert.deepEqual(unknown.body.detail[0].loc, ["body", "resources", 0]);

    const fields = await api.post("/_filters/fields", { fields: [{ resource: "article", field: "author_id" }, { resource: "author", field: "name" }] });
    expectStatus(fields, 200);
    assert.deepEqual(fields.body.fields, [described.get("article.author_id"), described.get("author.name")]);
    assert.deepEqual(fields.body.fields[0].values, { kind: "ref", resource: "author" });
    const notFiltered = await api.post("/_filters/fields", { fields: [{ resource: "article", field: "title" }] });
    expectStatus(notFiltered, 422);
    assert.deepEqual(notFiltered.body.detail[0].loc.slice(0, 3), ["body", "fields", 0]);
  });

  it("answers a searchable resource's POST {prefix}/_values with its rows as links, found by their label, a page at a time", async () => {
    const tag = randomBytes(4).toString("hex");
    const authors = [];
    for (const name of [`Lin ${tag} B`, `Lin ${tag} A`, `Lin ${tag} C`]) {
      const author = await api.post("/content/authors", { name, email: `lin-${randomBytes(4).toString("hex")}@example.com` });
      expectStatus(author, 201);
      authors.push(author.body);
    }
    const link = (author: { id: string; name: string }) => ({ type: "author", id: author.id, label: author.name });
    const first = await api.post("/content/authors/_values", { q: tag, limit: 2 });
    expectStatus(first, 200);
    assert.deepEqual(first.body, { results: [link(authors[1]), link(authors[0])], next_cursor: "2" });
    const rest = await api.post("/content/authors/_values", { q: tag, limit: 2, cursor: first.body.next_cursor });
    expectStatus(rest, 200);
    assert.deepEqual(rest.body, { results: [link(authors[2])], next_cursor: null });
    const badCursor = await api.post("/content/authors/_values", { q: tag, cursor: "last" });
    expectStatus(badCursor, 422);
    assert.deepEqual(badCursor.body.detail[0].loc, ["body", "cursor"]);
  });

  it("makes a searchable resource's links with kiln's builder, given who asks; a hidden file stays out of the answer and of the builder's own reads", async () => {
    const { client } = await kilnLogin();
    const tag = randomBytes(4).toString("hex");
    const upload = async (filename: string) => {
      const ticket = await client.post("/content/attachments/upload", { filename, content_type: "text/plain", size_bytes: 5 });
      expectStatus(ticket, 200, filename);
      return ticket.body.id as string;
    };
    const draft = await upload(`draft-${tag}.txt`);
    const final = await upload(`final-${tag}.txt`);
    const hidden = await upload(`private-${tag}.txt`);
    // The builder counts the versions of a file through the request's session: the hidden one is not among them.
    const labels = async (as: JsonClient, q: string) => {
      const found = await as.post("/content/attachments/_values", { q, limit: 100 });
      expectStatus(found, 200);
      assert.equal(found.body.next_cursor, null);
      return new Map((found.body.results as { type: string; id: string; label: string }[]).map((item) => [item.id, `${item.type}: ${item.label}`]));
    };
    assert.deepEqual(
      await labels(client, tag),
      new Map([
        [draft, `attachment: draft-${tag}.txt (2 versions) for Ada Lovelace`],
        [final, `attachment: final-${tag}.txt (2 versions) for Ada Lovelace`],
      ]),
    );
    // Without a token, the builder's session is None.
    assert.equal((await labels(api, tag)).get(final), `attachment: final-${tag}.txt (2 versions) for anyone`);
    assert.ok(!(await labels(client, `private-${tag}`)).has(hidden));
  });

  it("answers an author's get and list through kiln's serializer, awaited with the row, who asks (None on a public route) and the database", async () => {
    const author = await api.post("/content/authors", { name: "Hedy", email: `hedy-${randomBytes(4).toString("hex")}@example.com` });
    for (const title of ["Frequency hopping", "Torpedoes"]) expectStatus(await api.post("/content/posts", { title, body: "Notes", author_id: author.body.id }), 201);
    const read = await api.get(`/content/authors/${author.body.id}`);
    expectStatus(read, 200);
    assert.equal(read.body.article_count, 2);
    assert.equal(read.body.asked_by, null);
    assert.deepEqual(read.body.articles.map((article: { title: string }) => article.title).sort(), ["Frequency hopping", "Torpedoes"]);
    // The list's page helper serializes each row the same way (the filtered list and its search share it).
    const listed = await api.get(`/content/authors?name=${encodeURIComponent("Hedy")}&limit=100`);
    expectStatus(listed, 200);
    const hedy = listed.body.items.find((item: { id: string }) => item.id === author.body.id);
    assert.deepEqual({ article_count: hedy?.article_count, asked_by: hedy?.asked_by }, { article_count: 2, asked_by: null });
  });

  it("serves a create-only resource with an integer key, answering with its key and create fields", async () => {
    const tag = await api.post("/content/tags", { name: `kiln-${randomBytes(4).toString("hex")}` });
    expectStatus(tag, 201);
    assert.equal(typeof tag.body.id, "number");
    assert.deepEqual(Object.keys(tag.body).sort(), ["id", "name"]);
    // No get entry: no route reads a tag.
    expectStatus(await api.get(`/content/tags/${tag.body.id}`), 404);
  });

  it("logs in the kiln way: a JSON body checked by validate_fn, the session in the token, logout told to the session store", async () => {
    const wrong = await kilnLogin("wrong");
    expectStatus(wrong, 401);
    const incomplete = await api.post("/auth/token", { username: "ada" });
    expectStatus(incomplete, 422);
    assert.ok(JSON.stringify(incomplete.body).includes("password"), JSON.stringify(incomplete.body));

    const login = await kilnLogin();
    expectStatus(login, 200);
    // The session's fields are claims of the token; the registered ones are codegen's.
    const claims = JSON.parse(Buffer.from(String(login.body.access_token).split(".")[1]!, "base64url").toString());
    assert.equal(claims.sub, "ada");
    assert.equal(claims.name, "Ada Lovelace");
    assert.equal(typeof claims.jti, "string");

    const author = await api.post("/content/authors", { name: "Ada", email: `ada-${randomBytes(4).toString("hex")}@example.com` });
    const article = await api.post("/content/posts", { title: "Notes", body: "G", author_id: author.body.id });
    expectStatus(await login.client.post(`/content/posts/${article.body.id}/publish`), 200);
    // Logout (kiln's path) tells the store and the deny-list: the token is refused from then on.
    expectStatus(await login.client.post("/auth/token/logout"), 204);
    expectStatus(await login.client.post(`/content/posts/${article.body.id}/publish`), 401);
  });

  it("keeps each user's saved views of the article list: their own only (another's is a 404), the query checked by the list's own model and giving the view's rows", async () => {
    const views = "/content/posts/views";
    const { client: ada } = await kilnLogin();
    const { client: grace } = await kilnLogin("compiler-1952", "grace");
    expectStatus(await api.get(views), 401);
    const author = await api.post("/content/authors", { name: "Views", email: `views-${randomBytes(4).toString("hex")}@example.com` });
    const archived = await api.post("/content/posts", { title: "Kept", body: "K", author_id: author.body.id, status: "archived" });
    expectStatus(await api.post("/content/posts", { title: "Drafted", body: "D", author_id: author.body.id }), 201);

    const query = { status: "archived", author_id: author.body.id };
    const saved = await ada.post(views, { name: "Archived", query, columns: ["title", "status"] });
    expectStatus(saved, 201);
    assert.deepEqual({ name: saved.body.name, query: saved.body.query, columns: saved.body.columns }, { name: "Archived", query, columns: ["title", "status"] });
    // The view's query is the list's: its rows are the list's answer to it.
    const rows = await api.get(`/content/posts?${new URLSearchParams(saved.body.query)}`);
    expectStatus(rows, 200);
    assert.deepEqual(rows.body.items.map((item: { id: string }) => item.id), [archived.body.id]);
    // Checked by the list's query model: a value it refuses is a 422 naming the parameter; the owner is never the body's.
    const wrong = await ada.post(views, { name: "Lost", query: { status: "lost" } });
    expectStatus(wrong, 422);
    assert.deepEqual(wrong.body.detail[0].loc, ["body", "query", "status"]);
    const owned = await ada.post(views, { name: "Mine", owner: "grace" });
    expectStatus(owned, 422);
    assert.deepEqual(owned.body.detail[0].loc, ["body", "owner"]);
    // One name per user and list: the same name again is a 409; another user may use it.
    expectStatus(await ada.post(views, { name: "Archived" }), 409);
    const theirs = await grace.post(views, { name: "Archived" });
    expectStatus(theirs, 201);

    // Each user lists, reads, changes and deletes their own views; another's is no view of theirs.
    assert.deepEqual((await ada.get(views)).body.map((view: { id: string }) => view.id), [saved.body.id]);
    assert.deepEqual((await grace.get(views)).body.map((view: { id: string }) => view.id), [theirs.body.id]);
    const own = `${views}/${saved.body.id}`;
    expectStatus(await grace.get(own), 404);
    expectStatus(await grace.patch(own, { name: "Taken" }), 404);
    expectStatus(await grace.delete(own), 404);
    const renamed = await ada.patch(own, { name: "Drafts", query: { status: "draft" } });
    expectStatus(renamed, 200);
    assert.deepEqual({ name: renamed.body.name, query: renamed.body.query, columns: renamed.body.columns }, { name: "Drafts", query: { status: "draft" }, columns: ["title", "status"] });
    expectStatus(await ada.delete(own), 204);
    expectStatus(await ada.get(own), 404);
    expectStatus(await grace.get(`${views}/${theirs.body.id}`), 200);
  });

  it("keeps kiln's files in S3-compatible storage: bytes up and down through presigned URLs, a hidden row's file refused, a bad type or size a 422 naming the field", async () => {
    const { client } = await kilnLogin();
    const files = "/content/attachments";
    const storage = async (url: string, init: RequestInit = {}) => {
      try {
        return await fetch(url, { ...init, signal: AbortSignal.timeout(STORAGE_TIMEOUT_MS) });
      } catch (error) {
        throw new Error(`${init.method ?? "GET"} ${url} got no answer from the storage server (${String(error)}); its output:\n${s3!.process.output()}`);
      }
    };
    const bytes = Buffer.from("Notes on the analytical engine\n");
    const declared = { filename: "notes.txt", content_type: "text/plain", size_bytes: bytes.length };
    expectStatus(await api.post(`${files}/upload`, declared), 401);
    const ticket = await client.post(`${files}/upload`, declared);
    expectStatus(ticket, 200);
    const id = ticket.body.id;
    // Before its bytes are in the bucket, there is nothing to complete or download.
    expectStatus(await client.post(`${files}/${id}/complete`), 409);
    expectStatus(await client.post(`${files}/${id}/download`), 409);
    // The URL is signed for the declared size and type: storage refuses other bytes.
    assert.equal((await storage(ticket.body.upload_url, { method: "PUT", headers: ticket.body.headers, body: Buffer.concat([bytes, bytes]) })).status, 403);
    const put = await storage(ticket.body.upload_url, { method: "PUT", headers: ticket.body.headers, body: bytes });
    assert.equal(put.status, 200, await put.text());
    expectStatus(await client.post(`${files}/${id}/complete`), 204);
    const row = await client.get(`${files}/${id}`);
    expectStatus(row, 200);
    assert.equal(row.body.size_bytes, bytes.length);
    assert.equal(row.body.original_filename, "notes.txt");
    assert.ok(row.body.uploaded_at !== null, JSON.stringify(row.body));
    const download = await client.post(`${files}/${id}/download`);
    expectStatus(download, 200);
    const fetched = await storage(download.body.download_url);
    assert.equal(fetched.status, 200);
    assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), bytes);

    // The entry's limits: another media type or more bytes is a 422 naming the field.
    const pdf = await client.post(`${files}/upload`, { ...declared, content_type: "application/pdf" });
    expectStatus(pdf, 422);
    assert.deepEqual(pdf.body.detail[0].loc, ["body", "content_type"]);
    const large = await client.post(`${files}/upload`, { ...declared, size_bytes: 1024 * 1024 + 1 });
    expectStatus(large, 422);
    assert.deepEqual(large.body.detail[0].loc, ["body", "size_bytes"]);

    // A row the visibility rule hides (private-*) is no row to this user: no route reaches its file.
    const hidden = await client.post(`${files}/upload`, { ...declared, filename: "private-plans.txt" });
    expectStatus(hidden, 200);
    assert.equal((await storage(hidden.body.upload_url, { method: "PUT", headers: hidden.body.headers, body: bytes })).status, 200);
    for (const step of ["complete", "download", "delete-file"]) expectStatus(await client.post(`${files}/${hidden.body.id}/${step}`), 404);
    expectStatus(await client.get(`${files}/${hidden.body.id}`), 404);

    // Deleting removes the bytes, then the row.
    expectStatus(await client.post(`${files}/${id}/delete-file`), 204);
    expectStatus(await client.get(`${files}/${id}`), 404);
    assert.equal((await storage(download.body.download_url)).status, 404);
  });
});

describe("the project in kiln's style", () => {
  it("generates, naming in warnings only what codegen reads differently", () => {
    assert.equal(shopGenerated.code, 0, shopGenerated.stderr);
    const warnings = shopGenerated.stderr.split("\n").filter((line) => line.includes("warning:"));
    const paths = warnings.map((line) => /warning: config\/project\.jsonnet: (\S+):/.exec(line)?.[1]);
    assert.deepEqual(paths, [
      "rate_limit.bucket_model",
      // kiln's actions say instance or collection through their signature, which codegen does not import.
      "apps[0].config.resources[0].operations[5]",
      "apps[0].config.resources[0].operations[6]",
      "apps[0].config.resources[1].operations[1]",
      "apps[0].config.resources[1].operations[2]",
    ]);
  });

  it("passes ruff format --check and ruff check, generated and hand-written modules together", async () => {
    assert.equal(shopGenerated.code, 0, shopGenerated.stderr);
    const paths = ["_generated", "shop", "main.py"];
    const format = await ruff(venv, shopDir!, ["format", "--check", "--diff", ...paths]);
    assert.ok(format.ok, `ruff format would change files:\n${format.output}`);
    const lint = await ruff(venv, shopDir!, ["check", "--select", RULES, "--output-format", "concise", ...paths]);
    assert.ok(lint.ok, `ruff check (${RULES}) failed:\n${lint.output}`);
  });

  it("takes kiln's login: a JSON body of the credentials model, checked by validate_fn, the session's fields as claims, its session store", async () => {
    const router = await readFile(join(shopDir!, "_generated/auth/router.py"), "utf8");
    assert.match(router, /async def issue_access_token\(\s*credentials: LoginCredentials,/);
    assert.match(router, /session_claims=session\.model_dump\(mode="json"\)/);
    // kiln's session store: told at logout (kiln's path), asked on every request.
    assert.match(router, /"\/auth\/token\/logout"/);
    assert.match(router, /await revocations\.revoke\(Session\.model_validate\(claims\)\)/);
    const dependencies = await readFile(join(shopDir!, "_generated/auth/dependencies.py"), "utf8");
    assert.match(dependencies, /if await revocations\.is_revoked\(Session\.model_validate\(claims\)\):/);
    // kiln's project rate limit is the project's limit on every route, the token endpoint's too.
    const limits = await readFile(join(shopDir!, "_generated/rate_limits.py"), "utf8");
    assert.match(limits, /"600\/minute"/);
    assert.match(limits, /"30\/minute"/);
  });

  it("calls kiln's actions written as kiln writes them: the body validated as the function's model, the row first, db= and body=, the answer its return model", async () => {
    const login = await shop.post("/auth/token", { username: "clerk", password: "counter-secret" });
    expectStatus(login, 200);
    const clerk = new JsonClient(shop.baseUrl, { authorization: `Bearer ${login.body.access_token}` });
    const sku = `toaster-${randomBytes(4).toString("hex")}`;
    const product = await clerk.post("/shop/products", { sku, name: "Toaster", price: 30 });
    expectStatus(product, 201);
    const discontinue = `/shop/products/${product.body.id}/discontinue`;
    expectStatus(await shop.post(discontinue, { reason: "recalled" }), 401);
    // The body is discontinue_product's DiscontinueRequest, read off its annotations as the app started.
    const refused = await clerk.post(discontinue, { reason: ["recalled"] });
    expectStatus(refused, 422);
    assert.ok(JSON.stringify(refused.body).includes('"reason"'), JSON.stringify(refused.body));
    const done = await clerk.post(discontinue, { reason: "recalled" });
    expectStatus(done, 200);
    assert.deepEqual(done.body, { sku, reason: "recalled" });
    // The function's change to the row is committed with the answer.
    assert.equal((await shop.get(`/shop/products/${product.body.id}`)).body.active, false);
    // ping_product takes no body: none is read.
    const pong = await shop.post(`/shop/products/${product.body.id}/ping`);
    expectStatus(pong, 200);
    assert.deepEqual(pong.body, { status: "pong" });

    // Clients see the function's models in the OpenAPI document.
    const openapi = await new JsonClient(shopServer!.baseUrl).get("/openapi.json");
    expectStatus(openapi, 200);
    const operation = openapi.body.paths[`${PREFIX}/shop/products/{pk}/discontinue`].post;
    assert.deepEqual(operation.requestBody.content["application/json"].schema, { $ref: "#/components/schemas/DiscontinueRequest" });
    assert.deepEqual(operation.responses["200"].content["application/json"].schema, { $ref: "#/components/schemas/DiscontinueResponse" });
    assert.equal(openapi.body.paths[`${PREFIX}/shop/products/{pk}/ping`].post.requestBody, undefined);
  });

  it("limits as kiln's limiter does: the orders' own 30/minute counted per the project's key_func, with the limit's headers", async () => {
    const login = await shop.post("/auth/token", { username: "clerk", password: "counter-secret" });
    const clerk = new JsonClient(shop.baseUrl, { authorization: `Bearer ${login.body.access_token}` });
    const product = await clerk.post("/shop/products", { sku: `kettle-${randomBytes(4).toString("hex")}`, name: "Kettle", price: 25 });
    const order = await clerk.post("/shop/orders", { product_id: product.body.id, quantity: 1 });
    expectStatus(order, 201);
    const ping = `/shop/orders/${order.body.id}/ping`;
    const till = shop.with({ "x-till": `till-${randomBytes(4).toString("hex")}` });
    const first = await till.post(ping);
    expectStatus(first, 200);
    assert.match(first.headers.get("ratelimit-policy") ?? "", /\bq=30;w=60\b/, [...first.headers].join("\n"));
    for (let sent = 1; sent < 30; sent++) expectStatus(await till.post(ping), 200);
    const refused = await till.post(ping);
    expectStatus(refused, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0, [...refused.headers].join("\n"));
    // Another till's key has a counter of its own, though both come from one address.
    expectStatus(await shop.with({ "x-till": `till-${randomBytes(4).toString("hex")}` }).post(ping), 200);
  });

  it("gives actions of one name on two resources operation ids of their own", async () => {
    const openapi = await new JsonClient(shopServer!.baseUrl).get("/openapi.json");
    expectStatus(openapi, 200);
    const ids = Object.values(openapi.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    assert.deepEqual(ids.filter((id) => id.startsWith("ping")).sort(), ["pingOrder", "pingProduct"]);
    assert.equal(new Set(ids).size, ids.length, `duplicate operation ids: ${ids.join(", ")}`);
  });

  it("lists and searches as kiln's clients do, and sends its comms in kiln's shape: an action's send_comm rows in the shop's models on the type's default methods, the worker's transport to a real SMTP server, its renderer and preferences; a method without a transport fails", async () => {
    const login = await shop.post("/auth/token", { username: "clerk", password: "counter-secret" });
    expectStatus(login, 200);
    const clerk = new JsonClient(shop.baseUrl, { authorization: `Bearer ${login.body.access_token}` });
    const product = await clerk.post("/shop/products", { sku: `kettle-${randomBytes(4).toString("hex")}`, name: "Kettle", price: 25 });
    expectStatus(product, 201);
    // The searchable list as kiln's clients call it: GET with its filters, and POST …/search with a tree.
    const listed = await shop.get("/shop/products?name__starts_with=Kett&order_by=-price&limit=100");
    expectStatus(listed, 200);
    assert.ok(listed.body.items.some((item: { id: string }) => item.id === product.body.id));
    const searched = await shop.post("/shop/products/search", { filter: { field: "name", op: "contains", value: "ettl" }, order_by: ["-price"], limit: 100 });
    expectStatus(searched, 200);
    assert.ok(searched.body.items.some((item: { id: string }) => item.id === product.body.id));
    assert.ok(searched.body.items.every((item: { name: string }) => item.name.includes("ettl")));
    const order = await clerk.post("/shop/orders", { product_id: product.body.id, quantity: 2 });
    expectStatus(order, 201);

    const address = `buyer-${randomBytes(4).toString("hex")}@example.com`;
    const confirmed = await shop.post(`/shop/orders/${order.body.id}/confirm`, { email: address, phone: "+15550100" });
    expectStatus(confirmed, 200);
    // The preferences turn the quiet customer down: a message row, no recipient, no job.
    const quiet = await shop.post(`/shop/orders/${order.body.id}/confirm`, { email: "quiet@example.com" });
    expectStatus(quiet, 200);
    const recipientsOf = (messageId: string) =>
      postgres!.query("SELECT method, address, status, error FROM comm_recipients WHERE message_id = $1 ORDER BY method", [messageId]);
    assert.deepEqual(await recipientsOf(quiet.body.message_id), []);
    const [message] = await postgres!.query("SELECT comm_type, subject, body FROM comm_messages WHERE id = $1", [confirmed.body.message_id]);
    // Rendered by the shop's renderer (string.Template's ${name}, not Jinja2).
    const reference = String(order.body.id).slice(0, 8);
    assert.deepEqual(message, { comm_type: "order_placed", subject: `Order ${reference} placed`, body: "Your order of 2 x Kettle is placed.\n" });

    await until("the order's e-mail", async () => (await sink!.mails()).some((mail) => mail.to.includes(address)), [shopWorker!, sink!.process]);
    await until("both recipient rows done", async () => (await recipientsOf(confirmed.body.message_id)).every((row) => row.status !== "pending"), [shopWorker!]);
    // order_placed's default methods, email and sms, each at the customer's address for it. The
    // shop has no sms transport: that delivery fails, for good, with the reason.
    assert.deepEqual(await recipientsOf(confirmed.body.message_id), [
      { method: "email", address, status: "sent", error: null },
      { method: "sms", address: "+15550100", status: "failed", error: "LookupError: no transport for method 'sms'" },
    ]);
    const mails = (await sink!.mails()).filter((mail) => mail.to.includes(address));
    assert.equal(mails.length, 1, JSON.stringify(mails));
    assert.equal(mails[0]!.from, "shop@example.com");
    assert.equal(mails[0]!.subject, `Order ${reference} placed`);
    assert.equal(mails[0]!.body.replaceAll("\r\n", "\n"), "Your order of 2 x Kettle is placed.\n");
    assert.ok(!(await sink!.mails()).some((mail) => mail.to.includes("quiet@example.com")));
  });
});
