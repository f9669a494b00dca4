/**
 * The roles of the blog's permission matrices (test/e2e/authz.test.ts, test/e2e/opa.test.ts):
 * a client per role with a token signed as the app signs its own, the articles they act
 * on, and the checks both matrices make: statuses with JSON details, and lists that hold
 * exactly the rows `get` answers.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { JsonClient, type Reply, expectStatus } from "../../support/http.js";
import { type Claims, claims, signJwt } from "./jwt.js";

export type Role = "anonymous" | "reader" | "author" | "editor" | "admin";
export const ROLES: Role[] = ["anonymous", "reader", "author", "editor", "admin"];
/** The matrices' roles and `other`, a second writer: the owner of the rows the author may not touch. */
export type Actor = Role | "other";

/** Expected status per route and role. */
export type Matrix = Record<string, Record<Role, number>>;

export class BlogRoles {
  readonly #baseUrl: () => string;
  readonly #secret: string;
  /** Unique per run, so rows of earlier runs never collide. */
  readonly run = randomUUID().slice(0, 8);
  readonly email = { author: `ada-${this.run}@example.com`, other: `bob-${this.run}@example.com` };
  /** The author rows of `email`, once `createAuthors` made them. */
  authors = { author: "", other: "" };
  readonly #extra: (role: Actor) => Claims;

  /** `extra`: claims a role's token carries besides `sub` and `roles`. */
  constructor(baseUrl: () => string, secret: string, extra: (role: Actor) => Claims = () => ({})) {
    this.#baseUrl = baseUrl;
    this.#secret = secret;
    this.#extra = extra;
  }

  /** A client of `role`: the author is `email.author`, the other writer `email.other`, the token's `roles` claim its groups. */
  client(role: Actor): JsonClient {
    return new JsonClient(this.#baseUrl()).with(this.headers(role));
  }

  /** The headers `client(role)` sends: none for `anonymous`, else the role's bearer token. */
  headers(role: Actor): Record<string, string> {
    if (role === "anonymous") return {};
    const [sub, roles] = {
      reader: [`reader-${this.run}@example.com`, ["reader"]],
      author: [this.email.author, ["writer"]],
      other: [this.email.other, ["writer"]],
      editor: [`ed-${this.run}@example.com`, ["editor"]],
      admin: [`root-${this.run}@example.com`, ["admin"]],
    }[role] as [string, string[]];
    return { authorization: `Bearer ${signJwt(claims({ sub, roles, ...this.#extra(role) }), this.#secret)}` };
  }

  /** The two authors, each created by its writer (who then owns it). */
  async createAuthors(): Promise<void> {
    for (const key of ["author", "other"] as const) {
      const reply = await this.client(key).post("/authors", { name: this.email[key], email: this.email[key] });
      expectStatus(reply, 201, `${key} creates an author`);
      this.authors[key] = (reply.body as { id: string }).id;
    }
  }

  /** A new article of `author` (one of `authors`), created by its writer, who owns it; its id. */
  async article(author: string, published: boolean, title = `t-${randomUUID()}`): Promise<string> {
    const writer = author === this.authors.other ? "other" : "author";
    const reply = await this.client(writer).post("/articles", { title, body: "words", published, author_id: author });
    expectStatus(reply, 201, `${writer} creates an article`);
    return (reply.body as { id: string }).id;
  }
}

/**
 * The replies to `role` of every route a matrix may check, each on fresh rows: an article
 * of the author and one of the other author, published and draft. In an order where no
 * route changes a row a later one needs as it was.
 */
export async function matrixReplies(blog: BlogRoles, role: Role): Promise<Record<string, Reply>> {
  const as = blog.client(role);
  const { authors } = blog;
  const rows = {
    published: await blog.article(authors.author, true),
    draft: await blog.article(authors.author, false),
    otherDraft: await blog.article(authors.other, false),
    otherPublished: await blog.article(authors.other, true),
  };
  // What the permissions routes say of each row, asked before any route below changes it.
  const permissions: Record<string, Reply> = { "permissions of the collection": await as.get("/articles/permissions") };
  for (const [row, id] of Object.entries(rows)) permissions[`permissions of ${row}`] = await as.get(`/articles/${id}/permissions`);
  return {
    ...permissions,
    "get a published article": await as.get(`/articles/${rows.published}`),
    "get the author's draft": await as.get(`/articles/${rows.draft}`),
    "get another author's draft": await as.get(`/articles/${rows.otherDraft}`),
    list: await as.get("/articles?limit=100"),
    create: await as.post("/articles", { title: "new", body: "b", author_id: authors.author }),
    "update the author's published article": await as.patch(`/articles/${rows.published}`, { title: "changed" }),
    "update another author's draft": await as.patch(`/articles/${rows.otherDraft}`, { title: "changed" }),
    "update another author's published article": await as.patch(`/articles/${rows.otherPublished}`, { title: "changed" }),
    "publish a published article": await as.post(`/articles/${rows.published}/publish-article`),
    "publish the author's draft": await as.post(`/articles/${rows.draft}/publish-article`),
    "publish another author's draft": await as.post(`/articles/${rows.otherDraft}/publish-article`),
    "delete a published article": await as.delete(`/articles/${rows.otherPublished}`),
  };
}

/** The row each matrix route acts on (`matrixReplies`' rows; none: the collection), and the operation it calls. */
const ROUTE_OPERATIONS: Record<string, { row?: string; operation: string }> = {
  "get a published article": { row: "published", operation: "get" },
  "get the author's draft": { row: "draft", operation: "get" },
  "get another author's draft": { row: "otherDraft", operation: "get" },
  list: { operation: "list" },
  create: { operation: "create" },
  "update the author's published article": { row: "published", operation: "update" },
  "update another author's draft": { row: "otherDraft", operation: "update" },
  "update another author's published article": { row: "otherPublished", operation: "update" },
  "publish a published article": { row: "published", operation: "publish_article" },
  "publish the author's draft": { row: "draft", operation: "publish_article" },
  "publish another author's draft": { row: "otherDraft", operation: "publish_article" },
  "delete a published article": { row: "otherPublished", operation: "delete" },
};

/**
 * The permissions routes named exactly the operations the matrix's routes then let `role`
 * call: an operation is listed for its row (or the collection) when its route answered 2xx,
 * and missing when it answered 403; a row the route answered 404 (hidden) is a 404 there too
 * (and a route refused a hidden row by its groups before looking is a 403), and without a
 * token both are 401.
 */
export function expectPermissionsMatch(matrix: Matrix, replies: Record<string, Reply>, role: Role): void {
  for (const route of Object.keys(matrix)) {
    const { row, operation } = ROUTE_OPERATIONS[route]!;
    const status = replies[route]!.status;
    const permissions = replies[`permissions of ${row ?? "the collection"}`]!;
    if (status === 401 || status === 404) {
      expectStatus(permissions, status, `${role}: the permissions of ${row ?? "the collection"}, where ${route} answered ${status}`);
      continue;
    }
    // A hidden row (a group check refused the route before it looked for the row).
    if (permissions.status === 404) {
      assert.equal(status, 403, `${role}: ${route} answered ${status} on a row whose permissions are a 404`);
      continue;
    }
    expectStatus(permissions, 200, `${role}: the permissions of ${row ?? "the collection"}`);
    const scope = row === undefined ? "collection" : "object";
    const names = (permissions.body as { name: string; scope: string }[]).filter((action) => action.scope === scope).map((action) => action.name);
    assert.equal(names.includes(operation), status < 300, `${role}: ${operation} listed for ${row ?? "the collection"} (${JSON.stringify(names)}), where ${route} answered ${status}`);
  }
}

/** Each reply has the status `matrix` gives `role` for its route; a 401 or 403 has a JSON detail. */
export function expectMatrix(matrix: Matrix, replies: Record<string, Reply>, role: Role): void {
  for (const [route, expected] of Object.entries(matrix)) {
    const reply = replies[route]!;
    expectStatus(reply, expected[role], `${role}: ${route}`);
    if (reply.status === 401 || reply.status === 403) assert.equal(typeof (reply.body as { detail?: unknown }).detail, "string", `${role}: ${route}: a JSON detail`);
  }
}

/** The ids of a page's items. */
export function listedIds(reply: Reply): Set<string> {
  return new Set((reply.body as { items: { id: string }[] }).items.map((item) => item.id));
}

/** `as` lists exactly the articles it may get: every listed one answers get, and each of `rows` is listed when get answers it. */
export async function expectListIsGet(as: JsonClient, rows: string[], role: Role): Promise<Set<string>> {
  const listed = await as.get("/articles?limit=100");
  expectStatus(listed, 200, `${role} lists`);
  const shown = listedIds(listed);
  for (const id of shown) expectStatus(await as.get(`/articles/${id}`), 200, `${role} gets a listed row`);
  for (const id of rows) assert.equal(shown.has(id), (await as.get(`/articles/${id}`)).status === 200, `${role}: row ${id} listed exactly when get answers it`);
  return shown;
}

/** After 20 more articles, `roles`' list pages cost `before.statements` statements still, and the search route shows what the list shows. */
export async function expectConstantStatements(blog: BlogRoles, before: Reply, roles: Role[]): Promise<void> {
  for (let i = 0; i < 20; i++) await blog.article(i % 2 === 0 ? blog.authors.author : blog.authors.other, i % 3 === 0);
  for (const role of roles) {
    const first = await blog.client(role).get("/articles?limit=100");
    const search = await blog.client(role).post("/articles/search", { limit: 100 });
    expectStatus(search, 200, `${role} searches`);
    assert.deepEqual(listedIds(search), listedIds(first), `${role}: the search route shows what the list shows`);
    assert.ok(first.statements > 0);
    assert.equal(first.statements, before.statements, `${role}: statements per list page stay ${before.statements}`);
  }
}
