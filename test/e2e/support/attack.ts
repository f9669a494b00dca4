/**
 * The visibility attack matrix of the blog's authorization examples (test/e2e/authz.test.ts,
 * test/e2e/opa.test.ts): two writers, an editor and a reader, each with drafts the others may
 * not see. On every read path (get, lists, search, the author's nested articles, comments,
 * `/_values`, the permissions routes) a hidden row never appears: not by id, not in any
 * field, not in any count; its permissions answer as a missing row's.
 * Every write path (update, delete, the article actions, a comment under the draft, and the
 * take-overs of another writer's rows) refuses, and the rows stay as they were.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { it } from "node:test";
import { type JsonClient, type Reply, expectStatus } from "../../support/http.js";
import type { Actor, BlogRoles } from "./roles.js";

type Viewer = Extract<Actor, "reader" | "author" | "other" | "editor">;
export const VIEWERS: Viewer[] = ["reader", "author", "other", "editor"];

/** A writer's rows: an author, a draft with a comment, a published article with a comment. */
interface Owned {
  author: string;
  draft: string;
  draftTitle: string;
  draftComment: string;
  draftCommentBody: string;
  published: string;
}

/** The rows of both writers, each with markers unique to this run. */
export interface AttackRows {
  marker: string;
  author: Owned;
  other: Owned;
  tag: number;
}

/** Creates each writer's rows as that writer (who then owns them), and a tag. */
export async function attackRows(blog: BlogRoles): Promise<AttackRows> {
  const marker = `DRAFT${randomUUID().slice(0, 8)}`;
  const owned = async (writer: "author" | "other"): Promise<Owned> => {
    const as = blog.client(writer);
    const author = blog.authors[writer];
    const draftTitle = `${marker} ${writer} secret ${randomUUID()}`;
    const draft = await blog.article(author, false, draftTitle);
    const published = await blog.article(author, true);
    const draftCommentBody = `${marker} comment ${randomUUID()}`;
    const comment = await as.post("/comments", { body: draftCommentBody, article_id: draft, author_id: author });
    expectStatus(comment, 201, `${writer} comments on their draft`);
    expectStatus(await as.post("/comments", { body: "on the published one", article_id: published, author_id: author }), 201, `${writer} comments`);
    return { author, draft, draftTitle, draftComment: (comment.body as { id: string }).id, draftCommentBody, published };
  };
  const tag = await blog.client("editor").post("/tags", { name: `tag-${marker}` });
  expectStatus(tag, 201, "editor creates a tag");
  return { marker, author: await owned("author"), other: await owned("other"), tag: (tag.body as { id: number }).id };
}

/** The writers whose drafts `viewer` may not see. */
export function hiddenFrom(viewer: Viewer): ("author" | "other")[] {
  return { reader: ["author", "other"], author: ["other"], other: ["author"], editor: [] }[viewer] as ("author" | "other")[];
}

/** Everything that must never reach `viewer`: the hidden drafts' ids and titles, their comments' ids and bodies. */
function secrets(rows: AttackRows, viewer: Viewer): string[] {
  return hiddenFrom(viewer).flatMap((writer) => {
    const owned = rows[writer];
    return [owned.draft, owned.draftTitle, owned.draftComment, owned.draftCommentBody];
  });
}

/** Every read path of the blog, as `as` sees it, each answering 200. */
async function reads(as: JsonClient, rows: AttackRows): Promise<Record<string, Reply>> {
  const drafts = [rows.author.draft, rows.other.draft];
  const replies: Record<string, Reply> = {
    "list articles": await as.get("/articles?limit=100"),
    "list articles by id": await as.get(`/articles?id__in=${drafts.join(",")}`),
    "list articles by title": await as.get(`/articles?title__contains=${rows.marker}&limit=100`),
    "full-text search": await as.get(`/articles?q=secret&limit=100`),
    "search route": await as.post("/articles/search", {
      filter: { or: [{ field: "id", op: "in", value: drafts }, { field: "title", op: "contains", value: rows.marker }] },
      limit: 100,
    }),
    "an author with their articles": await as.get(`/authors/${rows.author.author}`),
    "the other author with their articles": await as.get(`/authors/${rows.other.author}`),
    "list authors with their articles": await as.get("/authors?limit=100"),
    "search authors": await as.get(`/authors?q=${encodeURIComponent(rows.author.author.slice(0, 4))}&limit=100`),
    "list comments": await as.get("/comments?limit=100"),
    "comments of the drafts": await as.get(`/comments?article_id__in=${drafts.join(",")}`),
    "a published article with its comments": await as.get(`/articles/${rows.author.published}`),
    "values of article titles": await as.post("/_values", { resource: "article", field: "title", q: rows.marker, limit: 100 }),
    "values of article ids": await as.post("/_values", { resource: "article", field: "id", limit: 100 }),
    "values of article ids by title": await as.post("/_values", { resource: "article", field: "id", q: rows.marker, limit: 100 }),
    "values of comments' articles": await as.post("/_values", { resource: "comment", field: "article_id", q: rows.marker, limit: 100 }),
    "values of publish dates": await as.post("/_values", { resource: "article", field: "publish_on", limit: 100 }),
    "filters": await as.get("/_filters"),
    "the articles' permissions": await as.get("/articles/permissions"),
  };
  for (const [path, reply] of Object.entries(replies)) expectStatus(reply, 200, path);
  return replies;
}

/** `viewer` never meets a hidden row: every read answers without its id or text, lookups by its key are 404, offered ids all answer get. */
export async function expectHiddenOnReads(blog: BlogRoles, rows: AttackRows, viewer: Viewer): Promise<void> {
  const as = blog.client(viewer);
  const replies = await reads(as, rows);
  const hidden = secrets(rows, viewer);
  for (const [path, reply] of Object.entries(replies)) {
    const text = JSON.stringify(reply.body);
    for (const secret of hidden) assert.ok(!text.includes(secret), `${viewer}: ${path} shows ${secret}`);
  }
  const missing = randomUUID();
  const missingPermissions = await as.get(`/articles/${missing}/permissions`);
  expectStatus(missingPermissions, 404, `${viewer}: the permissions of a missing article`);
  for (const writer of hiddenFrom(viewer)) {
    // The permissions of a hidden draft answer as those of a missing one: nothing of it leaks, not even that it exists.
    const permissions = await as.get(`/articles/${rows[writer].draft}/permissions`);
    expectStatus(permissions, 404, `${viewer}: the permissions of ${writer}'s draft`);
    assert.equal(JSON.stringify(permissions.body).replace(rows[writer].draft, missing), JSON.stringify(missingPermissions.body), `${viewer}: a hidden draft's permissions answer as a missing one's`);
    expectStatus(await as.get(`/articles/${rows[writer].draft}`), 404, `${viewer} gets ${writer}'s draft`);
    expectStatus(await as.get(`/comments/${rows[writer].draftComment}`), 404, `${viewer} gets the comment on ${writer}'s draft`);
  }
  // What the viewer may see is there: its own draft, and for the editor every draft (the rule is not just "no drafts").
  const visible = (["author", "other"] as const).filter((writer) => !hiddenFrom(viewer).includes(writer));
  const listed = JSON.stringify(replies["list articles by title"]!.body);
  for (const writer of visible) assert.ok(listed.includes(rows[writer].draft), `${viewer} lists ${writer}'s draft`);
  // Counts: every id offered or nested is one the viewer may get, and an author nests as many articles as the list shows of them.
  const offered = (replies["values of article ids"]!.body as { values: { value: string }[] }).values.map((choice) => choice.value);
  for (const id of offered) expectStatus(await as.get(`/articles/${id}`), 200, `${viewer} gets an offered article`);
  for (const writer of ["author", "other"] as const) {
    const nested = (replies[writer === "author" ? "an author with their articles" : "the other author with their articles"]!.body as { articles: { id: string }[] }).articles;
    const listedOfAuthor = await as.get(`/articles?author_id=${rows[writer].author}&limit=100`);
    expectStatus(listedOfAuthor, 200);
    assert.deepEqual(
      new Set(nested.map((article) => article.id)),
      new Set((listedOfAuthor.body as { items: { id: string }[] }).items.map((item) => item.id)),
      `${viewer}: ${writer}'s nested articles are the ones the list shows`,
    );
  }
}

/** Each write `viewer` tries on another writer's hidden draft and its comment is refused. */
export async function expectHiddenRefusesWrites(blog: BlogRoles, rows: AttackRows, viewer: Viewer): Promise<void> {
  const as = blog.client(viewer);
  const own = viewer === "author" || viewer === "other" ? blog.authors[viewer] : rows.author.author;
  for (const writer of hiddenFrom(viewer)) {
    const { draft, draftComment } = rows[writer];
    const attempts: Record<string, Reply> = {
      update: await as.patch(`/articles/${draft}`, { title: "taken" }),
      delete: await as.delete(`/articles/${draft}`),
      "schedule-article": await as.post(`/articles/${draft}/schedule-article`, { publish_on: "2031-01-01", note: null }),
      "tag-article": await as.post(`/articles/${draft}/tag-article`, { tag_id: rows.tag }),
      "publish-article": await as.post(`/articles/${draft}/publish-article`),
      "a comment under it": await as.post("/comments", { body: "sneaky", article_id: draft, author_id: own }),
      "update its comment": await as.patch(`/comments/${draftComment}`, { body: "taken" }),
      "delete its comment": await as.delete(`/comments/${draftComment}`),
    };
    for (const [what, reply] of Object.entries(attempts)) {
      assert.ok([403, 404, 422].includes(reply.status), `${viewer}: ${what} on ${writer}'s draft answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      assert.ok(!JSON.stringify(reply.body).includes(rows[writer].draftTitle), `${viewer}: ${what} shows the draft`);
    }
  }
}

/** The other writer tries to take over the author's rows it may see; each attempt is refused. */
export async function expectNoTakeOver(blog: BlogRoles, rows: AttackRows): Promise<void> {
  const other = blog.client("other");
  const mine = rows.other.author;
  const victim = rows.author;
  const attempts: Record<string, Reply> = {
    "the author's email set to the other's subject": await other.patch(`/authors/${victim.author}`, { email: blog.email.other }),
    "the author's name": await other.patch(`/authors/${victim.author}`, { name: "mine now" }),
    "delete the author": await other.delete(`/authors/${victim.author}`),
    "an article under the author": await other.post("/articles", { title: "as ada", body: "b", author_id: victim.author }),
    "move an own article to the author": await other.patch(`/articles/${rows.other.published}`, { author_id: victim.author }),
    "a comment as the author": await other.post("/comments", { body: "as ada", article_id: victim.published, author_id: victim.author }),
    "update the author's published article": await other.patch(`/articles/${victim.published}`, { title: "taken" }),
    "schedule the author's published article": await other.post(`/articles/${victim.published}/schedule-article`, { publish_on: "2031-01-01", note: null }),
    "tag the author's published article": await other.post(`/articles/${victim.published}/tag-article`, { tag_id: rows.tag }),
  };
  for (const [what, reply] of Object.entries(attempts)) expectStatus(reply, 403, `other: ${what}`);
  // Ownership is not an email: the other writer's own author row may take any free email, and still owns nothing more.
  expectStatus(await other.patch(`/authors/${mine}`, { email: `renamed-${randomUUID()}@example.com` }), 200, "other renames their own author");
  expectStatus(await other.get(`/articles/${victim.draft}`), 404, "other still cannot see the author's draft");
}

/** As the editor: the drafts and their comments are as their writers left them. */
export async function expectUnchanged(blog: BlogRoles, rows: AttackRows): Promise<void> {
  const editor = blog.client("editor");
  for (const writer of ["author", "other"] as const) {
    const draft = await editor.get(`/articles/${rows[writer].draft}`);
    expectStatus(draft, 200, `editor gets ${writer}'s draft`);
    const body = draft.body as { title: string; publish_on: string | null; published: boolean; tags: unknown[]; comments: { id: string; body: string }[] };
    assert.equal(body.title, rows[writer].draftTitle);
    assert.equal(body.publish_on, null);
    assert.equal(body.published, false);
    assert.deepEqual(body.tags, []);
    assert.deepEqual(body.comments.map((comment) => comment.body), [rows[writer].draftCommentBody]);
  }
  const author = await editor.get(`/authors/${rows.author.author}`);
  expectStatus(author, 200);
  assert.equal((author.body as { email: string }).email, blog.email.author);
}

/** The matrix's tests, for a suite whose server `blog` signs in to: each viewer, then the take-overs. */
export function attackMatrix(blog: BlogRoles): void {
  for (const viewer of VIEWERS) {
    it(`${viewer}: no read path shows a hidden row, no write path reaches it`, async () => {
      const rows = await attackRows(blog);
      await expectHiddenOnReads(blog, rows, viewer);
      await expectHiddenRefusesWrites(blog, rows, viewer);
      await expectUnchanged(blog, rows);
    });
  }

  it("a writer cannot take over another writer's author, articles or comments", async () => {
    const rows = await attackRows(blog);
    await expectNoTakeOver(blog, rows);
    await expectUnchanged(blog, rows);
  });
}
