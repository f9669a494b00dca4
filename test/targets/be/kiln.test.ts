// kiln's config shapes (docs/migrating-from-kiln.md): fields per operation, `pk` in both
// forms, `version` and `framework`, kiln's helper calls; kiln keys without effect parse and
// are named in warnings at their paths, keys that would open routes are refused, and `can`
// is codegen's own guard now. resource.saved_views(): its entries, kiln's arguments named in
// warnings, and its entries' config errors.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { ConfigError, type Target, configIssuesOf, discoverTargets, planGeneration } from "../../../src/codegen/index.js";
import type { JwtAuth } from "../../../src/targets/be/config/auth.js";
import { kilnWarnings } from "../../../src/targets/be/config/kiln.js";
import { CrudOptions, FilterConfig, OrderConfig, PaginateConfig, ProjectConfig } from "../../../src/targets/be/config/schema.js";
import { jsonnetSnippetValue } from "../../support/jsonnet.js";

const stdlibParent = fileURLToPath(new URL("../../../src/targets/be/jsonnet", import.meta.url));

async function evaluate(code: string): Promise<any> {
  return jsonnetSnippetValue(code, [stdlibParent]);
}

function issues(input: unknown): string[] {
  const result = ProjectConfig.safeParse(input);
  assert.equal(result.success, false, "expected the config to be rejected");
  return configIssuesOf(result.error!).map((issue) => `${issue.path}: ${issue.message}`);
}

function parse(input: unknown): ProjectConfig {
  const result = ProjectConfig.safeParse(input);
  if (!result.success) assert.fail(JSON.stringify(configIssuesOf(result.error)));
  return result.data;
}

const id = { name: "id", type: "uuid" };
const title = { name: "title", type: "str" };
const author = { name: "author", type: "nested", model: "blog.models.Author", fields: [id] };

/** A kiln single-app config: no resource-level fields. */
function kilnConfig(resource: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { version: "1", module: "blog", resources: [{ model: "blog.models.Article", ...resource }], ...extra };
}

describe("fields declared per operation", () => {
  test("the read shape is the get and list fields together, get's first", () => {
    const config = parse(kilnConfig({ operations: [{ name: "list", fields: [id, title] }, { name: "get", fields: [id, author] }] }));
    assert.deepEqual(config.apps[0]!.config.resources[0]!.fields.map((field) => field.name), ["id", "title", "author"]);
  });

  test("a resource without reads answers with its key and its create and update fields", () => {
    const config = parse(kilnConfig({ pk_type: "int", operations: [{ name: "create", fields: [title] }, { name: "update", fields: [title] }] }));
    const fields = config.apps[0]!.config.resources[0]!.fields;
    assert.deepEqual(fields.map((field) => [field.name, field.type]), [["id", "int"], ["title", "str"]]);
  });

  test("a field read with two types, a key typed unlike pk_type, and no fields at all are errors at the entry", () => {
    assert.deepEqual(issues(kilnConfig({ operations: [{ name: "get", fields: [id, title] }, { name: "list", fields: [id, { name: "title", type: "int" }] }] })), [
      'resources[0].operations[1].fields[1].type: "title" is str at operations[0].fields[1]: one resource reads a field with one type',
    ]);
    assert.deepEqual(issues(kilnConfig({ pk_type: "int", operations: [{ name: "get", fields: [id] }] })), [
      'resources[0].operations[0].fields[0].type: the primary key "id" has pk_type "int": make them agree (set pk_type: "uuid" or change this type)',
    ]);
    assert.deepEqual(issues(kilnConfig({ operations: ["get", "delete"] })), [
      "resources[0].fields: required: list the resource's fields, or give its get, list, create or update entries their own fields",
    ]);
    assert.deepEqual(issues(kilnConfig({ operations: [{ name: "get", fields: [{ name: "id", type: "uid" }] }] })).length, 1);
  });

  test("pk as kiln's { name, type } sets pk and pk_type; a second type is an error", () => {
    const config = parse(kilnConfig({ pk: { name: "slug", type: "str" }, operations: [{ name: "get", fields: [{ name: "slug", type: "str" }] }] }));
    const resource = config.apps[0]!.config.resources[0]!;
    assert.deepEqual([resource.pk, resource.pk_type], ["slug", "str"]);
    assert.deepEqual(issues(kilnConfig({ pk: { name: "id", type: "int" }, pk_type: "uuid", operations: [{ name: "get", fields: [id] }] }))[0], 'resources[0].pk_type: pk.type already says "int": give the type once');
  });
});

describe("kiln keys", () => {
  test("version and framework take kiln's only values", () => {
    parse(kilnConfig({ operations: [{ name: "get", fields: [id] }] }, { framework: "fastapi" }));
    assert.deepEqual(issues(kilnConfig({ operations: [{ name: "get", fields: [id] }] }, { version: "2", framework: "django" })), [
      'version: the only config version is "1"',
      'framework: codegen generates FastAPI only: "fastapi"',
    ]);
  });

  test("keys without effect parse and are named in warnings; an action without target is one too", () => {
    const raw = {
      telemetry: { service_name: "blog" },
      apps: [
        {
          prefix: "/blog",
          config: {
            version: "1",
            module: "blog",
            resources: [
              {
                model: "blog.models.Article",
                trace: false,
                // kiln's link names its label field too; codegen needs it (docs/migrating-from-kiln.md).
                link: { name: "title", kind: "id_name" },
                operations: [
                  { name: "get", fields: [id, title], trace: false },
                  { name: "list", fields: [id], modifiers: [{ type: "paginate", mode: "keyset", cursor_field: "id" }], filters: { fields: ["title"] }, ordering: { fields: ["title"] }, pagination: { mode: "offset" } },
                  { name: "publish", type: "action", fn: "blog.actions.publish" },
                ],
              },
            ],
          },
        },
      ],
    };
    parse(raw);
    // trace (resource and entry) means what it does in kiln: no warning.
    assert.deepEqual(kilnWarnings(raw).map((warning) => warning.path), [
      "apps[0].config.resources[0].operations[1].fields",
      "apps[0].config.resources[0].operations[1].filters",
      "apps[0].config.resources[0].operations[1].ordering",
      "apps[0].config.resources[0].operations[1].pagination",
      "apps[0].config.resources[0].operations[1].modifiers[0].cursor_field",
      "apps[0].config.resources[0].operations[2]",
    ]);
    assert.match(kilnWarnings(raw)[0]!.message, /this list also returns title$/);
    assert.match(kilnWarnings(raw)[1]!.message, /^ignored \(a kiln key\): kiln's early list key, which kiln ignores too; a \{ type: "filter" \} modifier does it/);
    assert.match(kilnWarnings(raw)[4]!.message, /^ignored \(a kiln key\): a keyset cursor holds every sort key of the page's last row/);
  });

  test("can is ours now: a guard's dotted path, kept as written", () => {
    const result = CrudOptions.safeParse({ name: "get", type: "get", fields: [id], can: "blog.perms.can_read" });
    assert.equal(result.success, true);
    assert.equal(result.data!.can, "blog.perms.can_read");
    // kiln's signature for it: convention beside can alone is what it says.
    const kiln = CrudOptions.safeParse({ name: "get", type: "get", fields: [id], can: "blog.perms.can_read", convention: "kiln" });
    assert.equal(kiln.success, true, JSON.stringify(kiln.error?.issues));
  });
});

describe("an app written in kiln's format (version: \"1\") calls your functions kiln's way", () => {
  const entriesOf = (config: ProjectConfig) => config.apps[0]!.config.resources[0]!.operations as unknown as Record<string, unknown>[];
  const hooked = [
    { name: "get", fields: [id], serializer: "blog.kiln.with_count" },
    { name: "create", fields: [title], pre: "blog.kiln.tidy", post: "blog.kiln.notify" },
    { name: "publish", type: "action", fn: "blog.kiln.publish", target: "instance" },
    { name: "delete", post: "blog.kiln.after_delete", convention: "codegen" },
    { name: "update", fields: [title] },
  ];

  test("each entry naming a function of yours, unless it says its own convention; codegen's without the marker", () => {
    assert.deepEqual(entriesOf(parse(kilnConfig({ operations: hooked }))).map((entry) => entry.convention), ["kiln", "kiln", "kiln", "codegen", undefined]);
    const { version: _version, ...unmarked } = kilnConfig({ operations: hooked });
    assert.deepEqual(entriesOf(parse(unmarked)).map((entry) => entry.convention), [undefined, undefined, undefined, "codegen", undefined]);
    // An app of a project's apps carries the marker itself, as kiln's app configs do.
    const project = parse({ apps: [{ config: { version: "1", module: "blog", resources: [{ model: "blog.models.Article", operations: hooked }] } }] });
    assert.deepEqual(entriesOf(project).map((entry) => entry.convention), ["kiln", "kiln", "kiln", "codegen", undefined]);
  });

  test("the generated tree is kiln's package, _generated, unless the project names its own", () => {
    const app = (version?: string) => ({ config: { ...(version && { version }), module: "blog", resources: [{ model: "blog.models.Article", operations: [{ name: "get", fields: [id] }] }] } });
    assert.equal(parse(kilnConfig({ operations: [{ name: "get", fields: [id] }] })).package_prefix, "_generated");
    assert.equal(parse({ apps: [app("1")] }).package_prefix, "_generated");
    assert.equal(parse({ version: "1", apps: [app()] }).package_prefix, "_generated");
    // A codegen project gaining one app in kiln's format keeps its imports.
    assert.equal(parse({ apps: [app("1"), { ...app(), config: { ...app().config, module: "shop" }, prefix: "/shop" }] }).package_prefix, "");
    assert.equal(parse({ version: "1", package_prefix: "shop.api", apps: [app("1")] }).package_prefix, "shop.api");
  });

  test("an action with codegen's params there is an error saying why kiln's convention applies", async () => {
    const config = kilnConfig({ operations: [{ name: "get", fields: [id] }, { name: "feature", type: "action", fn: "blog.actions.feature", target: "instance", params: [{ name: "until", type: "date" }] }] });
    const messages = (await configErrorOf(config)).issues.map((issue) => `${issue.path}: ${issue.message}`);
    assert.ok(messages.some((message) => /^resources\[0\]\.operations\[1\]\.params: kiln's convention .*version: "1".*convention: "codegen"/.test(message)), messages.join("\n"));
  });
});

describe("kiln's helper calls", () => {
  test("presets.action with kiln's arguments keeps kiln's signature and require_auth default; ours with a target follows the cascade", async () => {
    const entries = await evaluate(`
      local resource = import 'be/resources/presets.libsonnet';
      [
        resource.action(name='publish', fn='blog.actions.publish'),
        resource.action(name='ping', fn='blog.actions.ping', require_auth=false, status_code=202),
        resource.action('archive', 'blog.actions.archive', true),
        resource.action('tag', 'blog.actions.tag', 'instance'),
        resource.instanceAction('feature', 'blog.actions.feature', opts={ require_auth: false }),
      ]
    `);
    assert.deepEqual(entries, [
      { name: "publish", type: "action", fn: "blog.actions.publish", convention: "kiln", require_auth: true },
      { name: "ping", type: "action", fn: "blog.actions.ping", convention: "kiln", require_auth: false, status_code: 202 },
      { name: "archive", type: "action", fn: "blog.actions.archive", convention: "kiln", require_auth: true },
      { name: "tag", type: "action", fn: "blog.actions.tag", target: "instance" },
      { name: "feature", type: "action", fn: "blog.actions.feature", target: "instance", require_auth: false },
    ]);
  });

  test("kiln's early import path kiln/… reaches the same helpers as be/…", async () => {
    for (const file of ["fields", "auth/jwt", "db/databases", "operations/list", "resources/presets", "rate_limit/rate_limit", "telemetry/telemetry"]) {
      assert.deepEqual(
        await evaluate(`std.objectFieldsAll(import 'kiln/${file}.libsonnet')`),
        await evaluate(`std.objectFieldsAll(import 'be/${file}.libsonnet')`),
        file,
      );
    }
    assert.deepEqual(await evaluate(`(import 'kiln/fields.libsonnet').id('int')`), { name: "id", type: "int" });
  });

  test("fields.id, fields.timestamps and list.searchable", async () => {
    const values = await evaluate(`
      local fields = import 'be/fields.libsonnet';
      local list = import 'be/operations/list.libsonnet';
      [fields.id(), fields.id('int'), fields.timestamps(), list.searchable(fields=[fields.id()]), list.searchable([fields.id()], order={ fields: ['id'] })]
    `);
    assert.deepEqual(values, [
      { name: "id", type: "uuid" },
      { name: "id", type: "int" },
      [{ name: "created_at", type: "datetime" }, { name: "updated_at", type: "datetime" }],
      { name: "list", fields: [{ name: "id", type: "uuid" }] },
      { name: "list", fields: [{ name: "id", type: "uuid" }], modifiers: [{ type: "order", fields: ["id"] }] },
    ]);
  });

  test("list.searchable's filter, order and paginate are modifiers the list's modifier schemas accept", async () => {
    const entry = await evaluate(`
      (import 'be/operations/list.libsonnet').searchable(
        filter={ fields: [{ name: 'title', values: 'free_text' }] }, order={ fields: ['title'], default: 'title' }, paginate={ mode: 'offset' },
      )
    `);
    assert.deepEqual(entry.modifiers.map((modifier: { type: string }) => modifier.type), ["filter", "order", "paginate"]);
    for (const [schema, modifier] of [[FilterConfig, entry.modifiers[0]], [OrderConfig, entry.modifiers[1]], [PaginateConfig, entry.modifiers[2]]] as const) {
      const result = schema.safeParse(modifier);
      assert.ok(result.success, JSON.stringify(result.error?.issues));
    }
    assert.equal(parse(kilnConfig({ operations: ["get", { ...entry, fields: [id, title] }] })).apps[0]!.config.resources[0]!.operations[1]!.modifiers?.length, 3);
  });
});

describe("kiln's auth keys", () => {
  const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify_credentials" };
  const app = { module: "blog", resources: [{ model: "blog.models.Article", operations: [{ name: "get", fields: [id] }] }] };

  test("sources and the cookie keys mean what they mean in kiln, and warn of nothing", () => {
    const raw = { ...app, auth: { ...auth, sources: ["bearer", "cookie"], cookie_name: "session", cookie_secure: false, cookie_samesite: "lax" } };
    const config = parse(raw);
    assert.deepEqual(kilnWarnings(raw), []);
    assert.deepEqual(config.auth, {
      ...auth,
      algorithm: "HS256",
      token_url: "/auth/token",
      exclude_paths: [],
      token_lifetime_seconds: 3600,
      token_rate_limit: { username: "10/minute;100/hour", address: "30/minute;300/hour" },
      sources: ["bearer", "cookie"],
      cookie: { name: "session", secure: false, same_site: "lax", allowed_origins: [], allowed_origins_env: "ALLOWED_ORIGINS" },
      logout_url: "/auth/logout",
      session_url: "/auth/session",
    });
  });

  test("kiln's login keys go together, in place of verify_credentials_fn, and a session store needs them", () => {
    const { verify_credentials_fn: _, ...jwt } = auth;
    assert.deepEqual(issues({ ...app, auth: { ...auth, session_store: "blog.auth.store" } }), [
      "auth.session_store: is given kiln's session model: it needs credentials_schema, session_schema and validate_fn",
    ]);
    assert.deepEqual(
      issues({ ...app, auth: { ...auth, validate_fn: "blog.auth.validate" } }),
      [
        "auth.credentials_schema: required with validate_fn: kiln's login takes credentials_schema, session_schema and validate_fn together",
        "auth.session_schema: required with validate_fn: kiln's login takes credentials_schema, session_schema and validate_fn together",
        "auth.verify_credentials_fn: give verify_credentials_fn (a username and password form) or kiln's credentials_schema, session_schema and validate_fn, not both",
      ],
    );
    assert.deepEqual(issues({ ...app, auth: { ...auth, user_id_attr: "user_id" } }), [
      "auth.user_id_attr: names a field of kiln's session model: it needs credentials_schema, session_schema and validate_fn",
    ]);
    const login = { credentials_schema: "blog.auth.Credentials", session_schema: "blog.auth.Session", validate_fn: "blog.auth.validate" };
    assert.deepEqual(issues({ ...app, auth: { ...jwt, ...login, token_rate_limit: { username: "5/minute" } } }), [
      "auth.token_rate_limit.username: kiln's login has no username to count attempts by; remove this key (attempts per address are counted)",
    ]);
    const parsed = parse({ ...app, auth: { ...jwt, ...login, user_id_attr: "user_id" } }).auth!;
    assert.ok(parsed.get_current_user_fn === undefined);
    assert.deepEqual(parsed.login, { ...login, subject_fields: ["user_id"] });
    assert.equal(parsed.verify_credentials_fn, undefined);
    assert.deepEqual(parsed.token_rate_limit, { address: "30/minute;300/hour" });
    assert.deepEqual((parse({ ...app, auth: { ...jwt, ...login } }).auth as { login: { subject_fields: string[] } }).login.subject_fields, ["sub", "user_id"]);
    // A session store is told at logout: kiln's logout route is there unless logout_url says where.
    const stored = parse({ ...app, auth: { ...jwt, ...login, token_url: "/login", session_store: "blog.auth.store" } }).auth as JwtAuth;
    assert.equal(stored.login?.session_store, "blog.auth.store");
    assert.equal(stored.logout_url, "/login/logout");
    assert.equal((parse({ ...app, auth: { ...jwt, ...login, session_store: "blog.auth.store", logout_url: "/bye" } }).auth as JwtAuth).logout_url, "/bye");
  });

});

describe("kiln's telemetry", () => {
  const app = { module: "blog", resources: [{ model: "blog.models.Article", operations: [{ name: "get", fields: [id] }] }] };

  test("telemetry.otel(service_name, opts) is the project's telemetry, kiln's keys included, with no warning", async () => {
    const written = await evaluate(`
      local telemetry = import 'kiln/telemetry/telemetry.libsonnet';
      telemetry.otel('blog-api', {
        sampler: 'parentbased_traceidratio', sampler_ratio: 0.1,
        instrument_httpx: true, instrument_requests: true, instrument_logging: true,
        capture_request_body: true, capture_response_body: false,
      })
    `);
    const raw = { ...app, telemetry: written };
    const parsed = parse(raw).telemetry!;
    assert.equal(parsed.service_name, "blog-api");
    assert.equal(parsed.sampler_ratio, 0.1);
    assert.deepEqual(
      [parsed.instrument_httpx, parsed.instrument_requests, parsed.instrument_logging, parsed.capture_request_body, parsed.capture_response_body],
      [true, true, true, true, false],
    );
    assert.deepEqual(kilnWarnings(raw), []);
    // Unset, each is off, as in kiln.
    const plain = parse({ ...app, telemetry: await evaluate(`(import 'be/telemetry/telemetry.libsonnet').otel('blog-api')`) }).telemetry!;
    assert.deepEqual([plain.instrument_httpx, plain.instrument_requests, plain.instrument_logging, plain.capture_request_body, plain.capture_response_body], [false, false, false, false, false]);
  });
});

describe("kiln's rate limits", () => {
  const app = { module: "blog", resources: [{ model: "blog.models.Article", operations: [{ name: "get", fields: [id] }] }] };

  test("rate_limit.slowapi's object is the project's limit: default_limit per key_func, 60/minute by default, null for none", async () => {
    const written = await evaluate(`
      local rl = import 'be/rate_limit/rate_limit.libsonnet';
      [rl.slowapi('blog.models.Bucket'), rl.slowapi('blog.models.Bucket', { default_limit: '5/second;100/hour', key_func: 'blog.limits.api_key', headers_enabled: false, db_key: 'main' })]
    `);
    assert.deepEqual(written[0], { bucket_model: "blog.models.Bucket" });
    assert.deepEqual(parse({ ...app, rate_limit: written[0] }).rate_limit, { limit: "60/minute", key: "ip", headers: true });
    assert.deepEqual(parse({ ...app, rate_limit: written[1] }).rate_limit, { limit: "5/second;100/hour", key: "blog.limits.api_key", headers: false });
    assert.equal(parse({ ...app, rate_limit: { bucket_model: "blog.models.Bucket", default_limit: null } }).rate_limit, false);
    // codegen's own forms are read as before.
    assert.deepEqual(parse({ ...app, rate_limit: "5/minute" }).rate_limit, { limit: "5/minute", key: "ip", headers: true });
  });

  test("the keys it has no use for are named in warnings", () => {
    const raw = { ...app, rate_limit: { bucket_model: "blog.models.Bucket", db_key: "main" } };
    assert.deepEqual(kilnWarnings(raw).map((warning) => warning.path), ["rate_limit.bucket_model", "rate_limit.db_key"]);
    assert.deepEqual(kilnWarnings({ ...app, rate_limit: "5/minute" }), []);
  });

  test("a bad value in kiln's object is an error at its key", () => {
    assert.deepEqual(issues({ ...app, rate_limit: { bucket_model: "blog.models.Bucket", default_limit: "5/mnute", key_func: "x", headers: true } }), [
      'rate_limit.default_limit: "5/mnute" is not a limit like "5/minute" (a count from 1, then / and one of second, minute, hour, day)',
      'rate_limit.key_func: expected "ip", "user", or a dotted path to a function of the request (like "myapp.limits.api_key")',
      "rate_limit.headers: unknown key",
    ]);
    assert.deepEqual(issues({ ...app, rate_limit: "5/mnute" }), [
      'rate_limit: "5/mnute" is not a limit like "5/minute" (a count from 1, then / and one of second, minute, hour, day)',
    ]);
  });
});

describe("docs/migrating-from-kiln.md", () => {
  const docs = fileURLToPath(new URL("../../../docs", import.meta.url));
  const page = readFileSync(join(docs, "migrating-from-kiln.md"), "utf8");

  test("the feature table's counts are its rows' statuses", () => {
    const table = page.slice(page.indexOf("## Every kiln capability"), page.indexOf("\n## ", page.indexOf("## Every kiln capability") + 3));
    const statuses = [...table.matchAll(/^\|.*?\| (yes|differs|missing) \|/gm)].map((match) => match[1]);
    const count = (status: string) => statuses.filter((each) => each === status).length;
    const stated = /Counts: (\d+) yes, (\d+) differs, (\d+) missing\./.exec(table);
    assert.ok(stated, "the table states its counts");
    assert.deepEqual(stated.slice(1).map(Number), [count("yes"), count("differs"), count("missing")]);
  });

  test("every link to a section of a page reaches a heading of it", () => {
    // GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
    const anchors = (text: string) => new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => match[1]!.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-")));
    for (const [, file, anchor] of page.matchAll(/\]\(([a-z-]*\.md)?#([^)]+)\)/g)) {
      const target = file === undefined ? page : readFileSync(join(docs, file), "utf8");
      assert.ok(anchors(target).has(anchor!), `${file ?? "this page"}#${anchor} names no heading`);
    }
  });
});

describe("kiln's link kinds and link.id", () => {
  const read = { operations: [{ name: "get", fields: [id, title, { name: "slug", type: "str" }] }] };
  test("kinds name and id are accepted; id needs no name, and link.id names the field whose value is the link's id", () => {
    for (const link of [{ kind: "name", name: "title" }, { kind: "id" }, { kind: "id", id: "slug" }, { kind: "id_name", name: "title", id: "slug" }]) {
      assert.deepEqual(parse(kilnConfig({ ...read, link })).apps[0]!.config.resources[0]!.link, link);
    }
  });

  test("a kind that labels with a name needs one; name and id must be scalar fields of the resource", () => {
    assert.deepEqual(issues(kilnConfig({ ...read, link: { kind: "name" } })), ['resources[0].link.name: required unless kind is "id" or a builder is given: the field whose value labels the links']);
    assert.deepEqual(issues(kilnConfig({ ...read, link: { kind: "id", id: "author", name: "nope" } })), [
      'resources[0].link.name: "nope" must be a scalar field of this resource (its value labels the links)',
      'resources[0].link.id: "author" must be a scalar field of this resource (its value is the id of the links)',
    ]);
  });
});

const viewsJwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials" };

let dir: string;
let be: Target;
let views: Record<string, unknown>[];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-views-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
  views = await jsonnetSnippetValue("(import 'be/resources/presets.libsonnet').saved_views()", [stdlibParent]);
});
after(() => rm(dir, { recursive: true, force: true }));

const viewsArticle = (operations: unknown[], pkType = "uuid") => ({
  model: "shop.models.Article",
  pk_type: pkType,
  fields: [
    { name: "id", type: pkType },
    { name: "title", type: "str" },
  ],
  operations,
});

async function configErrorOf(config: object): Promise<ConfigError> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  return error;
}

describe("resource.saved_views() (docs/be.md#saved-views; test/e2e/kiln.test.ts serves the routes)", () => {
  test("writes the five routes' entries; kiln's arguments stay on the first, where a warning names each", async () => {
    assert.deepEqual(
      views.map((entry) => entry.type),
      ["view_list", "view_create", "view_get", "view_update", "view_delete"],
    );
    const kiln = await jsonnetSnippetValue(
      "(import 'kiln/resources/presets.libsonnet').saved_views('shop.serializers.dump_view', 'shop.guards.is_view_owner')",
      [stdlibParent],
    );
    assert.deepEqual(kiln[0], { name: "list_views", type: "view_list", serializer: "shop.serializers.dump_view", owner_guard: "shop.guards.is_view_owner" });
    const warnings = kilnWarnings({ module: "shop", resources: [viewsArticle(["list", ...kiln])] });
    assert.deepEqual(
      warnings.map((warning) => warning.path),
      ["resources[0].operations[1].serializer", "resources[0].operations[1].owner_guard"],
    );
  });

  test("entries that cannot serve a signed-in user's views of a list are errors at their paths", async () => {
    // No auth: a view has nobody to belong to.
    const noAuth = await configErrorOf({ module: "shop", resources: [viewsArticle(["list", views[0]])] });
    assert.deepEqual(noAuth.issues, [
      { path: "resources[0].operations[1].require_auth", message: "a saved view belongs to the signed-in user who saved it, but this endpoint is not authenticated: the project sets no auth" },
    ]);
    // No list entry of that name; a text key whose routes would take /views for a row.
    const noList = await configErrorOf({ module: "shop", auth: viewsJwt, resources: [viewsArticle(["get", { ...views[1], list: "list_recent" }], "str")] });
    assert.deepEqual(noList.issues, [
      { path: "resources[0].operations[1].list", message: 'names the list whose views these are, but article has no list entry "list_recent"' },
      { path: "resources[0].operations[1].type", message: "saved views live at /articles/views, which a text key's routes would take for a row: they need a uuid or int key" },
    ]);
    // One set of views per resource, of one list: a second create would take the first's route, operation id and body.
    const twoSets = await configErrorOf({
      module: "shop",
      auth: viewsJwt,
      resources: [viewsArticle(["list", { name: "list_recent", type: "list" }, views[1], views[3], { ...views[1], name: "create_recent_view", list: "list_recent" }])],
    });
    assert.deepEqual(twoSets.issues, [
      { path: "resources[0].operations[2].type", message: "article has another view_create entry: a resource's saved views are one set, at /articles/views" },
      { path: "resources[0].operations[2].list", message: 'a resource\'s saved views are of one list, but its view_create entry "create_recent_view" keeps views of "list_recent"' },
      { path: "resources[0].operations[3].list", message: 'a resource\'s saved views are of one list, but its view_create entry "create_recent_view" keeps views of "list_recent"' },
      { path: "resources[0].operations[4].type", message: "article has another view_create entry: a resource's saved views are one set, at /articles/views" },
      { path: "resources[0].operations[4].list", message: 'a resource\'s saved views are of one list, but its view_create entry "create_view" keeps views of "list"' },
    ]);
  });
});
