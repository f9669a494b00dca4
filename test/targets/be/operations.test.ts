// The `be` operations through the real pipeline (config file → engine → renderers →
// assembler), checked on the generated text: database routing by db_key, pool options,
// and the config errors only the operations can see.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, type GeneratedFile, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";
import { flatPython } from "../../helpers/flat-python.js";

let dir: string;
let be: Target;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-ops-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

const article = (extra: object = {}) => ({
  model: "shop.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
  ],
  operations: ["get", "list", "create", "update", "delete"],
  ...extra,
});

async function files(config: object): Promise<Map<string, GeneratedFile>> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const out = join(dir, "out");
  const result = await planGeneration({ target: be, configFile, outDir: out });
  assert.deepEqual(await readdir(dir).then((names) => names.includes("out")), false, "planning must write nothing");
  return new Map(result.files.map((file) => [file.path, file]));
}

async function configError(config: object): Promise<ConfigError> {
  const configFile = join(dir, "bad.json");
  await writeFile(configFile, JSON.stringify(config));
  const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  assert.equal(error.file, configFile);
  return error;
}

describe("databases", () => {
  const twoDatabases = {
    package_prefix: "shop.api",
    databases: [
      { key: "primary", default: true, pool_size: 7, max_overflow: 3, pool_timeout: 12, pool_recycle: 600, pool_pre_ping: false, echo: true },
      { key: "analytics", transaction_pooling: true },
    ],
    module: "store",
    resources: [article(), { ...article({ model: "shop.models.Event", db_key: "analytics" }) }],
  };

  test("each database gets its own session module, honouring every pool option", async () => {
    const generated = await files(twoDatabases);
    const primary = generated.get("db/primary_session.py")!.content;
    for (const line of ["echo=True", "pool_size=7", "max_overflow=3", "pool_timeout=12", "pool_recycle=600", 'URL_ENV = "DATABASE_URL"']) {
      assert.ok(primary.includes(line), `primary session lacks ${line}`);
    }
    // pool_pre_ping: false leaves closed connections in the pool; by default they are discarded at checkout.
    assert.doesNotMatch(primary, /discard_closed_connections/);
    const analytics = generated.get("db/analytics_session.py")!.content;
    assert.ok(analytics.includes('URL_ENV = "ANALYTICS_DATABASE_URL"'));
    assert.ok(analytics.includes("pool_size=15") && analytics.includes("max_overflow=0"), "defaults apply to options left out");
    assert.match(analytics, /\n    discard_closed_connections\(engine\)\n/);
    assert.equal(generated.has("db/session.py"), false);
    assert.match(generated.get("db/__init__.py")!.content, /from shop\.api\.db\.primary_session import \(\n    SessionDep,/);
    // kiln's name for each database's dependency.
    assert.match(primary, /^get_primary_db = get_session$/m);
    assert.match(analytics, /^get_analytics_db = get_session$/m);
  });

  test("a database behind a transaction pooler keeps no prepared statement; the others keep theirs", async () => {
    const generated = await files(twoDatabases);
    const analytics = generated.get("db/analytics_session.py")!.content;
    for (const line of ['"statement_cache_size": 0,', '"prepared_statement_cache_size": 0,']) {
      assert.ok(analytics.includes(line), `analytics session lacks ${line}`);
    }
    assert.doesNotMatch(generated.get("db/primary_session.py")!.content, /statement_cache_size/);
  });

  test("every read route takes the read session, from replicas where its database has them; the writes do not", async () => {
    const replicated = { ...twoDatabases, databases: [twoDatabases.databases[0], { ...twoDatabases.databases[1], replicas: { max_lag: 2, fallback: "unavailable" } }] };
    const generated = await files(replicated);
    const event = generated.get("store/routes/event.py")!.content;
    const session = (name: string) => new RegExp(`async def ${name}\\(([\\s\\S]*?)\\) -> `).exec(event)?.[1].match(/session: (\w+)/)?.[1];
    for (const name of ["get_event", "list_events"]) assert.equal(session(name), "ReadSessionDep", name);
    for (const name of ["create_event", "update_event", "delete_event"]) assert.equal(session(name), "SessionDep", name);
    assert.match(generated.get("store/routes/article.py")!.content, /^from shop\.api\.db\.primary_session import ReadSessionDep, SessionDep$/m);
    const analytics = generated.get("db/analytics_session.py")!.content;
    for (const line of ['REPLICA_URLS_ENV = "ANALYTICS_DATABASE_REPLICA_URLS"', "max_lag=2,", 'fallback="unavailable",', "ReadSessionDep = Annotated[AsyncSession, Depends(get_read_session)]"]) {
      assert.ok(analytics.includes(line), `analytics session lacks ${line}`);
    }
    assert.doesNotMatch(generated.get("db/primary_session.py")!.content, /REPLICAS/);
    assert.match(generated.get("database.py")!.content, /replica_engines=ANALYTICS_REPLICAS\.engines/);
    assert.ok(generated.has("runtime/replicas.py"));
    assert.equal((await files(twoDatabases)).has("runtime/replicas.py"), false, "a tree without replicas has no replicas helper");
  });

  test("a resource with db_key uses its database's session; the others use the default", async () => {
    const generated = await files(twoDatabases);
    assert.match(generated.get("store/routes/event.py")!.content, /from shop\.api\.db\.analytics_session import ReadSessionDep, SessionDep/);
    assert.match(generated.get("store/routes/article.py")!.content, /from shop\.api\.db\.primary_session import ReadSessionDep, SessionDep/);
  });

  test("a single database is db/<key>_session.py, its names re-exported by db/session.py too", async () => {
    const generated = await files({ module: "store", databases: [{ key: "primary", default: true }], resources: [article()] });
    assert.match(generated.get("db/primary_session.py")!.content, /^get_primary_db = get_session$/m);
    assert.match(generated.get("store/routes/article.py")!.content, /^from db\.primary_session import ReadSessionDep, SessionDep$/m);
    assert.match(generated.get("db/session.py")!.content, /^from db\.primary_session import SessionDep, get_engine, get_session, get_sessionmaker$/m);
  });

  test("no default, two defaults and an unknown db_key are ConfigErrors naming the path", async () => {
    const none = await configError({ databases: [{ key: "a" }], module: "store", resources: [article()] });
    assert.deepEqual(none.issues.map((issue) => issue.path), ["databases"]);
    const two = await configError({ databases: [{ key: "a", default: true }, { key: "b", default: true }], module: "store", resources: [article()] });
    assert.deepEqual(two.issues.map((issue) => issue.path), ["databases[1].default"]);
    const unknown = await configError({ databases: [{ key: "a", default: true }], module: "store", resources: [article({ db_key: "nope" })] });
    assert.deepEqual(unknown.issues.map((issue) => issue.path), ["resources[0].db_key"]);
  });
});

describe("operation options", () => {
  test("a nested field in a create body is a ConfigError at the field's path", async () => {
    const nested = { name: "author", type: "nested", model: "shop.models.Author", fields: [{ name: "name", type: "str" }] };
    const error = await configError({
      module: "store",
      resources: [article({ operations: ["get", { name: "create", fields: [{ name: "title", type: "str" }, nested] }] })],
    });
    assert.deepEqual(error.issues, [{ path: "resources[0].operations[1].fields[1].type", message: "nested fields are only allowed in get and list" }]);
  });

  test("a misspelt option is reported at its own path, with every other problem", async () => {
    const error = await configError({
      module: "store",
      resources: [article({ operations: ["get", { name: "list", max_limt: 5 }, { name: "go", type: "action", fn: "shop.actions.go", target: "row" }] })],
    });
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      ["resources[0].operations[1].max_limt", "resources[0].operations[2].target"],
    );
  });

  test("an unknown operation type names the known ones", async () => {
    const error = await configError({ module: "store", resources: [article({ operations: ["get", "frobnicate"] })] });
    assert.equal(error.issues.length, 1);
    assert.equal(error.issues[0]!.path, "resources[0].operations[1].type");
    assert.match(error.issues[0]!.message, /unknown operation "frobnicate"; expected one of: action, create, delete, file_complete, file_delete, file_download, file_upload, get, list, permissions, update, values, view_create, view_delete, view_get, view_list, view_update/);
  });
});

describe("file resources", () => {
  const attachment = (extra: object = {}, upload: object = {}) => ({
    model: "shop.models.Attachment",
    fields: [
      { name: "id", type: "uuid" },
      { name: "s3_key", type: "str" },
      { name: "uploaded_at", type: "datetime", nullable: true },
    ],
    operations: [
      "get",
      { name: "upload", type: "file_upload", ...upload },
      { name: "complete", type: "file_complete" },
      { name: "download", type: "file_download" },
      { name: "delete_file", type: "file_delete" },
    ],
    ...extra,
  });

  test("serve kiln's routes, the upload's body within the entry's limits", async () => {
    const generated = await files({ module: "store", resources: [attachment({}, { content_types: ["image/png"], max_size: 1000 })] });
    const routes = generated.get("store/routes/attachment.py")!.content;
    for (const path of ['"/upload"', '"/{pk:uuid}/complete"', '"/{pk:uuid}/download"', '"/{pk:uuid}/delete-file"']) assert.ok(routes.includes(path), path);
    const schemas = generated.get("store/schemas/attachment.py")!.content;
    assert.match(schemas, /content_type: Literal\["image\/png"\]/);
    assert.match(schemas, /size_bytes: Annotated\[int, Field\(ge=0, le=1000\)\]/);
    assert.ok(generated.has("runtime/files.py"));
  });

  test("need a uuid key; kiln's ingot.files actions are refused at fn; a media type must be one", async () => {
    const intKey = await configError({ module: "store", resources: [attachment({ pk_type: "int", fields: [{ name: "id", type: "int" }, { name: "s3_key", type: "str" }] })] });
    assert.deepEqual(
      intKey.issues.map((issue) => issue.path),
      [1, 2, 3, 4].map((index) => `resources[0].operations[${index}].type`),
    );
    const kiln = await configError({
      module: "store",
      resources: [article({ operations: ["get", { name: "upload", type: "action", fn: "ingot.files.request_upload", target: "collection" }] })],
    });
    assert.deepEqual(kiln.issues.map((issue) => issue.path), ["resources[0].operations[1].fn"]);
    const type = await configError({ module: "store", resources: [attachment({}, { content_types: ["png"] })] });
    assert.deepEqual(type.issues.map((issue) => issue.path), ["resources[0].operations[1].content_types[0]"]);
  });
});

describe("routes", () => {
  test("list pages are bounded by the configured limits", async () => {
    const list = { name: "list", modifiers: [{ type: "paginate", default_page_size: 20, max_page_size: 40 }] };
    const generated = await files({ module: "store", resources: [article({ operations: [list] })] });
    assert.match(flatPython(generated.get("store/schemas/article.py")!.content), /limit: int = Field\(default=20, ge=1, le=40, description="Rows per page, at most 40\."\)/);
  });

  test("an action whose params all have defaults takes an optional body; one required param makes it required", async () => {
    const action = (params: object[]) => ({ name: "archive", type: "action", fn: "shop.actions.archive", target: "instance", params });
    const optional = await files({ module: "store", resources: [article({ operations: [action([{ name: "reason", type: "str", default: "old" }, { name: "note", type: "str", nullable: true }])] })] });
    assert.match(optional.get("store/routes/article.py")!.content, /params: Annotated\[ArchiveParams, Body\(default_factory=ArchiveParams\)\]/);
    const required = await files({ module: "store", resources: [article({ operations: [action([{ name: "reason", type: "str" }, { name: "note", type: "str", nullable: true }])] })] });
    assert.match(required.get("store/routes/article.py")!.content, /params: ArchiveParams,/);
  });

  test("a row is read by a statement built once; a collection joined into it (at any depth) makes the read unique()", async () => {
    const tags = (load: string) => ({ name: "tags", type: "nested", model: "shop.models.Tag", many: true, load, fields: [{ name: "label", type: "str" }] });
    const author = (inner: object) => ({ name: "author", type: "nested", model: "shop.models.Author", load: "joined", fields: [{ name: "name", type: "str" }, inner] });
    const routesOf = async (nested: object) =>
      flatPython((await files({ module: "store", resources: [article({ fields: [...article().fields, nested] })] })).get("store/routes/article.py")!.content);
    const statement = /_ARTICLE_BY_PK = \(select\(Article\) ?\.where\(Article\.id == bindparam\("pk"\)\) ?\.options\(\*_READ_OPTIONS\) ?\.execution_options\(populate_existing=True\)\)/;
    const unique = /article = \(await session\.scalars\(_ARTICLE_BY_PK, \{"pk": pk\}\)\)\.unique\(\)\.one_or_none\(\)/;
    const single = /article = await session\.scalar\(_ARTICLE_BY_PK, \{"pk": pk\}\)/;
    for (const [nested, expected] of [
      [tags("joined"), unique],
      [author(tags("joined")), unique],
      [tags("selectin"), single],
      [author(tags("selectin")), single],
    ] as const) {
      const routes = await routesOf(nested);
      assert.match(routes, statement);
      assert.match(routes, expected, JSON.stringify(nested));
    }
  });

  test("kiln's convention takes one body model, codegen's its params: each one's keys on the other are errors at their paths", async () => {
    const action = (extra: object) => ({ name: "archive", type: "action", fn: "shop.actions.archive", target: "instance", ...extra });
    const kilnWithParams = await configError({ module: "store", resources: [article({ operations: [action({ convention: "kiln", params: [{ name: "reason", type: "str" }] })] })] });
    assert.deepEqual(kilnWithParams.issues.map((issue) => issue.path), ["resources[0].operations[0].params"]);
    const codegenWithBody = await configError({ module: "store", resources: [article({ operations: [action({ body: "shop.actions.Reason", model_param: "model" })] })] });
    assert.deepEqual(codegenWithBody.issues.map((issue) => issue.path), ["resources[0].operations[0].body", "resources[0].operations[0].model_param"]);
    // The user's models are spelled with their module, so names a generated import takes cannot clash.
    const kiln = await files({ module: "store", resources: [article({ operations: [action({ convention: "kiln", body: "shop.actions.Page", response: "shop.actions.Idempotency" })] })] });
    const routes = kiln.get("store/routes/article.py")!.content;
    assert.match(routes, /^import shop\.actions$/m);
    assert.doesNotMatch(routes, /^from shop\.actions import/m);
    assert.match(routes, /\bbody: shop\.actions\.Page,/);
    assert.match(routes, /\) -> shop\.actions\.Idempotency:/);
    assert.match(routes, /await call_action\(shop\.actions\.archive, article, db=session, body=body\)/);
    // Its generated tests cannot write a body of a model codegen does not read: only the 401.
    const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify" };
    const tested = await files({ module: "store", auth, generate_tests: true, resources: [article({ operations: [action({ convention: "kiln", body: "shop.actions.Reason" })] })] });
    const suite = tested.get("store/tests/test_article.py")!.content;
    assert.deepEqual([...suite.matchAll(/^async def (test_\w+)/gm)].map((match) => match[1]), ["test_archive_requires_a_user"]);
  });

  test("hooks in kiln's convention: pre(body, db=) returns the body to store, post(row, body, db=) after the commit (delete: no body)", async () => {
    const hooks = { convention: "kiln", pre: "shop.hooks.tidy", post: "shop.hooks.notify" };
    const generated = await files({
      module: "store",
      resources: [article({ operations: ["get", { name: "create", ...hooks }, { name: "update", ...hooks }, { name: "delete", convention: "kiln", post: "shop.hooks.notify" }] })],
    });
    const routes = flatPython(generated.get("store/routes/article.py")!.content);
    assert.match(routes, /values = \(await body_from_hook\(shop\.hooks\.tidy, body, db=session\)\)\.model_dump\(\)/);
    assert.match(routes, /values = \(await body_from_hook\(shop\.hooks\.tidy, body, db=session\)\)\.model_dump\(exclude_unset=True\)/);
    assert.equal([...routes.matchAll(/await after_commit\(shop\.hooks\.notify, article, body, db=session\)/g)].length, 2);
    assert.match(routes, /await after_commit\(shop\.hooks\.notify, \w+, db=session\)/);
    assert.doesNotMatch(routes, /before_write/);
  });

  test("without a get route, create answers 201 without a Location header", async () => {
    const generated = await files({ module: "store", resources: [article({ operations: ["create"] })] });
    const routes = generated.get("store/routes/article.py")!.content;
    assert.match(routes, /status_code=status\.HTTP_201_CREATED/);
    assert.doesNotMatch(routes, /Location/);
  });
});

describe("OpenAPI operation ids", () => {
  test("are the handler names in camelCase, prefixed by the app only where two apps share a resource name", async () => {
    const app = (module: string, resources: object[]) => ({ config: { module, resources }, prefix: `/${module}` });
    const generated = await files({
      apps: [
        app("shop", [article(), article({ model: "shop.models.Tag", operations: ["list", { name: "publish_tag", type: "action", fn: "shop.actions.publish", target: "collection" }] })]),
        app("archive", [article({ operations: ["get"] })]),
      ],
    });
    const ids = (path: string) => [...generated.get(path)!.content.matchAll(/operation_id="(\w+)"/g)].map((match) => match[1]);
    assert.deepEqual(ids("shop/routes/article.py"), ["shopGetArticle", "shopListArticles", "shopCreateArticle", "shopUpdateArticle", "shopDeleteArticle"]);
    assert.deepEqual(ids("shop/routes/tag.py"), ["listTags", "publishTag"]);
    assert.deepEqual(ids("archive/routes/article.py"), ["archiveGetArticle"]);
  });
});

describe("rate_limit", () => {
  const jwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials" };

  test("keyed by user needs an authenticated route: a ConfigError at the entry, naming where the limit comes from", async () => {
    const noAuth = await configError({ module: "store", resources: [article({ operations: ["get", { name: "list", rate_limit: { limit: "5/minute", key: "user" } }] })] });
    assert.deepEqual(
      noAuth.issues.map((issue) => `${issue.path}: ${issue.message}`),
      ['resources[0].operations[1].rate_limit.key: rate_limit (from this operation) is keyed by "user", but the project sets no auth'],
    );
    const publicRoute = await configError({
      auth: jwt,
      rate_limit: { limit: "5/minute", key: "user" },
      module: "store",
      resources: [article({ operations: ["get", { name: "list", require_auth: false }] })],
    });
    assert.deepEqual(
      publicRoute.issues.map((issue) => `${issue.path}: ${issue.message}`),
      ['resources[0].operations[1]: rate_limit (from the project) is keyed by "user", but this operation sets require_auth: false'],
    );
    // A route excluded from authentication is reported with the rest, before anything is built.
    const excluded = await configError({
      auth: { ...jwt, exclude_paths: ["/articles"] },
      module: "store",
      resources: [article({ operations: ["get", { name: "list", rate_limit: { limit: "5/minute", key: "user" } }] })],
    });
    assert.deepEqual(
      excluded.issues.map((issue) => `${issue.path}: ${issue.message}`),
      ['resources[0].operations[1].rate_limit.key: rate_limit (from this operation) is keyed by "user", but its path "/articles" matches exclude_paths entry "/articles"'],
    );
  });

  test("a project without a limit gets no rate-limit module, and a limited one only its limited routes", async () => {
    const plain = await files({ module: "store", resources: [article()] });
    assert.deepEqual([...plain.keys()].filter((path) => path.includes("rate_limit")), []);
    const limited = await files({ module: "store", resources: [article({ rate_limit: "3/second", operations: ["get", { name: "list", rate_limit: false }] })] });
    const module = limited.get("rate_limits.py")!.content;
    assert.match(module, /limit_get_article = RateLimit\(\n {4}"store\.get_article", "3\/second", key=CLIENT_ADDRESS, engine=get_engine\n\)/);
    assert.doesNotMatch(module, /list_articles/);
    assert.ok(limited.has("runtime/rate_limit.py"));
    const routes = limited.get("store/routes/article.py")!.content;
    assert.match(routes, /dependencies=\[Depends\(limit_get_article\)\]/);
    assert.match(routes, /@router\.get\("", operation_id="listArticles", responses=error_responses\(503\)\)/);
  });
});

describe("telemetry", () => {
  test("bodies are recorded where the entry, else its resource, else the project says, and only on a traced handler with a body or an answer", async () => {
    const generated = await files({
      module: "store",
      telemetry: { service_name: "shop", capture_response_body: true },
      resources: [
        article({
          capture_request_body: true,
          operations: ["get", { name: "list", capture_response_body: false }, "create", { name: "update", capture_request_body: false }, "delete"],
        }),
        article({ model: "shop.models.Note", trace: false }),
      ],
    });
    const decorators = (path: string) => [...generated.get(path)!.content.matchAll(/^@traced\((.*)\)$/gm)].map((match) => match[1]);
    assert.deepEqual(decorators("store/routes/article.py"), [
      '"article", "get", response_body=True',
      '"article", "list"',
      '"article", "create", request_body=True, response_body=True',
      '"article", "update", response_body=True',
      '"article", "delete"',
    ]);
    assert.deepEqual(decorators("store/routes/note.py"), []);
    assert.ok(generated.has("runtime/span_bodies.py"));
  });
});
