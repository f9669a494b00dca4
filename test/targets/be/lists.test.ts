// Lists through the real pipeline (config → engine → renderers), checked on the generated
// text: what each modifier adds and only then (the search route, discovery, indexes),
// that modifiers amend the list whatever their order, auth on the search route, and
// representations with their own loaders.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, type GeneratedFile, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";
import { flatPython } from "../../helpers/flat-python.js";
import { modelRef, type ResourceView } from "../../../src/targets/be/resource.js";
import type { SchemaClass } from "../../../src/targets/be/modules/schemas.js";
import { SerializerFn, SerializerModule } from "../../../src/targets/be/modules/serializers.js";

let dir: string;
let be: Target;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-lists-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

const author = {
  model: "shop.models.Author",
  fields: [
    { name: "id", type: "uuid" },
    { name: "name", type: "str" },
  ],
  link: { name: "name" },
  search: { fields: ["name"] },
  operations: ["get", "list"],
};

const article = (list: object | string, extra: object = {}) => ({
  model: "shop.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
    { name: "rating", type: "float", nullable: true },
    { name: "author_id", type: "uuid" },
    { name: "author", type: "link", references: "author" },
  ],
  operations: ["get", list],
  ...extra,
});

const filter = { type: "filter", fields: [{ name: "title", values: "free_text" }, { name: "author_id", values: "ref", ref_resource: "author" }] };
const order = { type: "order", fields: ["rating"], default: "rating", default_dir: "desc" };

async function files(config: object): Promise<Map<string, string>> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const result = await planGeneration({ target: be, configFile, outDir: join(dir, "out") });
  // Matched whatever the layout: each bracketed construct on one line.
  return new Map(result.files.map((file: GeneratedFile) => [file.path, flatPython(file.content)]));
}

describe("list modifiers", () => {
  test("a plain list has a query model refusing unknown parameters, and no search route, discovery or indexes", async () => {
    const generated = await files({ module: "store", resources: [{ ...author, search: undefined }, article("list")] });
    const routes = generated.get("store/routes/article.py")!;
    assert.match(generated.get("store/schemas/article.py")!, /class ArticleListQuery\(BaseModel\):[\s\S]*model_config = ConfigDict\(extra="forbid"\)/);
    assert.match(routes, /_LIST_ORDER = Ordering\(Article\.id\)/);
    assert.doesNotMatch(routes, /@router\.post\("\/search"/);
    assert.equal(generated.has("discovery.py"), false);
    assert.equal(generated.has("indexes.py"), false);
  });

  test("modifiers amend the list in any order: filters, the search route, the order, discovery and indexes", async () => {
    for (const modifiers of [[filter, order], [order, filter]]) {
      const generated = await files({ module: "store", resources: [author, article({ name: "list", modifiers })] });
      const routes = generated.get("store/routes/article.py")!;
      assert.match(routes, /@router\.post\(\s*"\/search",\s*operation_id="searchArticles",/);
      assert.match(routes, /_LIST_ORDER = Ordering\(Article\.id, \{"rating": Article\.rating\}, nullable=\("rating",\), default=\("-rating",\)\)/);
      assert.match(routes, /_LIST_FILTERS = \{"title": Article\.title, "author_id": Article\.author_id\}/);
      const schemas = generated.get("store/schemas/article.py")!;
      assert.match(schemas, /author_id__in: Annotated\[list\[uuid\.UUID\], CommaSeparated, InQuery\] \| None = None/);
      assert.match(schemas, /ArticleFilter = Annotated\[Annotated\[ArticleAllOf, Tag\("and"\)\]/);
      assert.match(generated.get("discovery.py")!, /RefSource\("author", _AUTHOR_ROWS\)/);
      assert.match(generated.get("indexes.py")!, /Index\("ix_article_author_id", Article\.author_id\)/);
      assert.match(generated.get("indexes.py")!, /Index\("ix_article_rating_id", Article\.rating, Article\.id\)/);
      assert.match(generated.get("store/routes/__init__.py")!, /router\.include_router\(discovery_router\)/);
    }
  });

  test("a single app's routes are its router's own, under its prefix; discovery is included under it too", async () => {
    const generated = await files({ module: "store", prefix: "/api", resources: [author, article({ name: "list", modifiers: [filter] })] });
    assert.match(generated.get("store/routes/article.py")!, /^router = APIRouter\(prefix="\/api\/articles", tags=\["articles"\]\)$/m);
    const aggregate = generated.get("store/routes/__init__.py")!;
    assert.match(aggregate, /^router = APIRouter\(routes=\[\*author_router\.routes, \*article_router\.routes\]\)$/m);
    assert.match(aggregate, /^router\.include_router\(discovery_router, prefix="\/api"\)$/m);
    assert.doesNotMatch(aggregate, /include_router\((author|article)_router/);
  });

  test("the search route and discovery require the user the list requires", async () => {
    const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify" };
    const open = await files({ module: "store", auth, resources: [author, article({ name: "list", modifiers: [filter], require_auth: false })] });
    assert.match(open.get("store/routes/article.py")!, /async def search_articles\(body: ArticleSearch, session: ReadSessionDep\)/);
    const closed = await files({ module: "store", auth, resources: [author, article({ name: "list", modifiers: [filter] })] });
    assert.match(closed.get("store/routes/article.py")!, /async def search_articles\(body: ArticleSearch, session: ReadSessionDep, current_user: CurrentUser\)/);
    assert.match(closed.get("discovery.py")!, /async def list_filters\(current_user: CurrentUser\)/);
  });

  test("link fields serialize through the target's link, or from its id and label columns where the route reads columns", async () => {
    const draft = { model: "shop.models.Draft", operations: [{ name: "create", post: "shop.hooks.after_create" }] };
    const generated = await files({ module: "store", resources: [author, article("list"), article("list", draft)] });
    // A create whose post hook takes the ORM object it wrote answers through the object serializer.
    assert.match(generated.get("store/serializers/draft.py")!, /author=to_author_link\(draft\.author\)/);
    // Get and list read columns only: no serializer of objects is written for them.
    assert.doesNotMatch(generated.get("store/serializers/article.py")!, /def to_article_read\(/);
    // Get and list read the link's columns through the join (ARTICLE_READ_ROWS), so nothing loads the relationship here.
    assert.match(generated.get("store/routes/article.py")!, /_ARTICLE_ROW_BY_PK = ARTICLE_READ_ROWS\.where\(Article\.id == bindparam\("pk"\)\)/);
    assert.match(generated.get("store/schemas/author.py")!, /class AuthorLink\(BaseModel\):[\s\S]*type: Literal\["author"\]\n    id: uuid\.UUID\n    label: str/);
  });

  test("a list reads the columns its shape shows, no ORM objects, where one select can; else it loads objects", async () => {
    const nested = (extra: object) => ({ name: "owner", type: "nested", model: "shop.models.Owner", load: "joined", fields: [{ name: "name", type: "str" }], ...extra });
    const withField = (model: string, field: object) => ({ ...article("list"), model: `shop.models.${model}`, fields: [{ name: "id", type: "uuid" }, field] });
    const objects = {
      Many: nested({ many: true, load: "selectin" }),
      Unknowable: nested({ fields: [{ name: "name", type: "str", nullable: true }] }),
      Deep: nested({ fields: [{ name: "name", type: "str" }, nested({ name: "boss", model: "shop.models.Boss" })] }),
    };
    const generated = await files({
      module: "store",
      resources: [author, article("list"), withField("Shown", nested({ nullable: true })), ...Object.entries(objects).map(([model, field]) => withField(model, field))],
    });
    const serializers = generated.get("store/serializers/article.py")!;
    // The link's id and label through an outer join: a missing or hidden author reads as NULLs.
    assert.match(serializers, /ARTICLE_READ_ROWS = select\(Article\.id, Article\.title, Article\.rating, Article\.author_id, Author\.id, Author\.name\)\.outerjoin\(Article\.author\)/);
    assert.match(serializers, /author=AuthorLink\(type="author", id=row\[4\], label=row\[5\]\)/);
    assert.match(generated.get("store/routes/article.py")!, /statement = ARTICLE_READ_ROWS\n[\s\S]*rows, next_cursor = await keyset_rows\(session, statement, keys, limit=query\.limit, cursor=query\.cursor\)\n    return Page\(items=\[to_article_read_from_row\(row\) for row in rows\]/);
    // A nested single object with a non-nullable field, which tells whether it is there.
    const shown = generated.get("store/serializers/shown.py")!;
    assert.match(shown, /owner=ShownReadOwnerNested\(name=row\[1\]\) if row\[1\] is not None else None/);
    // Its schema imported by the row serializer itself: no serializer of objects is written here to import it.
    assert.match(shown, /from store\.schemas\.shown import .*\bShownReadOwnerNested\b/);
    assert.doesNotMatch(shown, /def to_shown_read\(/);
    // A collection, a field that cannot tell a missing object, a nested object holding another.
    for (const model of Object.keys(objects)) {
      const routes = generated.get(`store/routes/${model.toLowerCase()}.py`)!;
      assert.match(routes, /await keyset_page\(session, statement/, model);
      assert.doesNotMatch(routes, /_ROWS/, model);
    }
  });

  test("a list whose rows carry their actions reads objects, and writes the serializer of its own representation that it imports", async () => {
    const summary = { name: "summary", fields: [{ name: "id", type: "uuid" }, { name: "title", type: "str" }] };
    const generated = await files({
      module: "store",
      auth: { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify" },
      resources: [author, article({ name: "list", representation: "summary" }, { include_actions_in_dump: true, representations: [summary] })],
    });
    const routes = generated.get("store/routes/article.py")!;
    assert.match(routes, /from store\.serializers\.article import .*\bto_article_summary\b/);
    assert.match(routes, /await keyset_page\(session, statement/);
    assert.match(generated.get("store/serializers/article.py")!, /def to_article_summary\(article: Article\) -> ArticleSummary:/);
  });

  test("a serializer is written only if asked for before its module renders; asking later is a bug, not an import of a missing function", () => {
    const view = { serializerFile: "store/serializers/article.py", serializerModule: "store.serializers.article", label: "article" } as ResourceView;
    const module = new SerializerModule(view);
    const schema = { name: "ArticleRead", module: { dotted: "store.schemas.article" } } as SchemaClass;
    const serializer = (name: string) => module.add(new SerializerFn({ module, name, schema, model: modelRef("shop.models.Article"), argument: "article", fields: [{ name: "id" }] }));
    const asked = serializer("to_article_read").markCalled();
    const unasked = serializer("to_article_summary");
    const written = module.render().map((fragment) => JSON.stringify(fragment));
    assert.ok(written.some((fragment) => fragment.includes(`"name":"${asked.name}"`)), "the function asked for is written");
    assert.ok(!written.some((fragment) => fragment.includes(`"name":"${unasked.name}"`)), "the function nobody asked for is not");
    assert.throws(() => unasked.markCalled(), /bug: to_article_summary is asked for after store\/serializers\/article\.py was rendered/);
    assert.throws(() => serializer("to_article_card"), /bug: to_article_card is asked for after/);
    asked.markCalled(); // Asked again: it is written already.
  });

  test("representations answer with their own schema, loaded by their own options", async () => {
    const representations = [
      { name: "summary", fields: [{ name: "id", type: "uuid" }, { name: "title", type: "str" }] },
      { name: "card", builder: "shop.cards.article_card" },
    ];
    const generated = await files({
      module: "store",
      resources: [author, article({ name: "list", representation: "summary" }, { representations, operations: ["get", { name: "list", representation: "summary" }, { name: "update", representation: "card" }] })],
    });
    const routes = generated.get("store/routes/article.py")!;
    assert.match(routes, /-> Page\[ArticleSummary\]:/);
    assert.match(routes, /async def update_article\(.*\) -> Any:/);
    assert.match(routes, /result = article_card\(await _load_article\(session, pk\)\)/);
    assert.match(generated.get("store/schemas/article.py")!, /class ArticleSummary\(BaseModel\):/);
  });
});

describe("kiln's filter fields", () => {
  // `references` needs a create on the target: generated tests create it first.
  const creatableAuthor = { ...author, operations: ["get", "list", "create"] };
  const referencing = (filterModifier: object) =>
    article({ name: "list", modifiers: [filterModifier] }, {
      fields: [
        { name: "id", type: "uuid" },
        { name: "title", type: "str" },
        { name: "rating", type: "float", nullable: true },
        { name: "published", type: "bool" },
        { name: "author_id", type: "uuid", references: "author" },
        { name: "meta", type: "json" },
      ],
    });

  test("bare names take their values from the field's type: free_text, literal, bool, ref to a linked resource", async () => {
    const generated = await files({ module: "store", resources: [creatableAuthor, referencing({ type: "filter", fields: ["title", "rating", "published", "author_id"] })] });
    const query = generated.get("store/schemas/article.py")!;
    for (const param of ["title__contains", "title__starts_with", "rating__gte", "rating__lte", "published", "author_id__in"]) {
      assert.match(query, new RegExp(`^    ${param}: `, "m"), param);
    }
    assert.doesNotMatch(query, /^    published__in: /m);
    // The ref field is offered through /_values, as a structured ref field is.
    assert.match(generated.get("discovery.py")!, /RefSource\(/);
  });

  test("no fields: every scalar field but json ones, by name", async () => {
    const generated = await files({ module: "store", resources: [creatableAuthor, referencing({ type: "filter" })] });
    assert.match(generated.get("store/routes/article.py")!, /_LIST_FILTERS = \{"id": Article\.id, "title": Article\.title, "rating": Article\.rating, "published": Article\.published, "author_id": Article\.author_id\}/);
  });

  test("a bare name that is no field of the resource is an error at its path", async () => {
    const configFile = join(dir, "bad-filter.json");
    await writeFile(configFile, JSON.stringify({ module: "store", resources: [creatableAuthor, referencing({ type: "filter", fields: ["title", "colour"] })] }));
    const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    assert.deepEqual(
      error.issues.map((issue) => [issue.path, issue.message]),
      [["resources[1].operations[1].modifiers[0].fields[1]", '"colour" is not a field of this resource; name one of its fields, or give { name, values, type }']],
    );
  });
});
