// The `be` target's jsonnet stdlib (`be/fields.libsonnet`, …), evaluated by codegen's
// jsonnet evaluator with the same import path users get; helper output must satisfy the schemas.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { AuthConfig, DatabaseConfig, FieldSpec, FilterConfig, OrderConfig, PaginateConfig, ProjectConfig } from "../../../src/targets/be/config/schema.js";
import { ActionOptions } from "../../../src/targets/be/operations/action/options.js";
import { jsonnetSnippetValue } from "../../support/jsonnet.js";

const stdlibParent = fileURLToPath(new URL("../../../src/targets/be/jsonnet", import.meta.url));

async function evaluate(code: string): Promise<unknown> {
  return jsonnetSnippetValue(code, [stdlibParent]);
}

describe("be/fields.libsonnet", () => {
  test("each scalar helper returns { name, type } merged with its options", async () => {
    const types = ["uuid", "str", "email", "int", "float", "bool", "datetime", "date", "json"];
    const fields = await evaluate(`
      local f = import 'be/fields.libsonnet';
      [f[t]('field_' + t) for t in ${JSON.stringify(types)}]
    `);
    assert.deepEqual(fields, types.map((type) => ({ name: `field_${type}`, type })));
  });

  test("options are merged as given", async () => {
    const field = await evaluate(`
      local f = import 'be/fields.libsonnet';
      f.str('status', { nullable: true, required: false, default: 'draft', description: 'Workflow state' })
    `);
    assert.deepEqual(field, { name: "status", type: "str", nullable: true, required: false, default: "draft", description: "Workflow state" });
    assert.equal(FieldSpec.safeParse(field).success, true);
  });

  test("nested writes many and load only when given, and composes with itself", async () => {
    const field = await evaluate(`
      local f = import 'be/fields.libsonnet';
      f.nested('author', 'blog.models.Author', [
        f.str('name'),
        f.nested('posts', 'blog.models.Post', [f.str('title')], many=true, load='joined'),
      ])
    `);
    assert.deepEqual(field, {
      name: "author",
      type: "nested",
      model: "blog.models.Author",
      fields: [
        { name: "name", type: "str" },
        { name: "posts", type: "nested", model: "blog.models.Post", many: true, load: "joined", fields: [{ name: "title", type: "str" }] },
      ],
    });
    const parsed = FieldSpec.parse(field);
    assert.equal(parsed.type === "nested" && `${parsed.many} ${parsed.load}`, "false selectin", "the schema's defaults apply");
  });

  test("a misspelt option reaches the schema, which rejects it", async () => {
    const field = await evaluate(`(import 'be/fields.libsonnet').int('count', { nulable: true })`);
    const result = FieldSpec.safeParse(field);
    assert.equal(result.success, false);
    assert.deepEqual(result.error!.issues.map((issue) => issue.code), ["unrecognized_keys"]);
  });
});

describe("be/db/databases.libsonnet", () => {
  test("postgres(name, options) returns { key: name } + options", async () => {
    const databases = await evaluate(`
      local db = import 'be/db/databases.libsonnet';
      [db.postgres('main', { default: true }), db.postgres('analytics', { url_env: 'ANALYTICS_URL', pool_size: 10, pool_recycle: -1 }), db.postgres('logs')]
    `);
    assert.deepEqual(databases, [
      { key: "main", default: true },
      { key: "analytics", url_env: "ANALYTICS_URL", pool_size: 10, pool_recycle: -1 },
      { key: "logs" },
    ]);
    for (const database of databases as unknown[]) assert.equal(DatabaseConfig.safeParse(database).success, true);
  });
});

describe("be/resources/presets.libsonnet", () => {
  test("crud lists the five CRUD operations", async () => {
    assert.deepEqual(await evaluate(`(import 'be/resources/presets.libsonnet').crud`), ["get", "list", "create", "update", "delete"]);
  });

  test("action builds an action entry; params and options are written only when given", async () => {
    const actions = await evaluate(`
      local p = import 'be/resources/presets.libsonnet';
      local f = import 'be/fields.libsonnet';
      [
        p.action('archive', 'blog.actions.archive', 'instance'),
        p.action('import_feed', 'blog.actions.import_feed', 'collection', [f.str('url')], { response: 'none', summary: 'Import' }),
      ]
    `);
    assert.deepEqual(actions, [
      { name: "archive", type: "action", fn: "blog.actions.archive", target: "instance" },
      {
        name: "import_feed",
        type: "action",
        fn: "blog.actions.import_feed",
        target: "collection",
        params: [{ name: "url", type: "str" }],
        response: "none",
        summary: "Import",
      },
    ]);
    for (const action of actions as unknown[]) assert.equal(ActionOptions.safeParse(action).success, true);
  });

  test("instanceAction and collectionAction fix the target", async () => {
    const actions = await evaluate(`
      local p = import 'be/resources/presets.libsonnet';
      [p.instanceAction('publish', 'blog.actions.publish', opts={ slug: 'go-live' }), p.collectionAction('purge', 'blog.actions.purge')]
    `);
    assert.deepEqual(actions, [
      { name: "publish", type: "action", fn: "blog.actions.publish", target: "instance", slug: "go-live" },
      { name: "purge", type: "action", fn: "blog.actions.purge", target: "collection" },
    ]);
  });
});

describe("be/auth/jwt.libsonnet", () => {
  test("jwt(options) returns { type: 'jwt' } + options", async () => {
    const auth = await evaluate(`
      (import 'be/auth/jwt.libsonnet').jwt({ secret_env: 'JWT_SECRET', verify_credentials_fn: 'blog.auth.verify', exclude_paths: ['/health'] })
    `);
    assert.deepEqual(auth, { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify", exclude_paths: ["/health"] });
    assert.equal(AuthConfig.safeParse(auth).success, true);
  });
});

describe("a config written with every helper", () => {
  test("parses as a ProjectConfig", async () => {
    const config = await evaluate(`
      local f = import 'be/fields.libsonnet';
      local db = import 'be/db/databases.libsonnet';
      local p = import 'be/resources/presets.libsonnet';
      local auth = import 'be/auth/jwt.libsonnet';
      {
        databases: [db.postgres('main', { default: true })],
        auth: auth.jwt({ secret_env: 'JWT_SECRET', verify_credentials_fn: 'blog.auth.verify' }),
        module: 'blog',
        resources: [{
          model: 'blog.models.Article',
          fields: [f.uuid('id'), f.str('title'), f.nested('author', 'blog.models.Author', [f.str('name')], load='joined')],
          operations: p.crud + [p.instanceAction('publish_article', 'blog.actions.publish', [f.str('note', { nullable: true })])],
        }],
      }
    `);
    const result = ProjectConfig.safeParse(config);
    assert.equal(result.success, true, JSON.stringify(result.error?.issues));
    const resource = result.data!.apps[0].config.resources[0];
    assert.deepEqual(resource.operations.map((entry) => entry.name), ["get", "list", "create", "update", "delete", "publish_article"]);
    assert.equal(resource.route_prefix, "/articles");
  });
});

describe("be/lists.libsonnet", () => {
  test("searchable builds a list entry whose modifiers each parse, skipping empty ones", async () => {
    const entry = (await evaluate(`
      local l = import 'be/lists.libsonnet';
      l.searchable(
        filters=[l.freeText('title'), l.bool('published'), l.enum('status', 'shop.models.Status'), l.ref('maker_id', 'maker', ['eq']), l.selfRef(), l.literal('price', ['gte'], 'float')],
        order=['price'], default='price', dir='desc', page_size=20,
      )
    `)) as { modifiers: { type: string }[] };
    assert.deepEqual(
      entry.modifiers.map((modifier) => modifier.type),
      ["filter", "order", "paginate"],
    );
    assert.equal(FilterConfig.safeParse(entry.modifiers[0]).success, true);
    assert.deepEqual(parseOk(OrderConfig, entry.modifiers[1]), { type: "order", fields: ["price"], default: "price", default_dir: "desc" });
    assert.deepEqual(parseOk(PaginateConfig, entry.modifiers[2]), { type: "paginate", mode: "keyset", default_page_size: 20, max_page_size: 100 });
    const plain = (await evaluate(`(import 'be/lists.libsonnet').searchable()`)) as { modifiers: { type: string }[] };
    assert.deepEqual(plain.modifiers.map((modifier) => modifier.type), ["paginate"]);
  });

  test("f.link is a link field, its load given only when set", async () => {
    const fields = await evaluate(`
      local f = import 'be/fields.libsonnet';
      [f.link('author', 'author'), f.link('tags', 'tag', many=true, load='selectin')]
    `);
    assert.deepEqual(fields, [
      { name: "author", type: "link", references: "author", many: false },
      { name: "tags", type: "link", references: "tag", many: true, load: "selectin" },
    ]);
    assert.equal(FieldSpec.safeParse((fields as unknown[])[0]).success, true);
  });
});

function parseOk<T extends { safeParse(value: unknown): { success: boolean; data?: unknown } }>(schema: T, value: unknown): unknown {
  const result = schema.safeParse(value);
  assert.equal(result.success, true, JSON.stringify(value));
  return result.data;
}
