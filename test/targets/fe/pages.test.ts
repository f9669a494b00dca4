// The pages' model, read from the blog backend's saved OpenAPI document: resources found by
// the HTTP conventions, keys, titles, columns, references and nested links; the config's
// presentation keys; every mistake reported at its config path; and user text escaped.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { buildFiles, discoverTargets } from "../../../src/codegen/index.js";
import { ProjectConfig } from "../../../src/targets/fe/config.js";
import { jsxAttr, jsxText } from "../../../src/targets/fe/pages/code.js";
import { clientName, sentence } from "../../../src/targets/fe/pages/model.js";
import { assertIssues, parse } from "../../helpers/schema.js";
import { repoRoot } from "../../helpers/user-project.js";

const BLOG = readFileSync(join(repoRoot, "test", "targets", "fe", "configs", "blog.openapi.json"), "utf8");
const base = { input: "openapi.json", tanstack_query: true };

function model(pages: Record<string, unknown> = {}, openapi = BLOG) {
  return parse(ProjectConfig, { ...base, pages: { openapi, ...pages } }).pages_model!;
}

/** The blog document without what says which operations the user may call (articles' permissions routes and rows' `actions`). */
function withoutPermissions(document: any): void {
  delete document.paths["/articles/permissions"];
  delete document.paths["/articles/{pk}/permissions"];
  for (const schema of ["ArticleRead", "ArticleSummary"]) delete document.components.schemas[schema].properties.actions;
}

/** The fe target's files for the pages of `openapi` (the blog document's, built once for the tests that only read them). */
async function pagesOf(openapi: string) {
  const fe = (await discoverTargets()).find((target) => target.name === "fe")!;
  return buildFiles(fe, parse(ProjectConfig, { ...base, pages: { openapi } }));
}
let blogFiles: ReturnType<typeof pagesOf> | undefined;
const blogPages = () => (blogFiles ??= pagesOf(BLOG));

/** The blog document with `change` applied. */
function changed(change: (document: any) => void): string {
  const document = JSON.parse(BLOG);
  change(document);
  return JSON.stringify(document);
}

describe("the pages' model of the blog document", () => {
  const blog = model();
  const resource = (key: string) => blog.resources.find((candidate) => candidate.key === key)!;

  test("finds every resource, in the document's order, with its operations", () => {
    assert.deepEqual(blog.resources.map((candidate) => candidate.key), ["authors", "articles", "tags", "comments", "categories", "attachments"]);
    const articles = resource("articles");
    assert.deepEqual(
      [articles.list?.fn, articles.get?.fn, articles.create?.fn, articles.update?.fn, articles.delete?.fn],
      ["listArticles", "getArticle", "createArticle", "updateArticle", "deleteArticle"],
    );
    assert.deepEqual(
      articles.actions.map((action) => [action.fn, action.target, action.params?.bodyType ?? null]),
      [
        ["publishArticle", "instance", null],
        ["scheduleArticle", "instance", "ScheduleArticleParams"],
        ["tagArticle", "instance", "TagArticleParams"],
        ["archiveStaleArticles", "collection", "ArchiveStaleArticlesParams"],
        ["countWords", "collection", "CountWordsParams"],
        ["reviewArticle", "instance", null],
      ],
    );
    assert.equal(articles.list!.secured, false, "anyone may list articles (config/frontend.jsonnet)");
    assert.equal(articles.create!.secured, true);
    assert.equal(blog.tokenFn, "issueAccessToken");
    assert.equal(blog.title, "Blog");
  });

  test("a POST answering with the list's page is the list's search, not an action", () => {
    const withSearch = changed((document) => {
      const list = document.paths["/articles"].get;
      document.paths["/articles/search"] = { post: { operationId: "searchArticles", responses: { 200: list.responses["200"] } } };
    });
    const actions = model({}, withSearch).resources.find((candidate) => candidate.key === "articles")!.actions;
    assert.equal(actions.some((action) => action.fn === "searchArticles"), false);
    assert.equal(actions.length, 6);
  });

  test("a list answering with a shape of its own, paged by offset: its type, its columns, its paging", () => {
    const summary = changed((document) => {
      const read = document.components.schemas.ArticleRead.properties;
      document.components.schemas.ArticleSummary = { type: "object", properties: { id: read.id, title: read.title, author: read.author, rating: read.rating } };
      document.components.schemas.Page_ArticleSummary_ = {
        type: "object",
        properties: { items: { type: "array", items: { $ref: "#/components/schemas/ArticleSummary" } }, next_offset: { anyOf: [{ type: "integer" }, { type: "null" }] } },
      };
      document.paths["/articles"].get.responses["200"].content["application/json"].schema.$ref = "#/components/schemas/Page_ArticleSummary_";
      document.paths["/articles"].get.parameters.find((parameter: { name: string }) => parameter.name === "limit").schema = { type: "integer", maximum: 40, default: 20 };
    });
    const articles = (pages: Record<string, unknown>) => model(pages, summary).resources.find((candidate) => candidate.key === "articles")!.list!;
    const list = articles({});
    assert.deepEqual([list.itemType, list.paging, list.pageSize, list.maxLimit, list.total], ["ArticleSummary", "offset", 20, 40, false]);
    // The categories' offset pages count their rows when asked (`?total=true`); keyset pages cannot.
    assert.deepEqual(["categories", "articles"].map((key) => resource(key).list!.total), [true, false]);
    // No page larger than the backend serves.
    assertIssues(ProjectConfig, { ...base, pages: { openapi: summary, resources: { articles: { page_size: 41 } } } }, [
      { path: "pages.resources.articles.page_size", message: "the list serves at most 40 rows a page" },
    ]);
    assert.deepEqual(list.columns.map((field) => field.name), ["title", "author", "rating"]);
    const configured = articles({ resources: { articles: { columns: ["rating", "title"] } } });
    assert.deepEqual(configured.columns.map((field) => field.name), ["rating", "title"]);
    // A configured column is a read field the summary may lack: the page cannot show it, and says so.
    assertIssues(ProjectConfig, { ...base, pages: { openapi: summary, resources: { articles: { columns: ["rating", "body", "title"] } } } }, [
      { path: "pages.resources.articles.columns[1]", message: 'the list answers with ArticleSummary, which has no field "body": add it to that representation in the backend, or leave the column out' },
    ]);
  });

  test("a list's query: search, the fields order_by takes, the filters and their labels", () => {
    const list = resource("articles").list!;
    assert.equal(list.search, true);
    assert.deepEqual(list.orderFields, ["title", "rating", "published_at", "word_count"]);
    assert.deepEqual(blog.catalog, { catalogFn: "listFilters", valuesFn: "listFilterValues", needsSession: true }, "the list is public, the catalog is not (config/frontend.jsonnet)");
    assert.deepEqual(list.filters?.fields, [
      { name: "title", label: "Title" },
      { name: "published", label: "Published" },
      { name: "status", label: "Status" },
      { name: "rating", label: "Rating" },
      { name: "word_count", label: "Word count" },
      { name: "publish_on", label: "Publish on" },
      { name: "author_id", label: "Author", references: "authors" },
      { name: "id", label: "Article", references: "articles" },
    ]);
    // Tags are ordered, not searched nor filtered; without /_filters no list has a filter bar.
    const tags = resource("tags").list!;
    assert.deepEqual([tags.search, tags.orderFields, tags.filters], [false, ["name"], undefined]);
    const noDiscovery = model({}, changed((document) => delete document.paths["/_values"]));
    assert.equal(noDiscovery.resources.find((candidate) => candidate.key === "articles")!.list!.filters, undefined);
    assert.equal(noDiscovery.catalog, undefined, "nor do the forms' pickers ask /_values");
  });

  test("keeps the order of each schema's properties (importstr, not import)", () => {
    assert.deepEqual(resource("articles").create!.fields.map((field) => field.name), [
      "title", "body", "published", "published_at", "publish_on", "word_count", "rating", "extra", "author_id", "tags",
    ]);
  });

  test("a body's list of keys is a field of many keys of the referenced resource, labelled by its name", () => {
    for (const form of [resource("articles").create!, resource("articles").update!]) {
      const tags = form.fields.find((field) => field.name === "tags")!;
      assert.deepEqual([tags.kind, tags.many, tags.references, tags.label], ["int", true, "tags", "Tags"]);
    }
  });

  test("names, keys, titles and default columns", () => {
    const articles = resource("articles");
    assert.deepEqual([articles.pascal, articles.label, articles.plural, articles.keyField, articles.keyKind, articles.titleField], ["Article", "Article", "Articles", "id", "uuid", "title"]);
    // The list answers with the summary representation: its columns are the summary's fields.
    assert.deepEqual(articles.list!.columns.map((field) => field.name), ["title", "published", "status", "published_at", "rating", "word_count"]);
    assert.deepEqual([resource("tags").keyKind, resource("tags").keyField], ["int", "id"]);
    // No `id`: the first field of the key's type; a title among the usual names.
    assert.deepEqual([resource("categories").keyField, resource("categories").titleField], ["slug", "title"]);
    assert.equal(resource("comments").titleField, "body", "the first text field when no usual name is there");
  });

  test("references by convention, nested objects linked to their resources", () => {
    const field = (key: string, name: string) => resource(key).readFields.find((candidate) => candidate.name === name)!;
    assert.equal(field("articles", "author_id").references, "authors");
    assert.equal(field("articles", "author_id").label, "Author");
    assert.equal(field("comments", "article_id").references, "articles");
    assert.deepEqual([field("articles", "author").link, field("articles", "tags").link, field("articles", "comments").link], ["authors", "tags", "comments"]);
    const tagId = resource("articles").actions.find((action) => action.fn === "tagArticle")!.params!.fields[0]!;
    assert.deepEqual([tagId.name, tagId.references], ["tag_id", "tags"]);
  });

  test("the document's x-pk and x-references come before the conventions", () => {
    const document = changed((doc) => {
      doc.components.schemas.CategoryRead["x-pk"] = "title";
      doc.components.schemas.ArticleCreate.properties.author_id["x-references"] = "comments";
    });
    const withHints = model({}, document);
    assert.equal(withHints.resources.find((candidate) => candidate.key === "categories")!.keyField, "title");
    const create = withHints.resources.find((candidate) => candidate.key === "articles")!.create!;
    assert.equal(create.fields.find((field) => field.name === "author_id")!.references, "comments");
  });

  test("the config's presentation keys", () => {
    const custom = model({
      title: "Editorial",
      navigation: ["tags", "articles"],
      resources: {
        articles: { label: "Story", plural: "Stories", title_field: "body", columns: ["author", "title"], page_size: 5, fields: { author_id: { label: "Writer" }, body: { multiline: true } } },
        comments: { fields: { article_id: { references: null } } },
      },
    });
    assert.equal(custom.title, "Editorial");
    assert.deepEqual(custom.navigation.map((candidate) => candidate.key), ["tags", "articles"]);
    const articles = custom.resources.find((candidate) => candidate.key === "articles")!;
    assert.deepEqual([articles.label, articles.plural, articles.titleField, articles.list!.pageSize], ["Story", "Stories", "body", 5]);
    assert.deepEqual(articles.list!.columns.map((field) => field.name), ["author", "title"]);
    assert.equal(articles.create!.fields.find((field) => field.name === "author_id")!.label, "Writer");
    assert.equal(articles.create!.fields.find((field) => field.name === "body")!.multiline, true);
    const comments = custom.resources.find((candidate) => candidate.key === "comments")!;
    assert.equal(comments.readFields.find((field) => field.name === "article_id")!.references, undefined);
  });
});

describe("the session and groups, from the document", () => {
  test("a backend that reads the token from a cookie gets cookie sessions; without the scheme, bearer tokens", () => {
    assert.deepEqual(model().cookieSession, { sessionFn: "getCurrentSession", logoutFn: "revokeAccessToken", sessionPath: "/auth/session" });
    const bearerOnly = model({}, changed((document) => delete document.components.securitySchemes.APIKeyCookie));
    assert.equal(bearerOnly.cookieSession, undefined);
    assert.equal(bearerOnly.tokenFn, "issueAccessToken");
    const noSessionEndpoint = model({}, changed((document) => delete document.paths["/auth/session"]));
    assert.equal(noSessionEndpoint.cookieSession, undefined, "without GET /auth/session the page could not know who is signed in");
    assert.ok(!model().resources.some((resource) => resource.key === "auth/session"), "the session endpoint is no resource");
  });

  test("x-groups restrict an operation; operations without it are open to every user", () => {
    const blog = model();
    const articles = blog.resources.find((resource) => resource.key === "articles")!;
    assert.deepEqual(articles.delete!.groups, ["admin", "editor"]);
    assert.deepEqual(articles.actions.find((action) => action.fn === "publishArticle")!.groups, ["admin", "editor"]);
    assert.equal(articles.update!.groups, undefined);
    assert.equal(articles.actions.find((action) => action.fn === "scheduleArticle")!.groups, undefined);
    assert.deepEqual(blog.resources.find((resource) => resource.key === "comments")!.list!.groups, ["admin", "editor"]);
    // Without a token flow there is no session to ask, so nothing is hidden.
    const noLogin = model({}, changed((document) => delete document.components.securitySchemes.OAuth2PasswordBearer));
    assert.equal(noLogin.resources.find((resource) => resource.key === "articles")!.delete!.groups, undefined);
  });
});

describe("pages config errors", () => {
  test("every mistake at its path", () => {
    assertIssues(ProjectConfig, { ...base, pages: { openapi: BLOG, navigation: ["articles", "posts"], resources: { posts: {}, articles: { columns: ["title", "summary"], key: "uuid", title_field: "headline", fields: { author_id: { references: "writers" }, nope: {} } } } } }, [
      { path: "pages.resources.posts", message: 'no resource at /posts in the OpenAPI document; known resources: "authors", "articles", "tags", "comments", "categories", "attachments"' },
      { path: "pages.resources.articles.fields.nope", message: 'no field "nope" in the schemas of /articles' },
      { path: "pages.resources.articles.key", message: 'the read schema ArticleRead has no field "uuid"; set key' },
      { path: "pages.resources.articles.title_field", message: 'the read schema ArticleRead has no field "headline"' },
      { path: "pages.resources.articles.columns[1]", message: 'the read schema ArticleRead has no field "summary"' },
      { path: "pages.navigation[1]", message: 'no resource at /posts in the OpenAPI document; known resources: "authors", "articles", "tags", "comments", "categories", "attachments"' },
      { path: "pages.resources.articles.fields.author_id.references", message: 'no resource at /writers in the OpenAPI document; known resources: "authors", "articles", "tags", "comments", "categories", "attachments"' },
    ]);
  });

  test("actions: an unknown one, and confirm on one whose form already asks", () => {
    assertIssues(ProjectConfig, { ...base, pages: { openapi: BLOG, resources: { articles: { actions: { "publish-article": { confirm: true }, "schedule-article": { confirm: true }, "burn-article": {} } } } } }, [
      { path: "pages.resources.articles.actions.schedule-article.confirm", message: "the action takes params: its form is where the reader confirms; confirm is for actions without params" },
      { path: "pages.resources.articles.actions.burn-article", message: 'no action "burn-article" at /articles; known actions: "publish-article", "schedule-article", "tag-article", "archive-stale-articles", "count-words", "review-article"' },
    ]);
    const confirmed = model({ resources: { articles: { actions: { "review-article": { confirm: true } } } } });
    const actions = confirmed.resources.find((resource) => resource.key === "articles")!.actions;
    assert.deepEqual(actions.filter((action) => action.confirm).map((action) => action.slug), ["review-article"]);
  });

  test("the document: text, JSON, OpenAPI 3", () => {
    assertIssues(ProjectConfig, { ...base, pages: { openapi: JSON.parse(BLOG) } }, [
      { path: "pages.openapi", message: "must be the document's text: importstr '../openapi.json' (not import)" },
    ]);
    const notJson = ProjectConfig.safeParse({ ...base, pages: { openapi: "{ nope" } });
    assert.deepEqual(notJson.error?.issues.map((issue) => [issue.path.join("."), issue.message.split(":")[0]]), [["pages.openapi", "is not JSON"]]);
    assertIssues(ProjectConfig, { ...base, pages: { openapi: JSON.stringify({ swagger: "2.0", info: { title: "x" }, paths: {} }) } }, [
      { path: "pages.openapi.openapi", message: "Invalid input: expected string, received undefined" },
    ]);
    assertIssues(ProjectConfig, { ...base, pages: { openapi: changed((doc) => (doc.components.schemas.ArticleRead.properties.title = { anyOf: [{ type: "string" }, { type: "integer" }] })) } }, [
      { path: "pages.openapi.components.schemas.ArticleRead.properties.title", message: "a field of several types cannot be shown or edited by the pages" },
    ]);
  });

  test("pages need TanStack Query, the fetch client and a client inside src/", () => {
    assertIssues(ProjectConfig, { input: "openapi.json", client: "@hey-api/client-axios", output: "client", pages: { openapi: BLOG } }, [
      { path: "tanstack_query", message: "must be true with pages: the pages call the backend through the TanStack Query helpers" },
      { path: "client", message: 'must be "@hey-api/client-fetch" with pages' },
      { path: "output", message: 'must be a directory inside src/ with pages, like "src/client"' },
    ]);
  });
});

describe("names and text in generated code", () => {
  // The blog's articles with an enum field (the component Pydantic writes for a Python Enum),
  // built once for the tests below: a build of every page is the costly part.
  const withStatus = changed((document) => {
    const status = { $ref: "#/components/schemas/ArticleStatus" };
    document.components.schemas.ArticleCreate.properties.status = { ...status, default: "draft" };
    document.components.schemas.ArticleUpdate.properties.status = { anyOf: [status, { type: "null" }] };
    document.components.schemas.ArticleRead.properties.status = status;
    document.components.schemas.ArticleCreate.properties.priority = { type: "integer", enum: [1, 2, 3] };
  });
  let blogPages: Promise<{ path: string; content: string }[]> | undefined;
  const buildBlogPages = async () => {
    const fe = (await discoverTargets()).find((target) => target.name === "fe")!;
    const resources = { articles: { actions: { "publish-article": { confirm: true } } }, tags: { columns: ["name"], title_field: "id" } };
    return buildFiles(fe, parse(ProjectConfig, { ...base, pages: { openapi: withStatus, resources } }));
  };

  test("client names follow openapi-ts", () => {
    assert.equal(clientName("listArticles"), "listArticles");
    assert.equal(clientName("issue_access_token_auth_token_post"), "issueAccessTokenAuthTokenPost");
    assert.equal(clientName("Page_ArticleRead_", true), "PageArticleRead");
    assert.equal(sentence("published_at"), "Published at");
    assert.equal(sentence("StockMovement"), "Stock movement");
  });

  test("JSX text and attributes: as written when JSX reads them back unchanged, else a string literal", () => {
    assert.equal(jsxText("New article"), "New article");
    assert.equal(jsxText('Say "hi" {x} <b> & co'), '{"Say \\"hi\\" {x} <b> & co"}');
    assert.equal(jsxText(" padded"), '{" padded"}');
    assert.equal(jsxAttr("label", "It's {ok} <fine>"), 'label="It\'s {ok} <fine>"');
    assert.equal(jsxAttr("label", 'A "quote" & more'), 'label={"A \\"quote\\" & more"}');
  });

  test("every row opens: an empty title falls back to the key, and a list without its title column links by the key; no empty Actions heading", async () => {
    const files = await (blogPages ??= buildBlogPages());
    const content = (path: string) => files.find((file) => file.path === path)!.content;
    assert.match(content("src/generated/articles/article.ts"), /String\(title\)\.trim\(\) === ""\s*\? String\(article\.id\)/);
    const tags = content("src/generated/tags/TagList.tsx");
    const columns = [...tags.matchAll(/^ {4}id: "(\w+)",$/gm)].map((match) => match[1]);
    assert.equal(columns[0], "id", tags);
    assert.match(tags, /<Link to=\{tagPath\(tag\)\}>\{String\(tag\.id\)\}<\/Link>/);
    // Tags have no actions: their pages have no section for them.
    for (const page of [tags, content("src/generated/tags/TagDetail.tsx")]) assert.doesNotMatch(page, /Actions|className="actions"/);
    assert.match(content("src/generated/articles/ArticleActions.tsx"), /label="Publish article"[^]*?confirm\n[^]*?<\/ActionPanel>/);
  });

  test("labels with quotes, braces and tags reach the pages escaped", async () => {
    const fe = (await discoverTargets()).find((target) => target.name === "fe")!;
    const label = 'Posts "quoted" {braced} <b> & co */';
    const config = parse(ProjectConfig, { ...base, pages: { openapi: BLOG, resources: { articles: { plural: label } } } });
    const files = await buildFiles(fe, config);
    const list = files.find((file) => file.path === "src/generated/articles/ArticleList.tsx")!.content;
    // A string literal (prettier picks the quotes), and a comment that stays one.
    assert.ok(list.includes(`<h1>{'Posts "quoted" {braced} <b> & co */'}</h1>`), list);
    assert.ok(list.includes('/** Posts "quoted" {braced} <b> & co *\\/, a page at a time'), list);
    const routes = files.find((file) => file.path === "src/generated/routes.tsx")!.content;
    assert.ok(routes.includes(`label: '${label}'`), routes);
  });

  test("a language the config pins is the one App.tsx chooses; a tag that is none is an error at its path", async () => {
    const fe = (await discoverTargets()).find((target) => target.name === "fe")!;
    const app = (files: { path: string; content: string }[]) => files.find((file) => file.path === "src/generated/App.tsx")!.content;
    const pinned = await buildFiles(fe, parse(ProjectConfig, { ...base, pages: { openapi: BLOG, language: "pt-BR" } }));
    assert.match(app(pinned), /^chooseLanguage\(translations, "pt-BR"\);$/m);
    // Without one (the blog's pages the tests above build), the browser's languages choose.
    assert.match(app(await (blogPages ??= buildBlogPages())), /^chooseLanguage\(translations\);$/m);
    assertIssues(ProjectConfig, { ...base, pages: { openapi: BLOG, language: "French!" } }, [{ path: "pages.language", message: 'must be a language tag like "en", "fr" or "pt-BR"' }]);
  });

  test("an enum field, of strings or numbers, is a select of its members; its value keeps the client's type", async () => {
    const articles = model({}, withStatus).resources.find((resource) => resource.key === "articles")!;
    const status = articles.create!.fields.find((field) => field.name === "status")!;
    assert.deepEqual([status.kind, status.choices, status.default], ["enum", ["draft", "published", "archived"], "draft"]);
    const files = await (blogPages ??= buildBlogPages());
    // Compared without prettier's line breaks and trailing commas.
    const flat = (code: string) => code.replace(/\s+/g, "").replace(/,([\])}])/g, "$1");
    const has = (name: string, code: string) =>
      assert.ok(flat(files.find((file) => file.path === `src/generated/articles/${name}.tsx`)!.content).includes(flat(code)), `${name} lacks ${code}`);
    const members = '["draft", "published", "archived"]';
    has("ArticleCreate", 'status: "draft", priority: "", };');
    has("ArticleCreate", `status: parse.choice("status", draft.status, "optional", ${members} as const)`);
    has("ArticleCreate", `<ChoiceField choices={${members}} label="Status" value={draft.status}`);
    // The read row always has a status, so an edit may not clear it (docs/fe.md, presence).
    has("ArticleEdit", `body.status = parse.choice("status", draft.status, "required", ${members} as const)`);
    has("ArticleEdit", "status: inputText(article.status)");
    // An inline enum of numbers: the same select, each member sent as the number it is.
    has("ArticleCreate", 'priority: parse.choice("priority", draft.priority, "optional", [1, 2, 3] as const)');
    has("ArticleCreate", '<ChoiceField choices={[1, 2, 3]} label="Priority"');
    has("ArticleDetail", "<Plain value={article.status} />");
  });

  test("a section whose actions are all limited to groups shows its heading only to those groups", async () => {
    const fe = (await discoverTargets()).find((target) => target.name === "fe")!;
    const publishOnly = ["publish-article", "schedule-article", "tag-article", "review-article"];
    const limited = changed((document) => {
      for (const [index, action] of publishOnly.entries()) document.paths[`/articles/{pk}/${action}`].post["x-groups"] = index === 0 ? ["editor"] : ["admin"];
      withoutPermissions(document);
    });
    const files = await buildFiles(fe, parse(ProjectConfig, { ...base, pages: { openapi: limited } }));
    const page = (name: string) => files.find((file) => file.path === `src/generated/articles/${name}.tsx`)!.content;
    // Instance actions: all limited, so the heading is wrapped with the union of their groups.
    assert.match(page("ArticleDetail"), /<Allowed groups=\{\["admin", "editor"\]\}>\s*<h2>\{t\.actions\}<\/h2>/);
    // Collection actions: open to everyone, so the heading stands alone.
    assert.match(page("ArticleList"), /\n\s*<h2>\{t\.actions\}<\/h2>/);
    assert.doesNotMatch(page("ArticleList"), /<Allowed[^>]*>\s*<h2>\{t\.actions/);
  });
});

describe("what the backend says a user may call: permissions routes and rows' actions", () => {
  const articles = () => model().resources.find((candidate) => candidate.key === "articles")!;

  test("the articles' permissions routes and rows are found, and each operation's name (x-name)", () => {
    const { permissions, update, actions } = articles();
    assert.deepEqual(permissions, {
      collection: { fn: "getArticlesPermissions", secured: true, name: "permissions" },
      row: { fn: "getArticlePermissions", secured: true, name: "row_permissions" },
      rows: true,
      listRows: true,
    });
    assert.equal(update?.name, "update");
    assert.deepEqual(actions.map((action) => action.name), ["publish_article", "schedule_article", "tag_article", "archive_stale_articles", "count_words", "review_article"]);
    // A row's `actions` is what it permits, no field to show.
    assert.ok(!articles().readFields.some((field) => field.name === "actions"));
  });

  test("the pages offer an operation by the permissions that name it, else by its groups", async () => {
    const page = async (openapi: string, name: string) => (await (openapi === BLOG ? blogPages() : pagesOf(openapi))).find((file) => file.path === `src/generated/articles/${name}.tsx`)!.content;
    const detail = await page(BLOG, "ArticleDetail");
    assert.match(detail, /const permitted = permittedOf\(article\.actions\);/);
    assert.match(detail, /<Permitted by=\{permitted\} names="delete">\s*<DeleteButton/);
    assert.match(detail, /<Permitted by=\{permitted\} names="review_article">\s*<ReviewArticleAction/);
    assert.doesNotMatch(detail, /<Allowed/);
    const list = await page(BLOG, "ArticleList");
    // The collection's by its route, asked only of a signed-in reader; each chosen row's by its actions.
    assert.match(list, /enabled: signedIn \}\)\.data,\s*signedIn,/);
    assert.match(list, /<Permitted by=\{permitted\} names="create">/);
    assert.match(list, /permits: \(article\) =>\s*permits\(permittedOf\(article\.actions\), "publish_article"\)/);
    // Rows that do not carry their actions: the row's permissions route answers for the record.
    const routeOnly = changed((document) => {
      for (const schema of ["ArticleRead", "ArticleSummary"]) delete document.components.schemas[schema].properties.actions;
    });
    assert.match(await page(routeOnly, "ArticleDetail"), /useQuery\(\{\s*\.\.\.getArticlePermissionsOptions\(\{ path: \{ pk: article\.id \} \}\),\s*enabled: signedIn,/);
    // A backend that names no operation (no x-name): the groups decide, as without permissions.
    const unnamed = changed((document) => {
      for (const item of Object.values<any>(document.paths)) for (const op of Object.values<any>(item)) delete op["x-name"];
    });
    assert.match(await page(unnamed, "ArticleDetail"), /<Allowed groups=\{\["admin", "editor"\]\}>\s*<DeleteButton/);
  });
});

describe("a file resource: upload and download through storage", () => {
  test("its routes are found by their shapes, not offered as actions; its delete-file is its delete", () => {
    const attachments = model().resources.find((candidate) => candidate.key === "attachments")!;
    assert.deepEqual(attachments.files, {
      upload: { fn: "uploadAttachment", secured: true, bodyType: "AttachmentUpload" },
      complete: { fn: "completeAttachment", secured: true },
      download: { fn: "downloadAttachment", secured: true },
      accept: "text/plain,image/png",
      nameField: "original_filename",
      storedField: "uploaded_at",
    });
    assert.deepEqual(attachments.actions, []);
    assert.equal(attachments.delete?.fn, "deleteFileAttachment");
    assert.equal(attachments.titleField, "original_filename");
    // Without its download route it is no file resource: the routes are actions like any other.
    const plain = model({}, changed((document) => delete document.paths["/attachments/{pk}/download"])).resources.find((candidate) => candidate.key === "attachments")!;
    assert.equal(plain.files, undefined);
    assert.deepEqual(plain.actions.map((action) => action.slug), ["upload", "complete", "delete-file"]);
  });

  test("an upload page at /new, and a download button on the record and on each list row", async () => {
    const files = await blogPages();
    const content = (path: string) => files.find((file) => file.path === `src/generated/${path}`)!.content;
    assert.match(content("routes.tsx"), /\{ id: "attachments\.upload", path: "\/attachments\/new", signedIn: true \}/);
    assert.match(content("attachments/AttachmentUpload.tsx"), /<UploadForm[^]*accept="text\/plain,image\/png"/);
    assert.match(content("attachments/AttachmentList.tsx"), /\{t\.uploadRow\("Attachment"\)\}/);
    for (const page of ["AttachmentDetail", "AttachmentList"]) {
      assert.match(content(`attachments/${page}.tsx`), /\{attachment\.uploaded_at !== null && \(\s*<DownloadButton/);
    }
  });
});

describe("saved views: a signed-in reader's named queries of a list", () => {
  const articles = (openapi = BLOG) => model({}, openapi).resources.find((candidate) => candidate.key === "articles")!;
  /** The document with the articles' views routes at `to` instead. */
  const moved = (to: string) =>
    changed((document) => {
      for (const suffix of ["", "/{view_id}"]) {
        document.paths[`${to}${suffix}`] = document.paths[`/articles/views${suffix}`];
        delete document.paths[`/articles/views${suffix}`];
      }
    });

  test("their routes are found by their shapes: no resource, no action, the list's views", () => {
    assert.deepEqual(articles().list!.views, {
      list: { fn: "listArticleViews", secured: true, name: "list_views" },
      create: { fn: "createArticleView", secured: true, name: "create_view", bodyType: "ArticleViewCreate" },
      remove: { fn: "deleteArticleView", secured: true, name: "delete_view", param: "view_id" },
    });
    assert.ok(!model().resources.some((resource) => resource.key.endsWith("views")));
    assert.ok(!articles().actions.some((action) => action.slug === "views"));
    // Any resource's, by their shape: the authors' (nobody listed them there).
    const authors = model({}, moved("/authors/views")).resources.find((candidate) => candidate.key === "authors")!;
    assert.equal(authors.list!.views?.create.fn, "createArticleView");
    assert.equal(articles(moved("/authors/views")).list!.views, undefined);
  });

  test("none where nobody signs in: a view is its owner's", () => {
    assert.equal(articles(changed((document) => delete document.paths["/auth/token"])).list!.views, undefined);
  });

  test("the list page saves, applies and deletes them, asking for them once someone is signed in", async () => {
    const files = await blogPages();
    const list = files.find((file) => file.path === "src/generated/articles/ArticleList.tsx")!.content;
    assert.match(list, /const views = useQuery\(\{\s*\.\.\.listArticleViewsOptions\(\),\s*enabled: signedIn,?\s*\}\);/);
    // The page asks who is signed in once, for its views and for its permissions route alike.
    assert.deepEqual(list.match(/const signedIn = useSession\(\) != null;/g), ["const signedIn = useSession() != null;"]);
    assert.equal(list.match(/useSession\(/g)?.length, 1);
    assert.match(list, /save=\{\(view: ArticleViewCreate\) =>\s*createArticleView\(\{ body: view, throwOnError: true \}\)\s*\}/);
    assert.match(list, /deleteArticleView\(\{ path: \{ view_id: id \}, throwOnError: true \}\)/);
    assert.doesNotMatch(files.find((file) => file.path === "src/generated/authors/AuthorList.tsx")!.content, /SavedViews/);
  });
});
