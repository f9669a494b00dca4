// The `be` config schemas: valid configs parse to their normalised form (defaults filled,
// the shorthand reshaped into one app whose paths still read as written), and every rule
// rejects a bad config with an issue at the exact config path the user wrote.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import {
  ConfigError,
  Engine,
  OperationRegistry,
  configIssuesOf,
  discoverScopes,
  formatConfigPath,
  operation,
} from "../../../src/codegen/index.js";
import { buildStore, loadPlugins } from "../../../src/codegen/build-output.js";
import { target as be } from "../../../src/targets/be/index.js";
import {
  App,
  AppConfig,
  AuthConfig,
  ColumnRef,
  CrudOptions,
  DatabaseConfig,
  FieldList,
  FieldSpec,
  OperationConfig,
  ProjectConfig,
  ResourceConfig,
  defaultRoutePrefix,
  excludedBy,
  pluralize,
  withArticle,
} from "../../../src/targets/be/config/schema.js";
import { ActionOptions } from "../../../src/targets/be/operations/action/options.js";
import { ListOptions } from "../../../src/targets/be/operations/list/options.js";

interface Issue {
  path: string;
  message: string;
}

/** The issues of a failed parse as `path: message` pairs (unknown keys one per key). */
function issuesOf(schema: z.ZodType, input: unknown): Issue[] {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, `expected ${JSON.stringify(input)} to be rejected`);
  return configIssuesOf(result.error!);
}

/** Asserts that parsing fails with exactly these issues. */
function assertIssues(schema: z.ZodType, input: unknown, expected: Issue[]): void {
  assert.deepEqual(issuesOf(schema, input), expected);
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) assert.fail(`unexpected issues: ${JSON.stringify(configIssuesOf(result.error))}`);
  return result.data;
}

/**
 * The config path the engine reports for each operation entry of a parsed project: a probe
 * operation whose options reject every entry, so the engine names each one.
 */
function operationPaths(config: ProjectConfig): string[] {
  const registry = new OperationRegistry();
  @operation("probe", { scope: "operation", registry })
  class Probe {
    static Options = z.never();
    build(): unknown[] {
      return [];
    }
  }
  try {
    new Engine(registry, { scopes: discoverScopes(ProjectConfig) }).build(config);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => issue.path);
    throw error;
  }
  return assert.fail(`the probe ran without an issue (${Probe.name})`);
}

/**
 * The issues the `be` operations report for a valid resource, as the engine's validation
 * phase finds them (the rules an operation checks in its own folder), with paths relative
 * to the resource.
 */
async function resourceIssues(resource: Record<string, unknown>): Promise<Issue[]> {
  const config = parse(ProjectConfig, { module: "blog", resources: [resource] });
  const prefix = "resources[0].";
  try {
    buildStore(be, config, await loadPlugins(be, {}), undefined);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(({ path, message }) => ({ path: path.startsWith(prefix) ? path.slice(prefix.length) : path, message }));
    throw error;
  }
  return [];
}

/** `resourceIssues` of an article resource with this one entry, with paths relative to the entry. */
async function entryIssues(entry: Record<string, unknown>): Promise<Issue[]> {
  const summary = { name: "summary", fields: [idField] };
  const prefix = "operations[0].";
  const issues = await resourceIssues(article({ operations: [entry], representations: [summary] }));
  return issues.map(({ path, message }) => ({ path: path.startsWith(prefix) ? path.slice(prefix.length) : path, message }));
}

/** `value` as plain JSON: what a parsed config holds, without any bookkeeping it carries. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const idField = { name: "id", type: "uuid" };
const titleField = { name: "title", type: "str" };

function article(overrides: Record<string, unknown> = {}) {
  return { model: "blog.models.Article", fields: [idField, titleField], operations: ["get", "list"], ...overrides };
}

/** A scalar field as parsed, with its defaults. */
function scalar(name: string, type: string, extra: Record<string, unknown> = {}) {
  return { name, type, nullable: false, required: true, ...extra };
}

const defaultDatabase = {
  key: "default",
  url_env: "DATABASE_URL",
  default: true,
  echo: false,
  pool_size: 15,
  max_overflow: 0,
  pool_timeout: 5,
  connect_timeout: 5,
  statement_timeout: 30,
  pool_recycle: -1,
  pool_pre_ping: true,
  transaction_pooling: false,
};

describe("FieldSpec", () => {
  test("a scalar field gets nullable false and required true", () => {
    assert.deepEqual(parse(FieldSpec, titleField), scalar("title", "str"));
  });

  test("required defaults to false for a nullable field or a field with a default", () => {
    assert.equal(parse(FieldSpec, { name: "note", type: "str", nullable: true }).required, false);
    assert.equal(parse(FieldSpec, { name: "status", type: "str", default: "draft" }).required, false);
    assert.equal(parse(FieldSpec, { name: "note", type: "str", nullable: true, required: true }).required, true);
    assert.equal(parse(FieldSpec, { name: "note", type: "str", required: false }).required, false);
  });

  test("keeps default and description", () => {
    assert.deepEqual(parse(FieldSpec, { name: "count", type: "int", default: 0, description: "How many" }), {
      ...scalar("count", "int"),
      required: false,
      default: 0,
      description: "How many",
    });
  });

  test("a nested field gets many false and load selectin, and its sub-fields are parsed", () => {
    const parsed = parse(FieldSpec, {
      name: "author",
      type: "nested",
      model: "blog.models.Author",
      fields: [
        { name: "name", type: "str" },
        { name: "tags", type: "nested", model: "blog.models.Tag", fields: [{ name: "label", type: "str" }], many: true, load: "joined" },
      ],
    });
    assert.deepEqual(parsed, {
      ...scalar("author", "nested"),
      model: "blog.models.Author",
      many: false,
      load: "selectin",
      fields: [
        scalar("name", "str"),
        { ...scalar("tags", "nested"), model: "blog.models.Tag", many: true, load: "joined", fields: [scalar("label", "str")] },
      ],
    });
  });

  test("a nested field requires model and fields", () => {
    assertIssues(FieldSpec, { name: "author", type: "nested" }, [
      { path: "model", message: "required for a nested field: the related model's dotted path" },
      { path: "fields", message: "required for a nested field: the related model's fields to include" },
    ]);
  });

  test("an issue in a nested field's nested fields keeps its whole path", () => {
    const inner = { name: "tags", type: "nested", model: "blog.models.Tag", fields: [titleField, { name: "class", type: "str" }, titleField] };
    assertIssues(FieldSpec, { name: "author", type: "nested", model: "blog.models.Author", fields: [titleField, inner] }, [
      { path: "fields[1].fields[1].name", message: "is a Python keyword; pick another name" },
      { path: "fields[1].fields[2].name", message: 'duplicate field name "title" (already used by entry 0 of this list)' },
    ]);
  });

  test("a default must be a JSON value", () => {
    for (const value of [Number.NaN, () => 1, [1, undefined], { a: Number.POSITIVE_INFINITY }, { at: new Date(0) }]) {
      assertIssues(FieldSpec, { name: "x", type: "json", default: value }, [{ path: "default", message: "expected a JSON value" }]);
    }
  });

  test("a nested field's fields must not be empty", () => {
    assertIssues(FieldSpec, { name: "author", type: "nested", model: "blog.models.Author", fields: [] }, [
      { path: "fields", message: "must list at least one field" },
    ]);
  });

  test("a nested field's model must be a dotted path with at least two parts", () => {
    assertIssues(FieldSpec, { name: "author", type: "nested", model: "Author", fields: [titleField] }, [
      { path: "model", message: 'must be a dotted import path with a module and a name, like "blog.models.Article"' },
    ]);
    assertIssues(FieldSpec, { name: "author", type: "nested", model: "blog.class.Author", fields: [titleField] }, [
      { path: "model", message: "has a Python keyword as one of its parts" },
    ]);
  });

  test("a non-nested field rejects each nested-only key at that key", () => {
    const message = `only allowed on nested fields (this field's type is "str")`;
    assertIssues(FieldSpec, { name: "title", type: "str", model: "blog.models.Author", fields: [titleField], many: true, load: "joined" }, [
      { path: "model", message },
      { path: "fields", message },
      { path: "many", message },
      { path: "load", message },
    ]);
  });

  test("an enum field needs the dotted path of its Enum class, and only an enum field takes one", () => {
    assertIssues(FieldSpec, { name: "status", type: "enum" }, [
      { path: "enum", message: 'required for an enum field: the dotted path of its Python Enum class, like "blog.models.ArticleStatus"' },
    ]);
    assertIssues(FieldSpec, { name: "status", type: "enum", enum: "ArticleStatus" }, [
      { path: "enum", message: 'must be a dotted import path with a module and a name, like "blog.models.Article"' },
    ]);
    assertIssues(FieldSpec, { name: "status", type: "str", enum: "blog.models.ArticleStatus" }, [{ path: "enum", message: 'only allowed on enum fields (this field\'s type is "str")' }]);
    assertIssues(FieldSpec, { name: "status", type: "enum", enum: "blog.models.ArticleStatus", default: { draft: true } }, [
      { path: "default", message: "an enum field's default must be a member's value (a string or a number)" },
    ]);
    assert.deepEqual(FieldSpec.parse({ name: "status", type: "enum", enum: "blog.models.ArticleStatus", default: "draft" }), {
      name: "status",
      type: "enum",
      enum: "blog.models.ArticleStatus",
      nullable: false,
      required: false,
      default: "draft",
    });
  });

  test("rejects unknown keys, unknown types and load strategies", () => {
    assertIssues(FieldSpec, { name: "title", type: "str", nulable: true }, [{ path: "nulable", message: "unknown key" }]);
    assertIssues(FieldSpec, { name: "title", type: "string" }, [
      {
        path: "type",
        message: 'Invalid option: expected one of "uuid"|"str"|"email"|"int"|"float"|"bool"|"datetime"|"date"|"json"|"enum"|"nested"|"link"',
      },
    ]);
    assertIssues(FieldSpec, { name: "a", type: "nested", model: "m.A", fields: [titleField], load: "lazy" }, [
      { path: "load", message: 'Invalid option: expected one of "selectin"|"joined"|"subquery"' },
    ]);
  });

  test("the name must be a Python identifier and not a keyword", () => {
    assertIssues(FieldSpec, { name: "2nd", type: "str" }, [
      { path: "name", message: "must be a Python identifier (letters, digits and underscores, not starting with a digit)" },
    ]);
    assertIssues(FieldSpec, { name: "class", type: "str" }, [{ path: "name", message: "is a Python keyword; pick another name" }]);
  });

  test("a default must suit the field's type", () => {
    const valid: [string, unknown][] = [
      ["uuid", "6f1c8a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"],
      ["str", ""],
      ["email", "a@example.com"],
      ["int", 3],
      ["float", 1.5],
      ["bool", false],
      ["datetime", "2024-01-31T12:00:00Z"],
      ["date", "2024-01-31"],
      ["json", { a: [1] }],
    ];
    for (const [type, value] of valid) assert.deepEqual(parse(FieldSpec, { name: "x", type, default: value }).default, value);
    assertIssues(FieldSpec, { name: "x", type: "int", default: 1.5 }, [{ path: "default", message: "an int field's default must be an integer" }]);
    assertIssues(FieldSpec, { name: "x", type: "date", default: "31/01/2024" }, [
      { path: "default", message: 'a date field\'s default must be an ISO 8601 date string like "2024-01-31"' },
    ]);
    assertIssues(FieldSpec, { name: "x", type: "json", default: [1] }, [{ path: "default", message: "a json field's default must be a JSON object" }]);
    assertIssues(FieldSpec, { name: "x", type: "nested", model: "m.A", fields: [titleField], default: {} }, [
      { path: "default", message: "nested fields take no default" },
    ]);
  });

  test("a null default needs nullable; a default contradicts required: true", () => {
    assert.deepEqual(parse(FieldSpec, { name: "x", type: "str", nullable: true, default: null }), {
      ...scalar("x", "str"),
      nullable: true,
      required: false,
      default: null,
    });
    assertIssues(FieldSpec, { name: "x", type: "str", default: null }, [
      { path: "default", message: "null is a default only for a nullable field (set nullable: true)" },
    ]);
    assertIssues(FieldSpec, { name: "x", type: "str", default: "a", required: true }, [
      { path: "required", message: "a field with a default is optional in create bodies: drop required or the default" },
    ]);
  });
});

describe("FieldList", () => {
  test("must not be empty", () => {
    assertIssues(FieldList, [], [{ path: "", message: "must list at least one field" }]);
  });

  test("names are unique within a list, nested lists included", () => {
    assertIssues(FieldList, [idField, titleField, { name: "title", type: "int" }], [
      { path: "[2].name", message: 'duplicate field name "title" (already used by entry 1 of this list)' },
    ]);
    assertIssues(FieldList, [{ name: "author", type: "nested", model: "m.A", fields: [titleField, titleField] }], [
      { path: "[0].fields[1].name", message: 'duplicate field name "title" (already used by entry 0 of this list)' },
    ]);
    // The same name at two levels is fine.
    assert.equal(parse(FieldList, [titleField, { name: "author", type: "nested", model: "m.A", fields: [titleField] }]).length, 2);
  });
});

describe("ColumnRef", () => {
  test("direction defaults to asc", () => {
    assert.deepEqual(parse(ColumnRef, { column: "created_at" }), { column: "created_at", direction: "asc" });
  });

  test("rejects a bad direction, a bad column and unknown keys", () => {
    assertIssues(ColumnRef, { column: "created_at", direction: "down" }, [
      { path: "direction", message: 'Invalid option: expected one of "asc"|"desc"' },
    ]);
    assertIssues(ColumnRef, { column: "created-at" }, [
      { path: "column", message: "must be a Python identifier (letters, digits and underscores, not starting with a digit)" },
    ]);
    assertIssues(ColumnRef, { column: "a", dir: "desc" }, [{ path: "dir", message: "unknown key" }]);
  });
});

describe("OperationConfig", () => {
  test("a name becomes { name, type }", () => {
    assert.deepEqual(parse(OperationConfig, "get"), { name: "get", type: "get" });
  });

  test("an object's type defaults to its name; its other keys are kept as written", () => {
    assert.deepEqual(parse(OperationConfig, { name: "list", summary: "All" }), { name: "list", type: "list", summary: "All" });
    assert.deepEqual(parse(OperationConfig, { name: "list_published", type: "list", modifiers: [{ type: "paginate", max_page_size: 20 }] }), {
      name: "list_published",
      type: "list",
      modifiers: [{ type: "paginate", max_page_size: 20 }],
    });
  });

  test("names must be identifiers", () => {
    const message = "must be an identifier (letters, digits and underscores, not starting with a digit)";
    assertIssues(OperationConfig, "publish-article", [{ path: "", message }]);
    assertIssues(OperationConfig, { name: "publish article" }, [{ path: "name", message }]);
    assertIssues(OperationConfig, { name: "list2", type: "list!" }, [{ path: "type", message }]);
  });

  test("an entry neither a name nor an object with a name is rejected as a whole", () => {
    const message = 'expected an operation name like "get", or an object { name, type?, ...options }';
    assertIssues(OperationConfig, { type: "list" }, [{ path: "", message }]);
    assertIssues(OperationConfig, 3, [{ path: "", message }]);
  });
});

describe("CrudOptions and ListOptions", () => {
  test("CrudOptions accepts the CRUD keys and keeps a field override", () => {
    assert.deepEqual(parse(CrudOptions, { name: "create", type: "create", fields: [titleField], summary: "Write one" }), {
      name: "create",
      type: "create",
      fields: [scalar("title", "str")],
      summary: "Write one",
    });
    // get and list fields (kiln's style) are checked by the resource, which knows whether it lists its own.
    const nested = { name: "author", type: "nested", model: "blog.models.Author", fields: [titleField] };
    for (const type of ["get", "list"]) {
      assert.equal(CrudOptions.safeParse({ name: type, type, fields: [idField, nested] }).success, true);
      assertIssues(ResourceConfig, { model: "blog.models.Article", fields: [idField], operations: [{ name: type, fields: [idField] }] }, [
        {
          path: "operations[0].fields",
          message: `${type} answers with the resource's read shape: set the resource's fields instead, or drop the resource's fields and declare them per operation`,
        },
      ]);
    }
  });

  test("create and update fields must be scalar", async () => {
    const nested = { name: "author", type: "nested", model: "blog.models.Author", fields: [titleField] };
    for (const type of ["create", "update"]) {
      assert.deepEqual(await entryIssues({ name: type, type, fields: [titleField, nested] }), [
        { path: "fields[1].type", message: "nested fields are only allowed in get and list" },
      ]);
    }
  });

  test("create and update write a link with many from keys; a to-one or nullable link is refused at its key", async () => {
    // An article linking articles (a self-link keeps the app to one resource).
    const related = { name: "related", type: "link", references: "article", many: true };
    const linked = (entry: Record<string, unknown>) => resourceIssues(article({ link: { name: "title" }, operations: ["get", entry] }));
    for (const type of ["create", "update"]) {
      assert.deepEqual(await linked({ name: type, type, fields: [titleField, related] }), []);
      assert.deepEqual(await linked({ name: type, type, fields: [{ ...related, many: false }, { ...related, name: "others", nullable: true }] }), [
        { path: "operations[1].fields[0].many", message: "a body writes a to-one relationship through its key field (such as author_id): a link field here needs many: true" },
        { path: "operations[1].fields[1].nullable", message: "a list of keys is never null: an empty list unlinks every row" },
      ]);
    }
  });

  test("delete takes no fields; unknown keys and types are rejected", async () => {
    assert.deepEqual(await entryIssues({ name: "delete", type: "delete", fields: [idField] }), [
      { path: "fields", message: "delete returns no body: fields has no effect here" },
    ]);
    assertIssues(CrudOptions, { name: "get", type: "get", modifiers: [] }, [{ path: "modifiers", message: "unknown key" }]);
    assert.deepEqual(await entryIssues({ name: "delete", type: "delete", representation: "summary" }), [
      { path: "representation", message: "delete returns no body: representation has no effect here" },
    ]);
    assert.deepEqual(await entryIssues({ name: "x", type: "patch" }), [
      { path: "type", message: "unknown operation \"patch\"; expected one of: action, create, delete, file_complete, file_delete, file_download, file_upload, get, list, permissions, update, values, view_create, view_delete, view_get, view_list, view_update" },
    ]);
  });

  test("require_auth is optional (the resource decides) and must be a boolean", () => {
    assert.equal(parse(CrudOptions, { name: "get", type: "get" }).require_auth, undefined);
    assert.equal(parse(CrudOptions, { name: "get", type: "get", require_auth: false }).require_auth, false);
    assert.equal(parse(ListOptions, { name: "list", type: "list", require_auth: true }).require_auth, true);
    assertIssues(CrudOptions, { name: "get", type: "get", require_auth: "no" }, [
      { path: "require_auth", message: "Invalid input: expected boolean, received string" },
    ]);
  });

  test("ListOptions keeps its modifiers for their own operations to parse; paging keys moved to the paginate modifier", () => {
    assert.deepEqual(parse(ListOptions, { name: "list", type: "list" }), { name: "list", type: "list", modifiers: [] });
    assert.deepEqual(parse(ListOptions, { name: "list", type: "list", modifiers: [{ type: "sort", by: 1 }] }).modifiers, [{ type: "sort", by: 1 }]);
    assertIssues(ListOptions, { name: "list", type: "list", default_limit: 30 }, [{ path: "default_limit", message: "unknown key" }]);
    assertIssues(ListOptions, { name: "list", type: "list", modifiers: [{ kind: "order" }] }, [{ path: "modifiers[0].type", message: "Invalid input: expected string, received undefined" }]);
    assertIssues(ListOptions, { name: "list", type: "get" }, [{ path: "type", message: 'Invalid input: expected "list"' }]);
  });
});

describe("ActionOptions", () => {
  const publish = { name: "publish_article", type: "action", fn: "blog.actions.publish_article", target: "instance" };

  test("an instance action defaults to the instance response, status 200, its slug and no params", () => {
    assert.deepEqual(parse(ActionOptions, publish), {
      ...publish,
      params: [],
      pass_user: false,
      response: "instance",
      status_code: 200,
      slug: "publish-article",
      reads_signature: false,
    });
  });

  test("kiln's convention naming none of body, response, model_param and status_code reads them off the function", () => {
    const kiln = { ...publish, convention: "kiln" };
    assert.equal(parse(ActionOptions, kiln).reads_signature, true);
    for (const named of [{ body: "blog.actions.Note" }, { response: "none" }, { model_param: "model" }, { status_code: 202 }]) {
      assert.equal(parse(ActionOptions, { ...kiln, ...named }).reads_signature, false, JSON.stringify(named));
    }
  });

  test("a collection action defaults to a JSON response; response none defaults to 204", () => {
    const collection = { ...publish, name: "importFeed", target: "collection" };
    assert.deepEqual(parse(ActionOptions, collection), { ...collection, params: [], pass_user: false, response: "json", status_code: 200, slug: "import-feed", reads_signature: false });
    const silent = parse(ActionOptions, { ...collection, response: "none" });
    assert.equal(silent.status_code, 204);
    assert.equal(parse(ActionOptions, { ...collection, response: "none", status_code: 202 }).status_code, 202);
  });

  test("keeps params, an explicit slug and a summary", () => {
    const parsed = parse(ActionOptions, { ...publish, params: [{ name: "note", type: "str", nullable: true }], slug: "go-live", summary: "Publish it" });
    assert.deepEqual(parsed.params, [{ ...scalar("note", "str"), nullable: true, required: false }]);
    assert.equal(parsed.slug, "go-live");
    assert.equal(parsed.summary, "Publish it");
  });

  test("require_auth and pass_user: kept as written (the action operation checks that pass_user is authenticated)", () => {
    const parsed = parse(ActionOptions, { ...publish, require_auth: true, pass_user: true });
    assert.equal(parsed.require_auth, true);
    assert.equal(parsed.pass_user, true);
    assert.equal(parse(ActionOptions, publish).require_auth, undefined, "unset: the cascade decides");
    assertIssues(ActionOptions, { ...publish, pass_user: "yes" }, [{ path: "pass_user", message: "Invalid input: expected boolean, received string" }]);
  });

  test("target defaults to instance (kiln configs leave it out; the target warns) and must be one of two", () => {
    const { target: _target, ...withoutTarget } = publish;
    assert.equal(parse(ActionOptions, withoutTarget).target, "instance");
    assertIssues(ActionOptions, { ...publish, target: "row" }, [{ path: "target", message: 'Invalid option: expected one of "instance"|"collection"' }]);
  });

  test("params must be scalar and uniquely named", () => {
    const nested = { name: "author", type: "nested", model: "blog.models.Author", fields: [titleField] };
    assertIssues(ActionOptions, { ...publish, params: [titleField, nested] }, [
      { path: "params[1].type", message: "action params must be scalar: nested fields are only allowed in get and list" },
    ]);
    assertIssues(ActionOptions, { ...publish, params: [titleField, titleField] }, [
      { path: "params[1].name", message: 'duplicate field name "title" (already used by entry 0 of this list)' },
    ]);
  });

  test("rejects a bad fn, slug, status or response combination", () => {
    assertIssues(ActionOptions, { ...publish, fn: "publish" }, [
      { path: "fn", message: 'must be a dotted import path with a module and a name, like "blog.models.Article"' },
    ]);
    assertIssues(ActionOptions, { ...publish, slug: "Go_Live" }, [
      { path: "slug", message: 'must be lowercase letters and digits separated by single hyphens, like "publish-article"' },
    ]);
    assertIssues(ActionOptions, { ...publish, status_code: 404 }, [{ path: "status_code", message: "must be a 2xx success status" }]);
    assertIssues(ActionOptions, { ...publish, status_code: 204 }, [
      {
        path: "status_code",
        message: '204 No Content sends no body, but this action\'s response is "instance": set response: "none" or pick another status',
      },
    ]);
    // Neither a kind nor a model's dotted path: zod reports the option of its type, the string's.
    assertIssues(ActionOptions, { ...publish, response: "html" }, [
      { path: "response", message: 'must be a dotted import path with a module and a name, like "blog.models.Article"' },
    ]);
    assertIssues(ActionOptions, { ...publish, method: "PUT" }, [{ path: "method", message: "unknown key" }]);
  });
});

describe("DatabaseConfig", () => {
  test("fills every default; the default database reads DATABASE_URL", () => {
    assert.deepEqual(parse(DatabaseConfig, { key: "default", default: true }), defaultDatabase);
  });

  test("another database reads <KEY>_DATABASE_URL unless url_env is given", () => {
    assert.equal(parse(DatabaseConfig, { key: "analytics" }).url_env, "ANALYTICS_DATABASE_URL");
    assert.equal(parse(DatabaseConfig, { key: "analytics", url_env: "STATS_URL" }).url_env, "STATS_URL");
    assert.equal(parse(DatabaseConfig, { key: "main", default: true, url_env: "PG_URL" }).url_env, "PG_URL");
  });

  test("keeps pool settings, including pool_recycle -1 and above", () => {
    const parsed = parse(DatabaseConfig, { key: "main", echo: true, pool_size: 20, max_overflow: 0, pool_timeout: 5, pool_recycle: 1800, pool_pre_ping: false, transaction_pooling: true });
    assert.deepEqual(parsed, {
      key: "main",
      url_env: "MAIN_DATABASE_URL",
      default: false,
      echo: true,
      pool_size: 20,
      max_overflow: 0,
      pool_timeout: 5,
      connect_timeout: 5,
      statement_timeout: 30,
      pool_recycle: 1800,
      pool_pre_ping: false,
      transaction_pooling: true,
    });
  });

  test("rejects bad values and unknown keys", () => {
    assertIssues(DatabaseConfig, { key: "main", pool_recycle: -5 }, [
      { path: "pool_recycle", message: "must be -1 (never recycle) or a number of seconds" },
    ]);
    assertIssues(DatabaseConfig, { key: "main", pool_size: 0 }, [{ path: "pool_size", message: "Too small: expected number to be >=1" }]);
    assertIssues(DatabaseConfig, { key: "main", max_overflow: -1 }, [{ path: "max_overflow", message: "Too small: expected number to be >=0" }]);
    assertIssues(DatabaseConfig, { key: "main", url_env: "DATABASE-URL" }, [
      { path: "url_env", message: 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)' },
    ]);
    assertIssues(DatabaseConfig, { key: "main", pool_sise: 3 }, [{ path: "pool_sise", message: "unknown key" }]);
    assertIssues(DatabaseConfig, { default: true }, [{ path: "key", message: "Invalid input: expected string, received undefined" }]);
  });

  test("replicas fill their defaults, their URLs' variable named after the primary's", () => {
    assert.deepEqual(parse(DatabaseConfig, { key: "main", default: true, replicas: {} }).replicas, {
      url_env: "DATABASE_REPLICA_URLS",
      max_lag: 5,
      check_interval: 1,
      fallback: "primary",
    });
    assert.equal(parse(DatabaseConfig, { key: "stats", url_env: "STATS_URL", replicas: { max_lag: 1 } }).replicas?.url_env, "STATS_REPLICA_URLS");
    assert.equal(parse(DatabaseConfig, { key: "stats", replicas: { url_env: "STATS_READERS" } }).replicas?.url_env, "STATS_READERS");
    assert.equal("replicas" in parse(DatabaseConfig, { key: "main" }), false);
    assertIssues(DatabaseConfig, { key: "main", replicas: { max_lag: 0, fallback: "fail" } }, [
      { path: "replicas.max_lag", message: "Too small: expected number to be >0" },
      { path: "replicas.fallback", message: 'Invalid option: expected one of "primary"|"unavailable"' },
    ]);
  });
});

describe("AuthConfig", () => {
  const jwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify_credentials" };

  test("the JWT flow fills its defaults", () => {
    assert.deepEqual(parse(AuthConfig, jwt), {
      ...jwt,
      algorithm: "HS256",
      token_url: "/auth/token",
      exclude_paths: [],
      token_lifetime_seconds: 3600,
      token_rate_limit: { username: "10/minute;100/hour", address: "30/minute;300/hour" },
      sources: ["bearer"],
    });
  });

  test("token_rate_limit: each key defaults apart, false turns one or both off, bad limits at their path", () => {
    const limits = (token_rate_limit: unknown) => (parse(AuthConfig, { ...jwt, token_rate_limit }) as { token_rate_limit: unknown }).token_rate_limit;
    assert.deepEqual(limits({ username: "5/minute;50/day" }), { username: "5/minute;50/day", address: "30/minute;300/hour" });
    assert.deepEqual(limits({ address: false }), { username: "10/minute;100/hour" });
    assert.deepEqual(limits(false), {});
    assertIssues(AuthConfig, { ...jwt, token_rate_limit: { username: "5/week" } }, [
      { path: "token_rate_limit.username", message: '"5/week" is not a limit like "5/minute" (a count from 1, then / and one of second, minute, hour, day)' },
    ]);
    assertIssues(AuthConfig, { type: "jwt", get_current_user_fn: "blog.auth.current_user", token_rate_limit: false }, [
      { path: "token_rate_limit", message: "has no effect with get_current_user_fn: your dependency replaces the generated token flow; remove this key" },
    ]);
  });

  test("verify_credentials_fn is required unless get_current_user_fn is set", () => {
    const { verify_credentials_fn: _fn, ...withoutVerify } = jwt;
    assertIssues(AuthConfig, withoutVerify, [
      {
        path: "verify_credentials_fn",
        message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials",
      },
    ]);
    assertIssues(AuthConfig, { type: "jwt" }, [
      { path: "secret_env", message: 'required: the environment variable holding the signing secret, like "JWT_SECRET"' },
      {
        path: "verify_credentials_fn",
        message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials",
      },
    ]);
  });

  test("get_current_user_fn replaces the JWT flow: no secret, and no JWT-only key", () => {
    const custom = { type: "jwt", get_current_user_fn: "blog.auth.current_user", exclude_paths: ["/health"] };
    assert.deepEqual(parse(AuthConfig, custom), custom);
    assert.deepEqual(parse(AuthConfig, { type: "jwt", get_current_user_fn: "blog.auth.current_user" }), {
      type: "jwt",
      get_current_user_fn: "blog.auth.current_user",
      exclude_paths: [],
    });
    const message = "has no effect with get_current_user_fn: your dependency replaces the generated token flow; remove this key";
    assertIssues(AuthConfig, { ...jwt, get_current_user_fn: "blog.auth.current_user", algorithm: "HS256", issuer: "blog" }, [
      { path: "secret_env", message },
      { path: "algorithm", message },
      { path: "verify_credentials_fn", message },
      { path: "issuer", message },
    ]);
  });

  test("keeps the optional settings", () => {
    const full = {
      ...jwt,
      algorithm: "HS512",
      token_url: "/login",
      exclude_paths: ["/health", "/tags*", "/articles/{pk}", "/public/*"],
      token_lifetime_seconds: 60,
      issuer: "blog",
      audience: "web",
    };
    assert.deepEqual(parse(AuthConfig, full), { ...full, sources: ["bearer"], token_rate_limit: { username: "10/minute;100/hour", address: "30/minute;300/hour" } });
  });

  test("rejects bad values and unknown keys", () => {
    assertIssues(AuthConfig, { ...jwt, type: "oauth" }, [{ path: "type", message: 'Invalid input: expected "jwt"' }]);
    assertIssues(AuthConfig, { ...jwt, secret_env: "JWT-SECRET" }, [
      { path: "secret_env", message: 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)' },
    ]);
    assertIssues(AuthConfig, { ...jwt, algorithm: "none" }, [
      {
        path: "algorithm",
        message:
          'Invalid option: expected one of "HS256"|"HS384"|"HS512"|"RS256"|"RS384"|"RS512"|"ES256"|"ES384"|"ES512"|"PS256"|"PS384"|"PS512"|"EdDSA"',
      },
    ]);
    assertIssues(AuthConfig, { ...jwt, token_url: "auth/token" }, [
      { path: "token_url", message: 'must be a URL path like "/articles": starting with "/", without a trailing "/" or empty segments' },
    ]);
    const shape = 'must be a path starting with "/", optionally ending in "*" (a prefix): "/health", "/tags*"';
    assertIssues(AuthConfig, { ...jwt, exclude_paths: ["health", "/a*b", "/a b"] }, [
      { path: "exclude_paths[0]", message: shape },
      { path: "exclude_paths[1]", message: shape },
      { path: "exclude_paths[2]", message: shape },
    ]);
    assertIssues(AuthConfig, { ...jwt, exclude_paths: ["/tags/"] }, [
      { path: "exclude_paths[0]", message: 'ends with "/" and would match no route: drop the "/", or end it with "*" to match a prefix' },
    ]);
    assertIssues(AuthConfig, { ...jwt, token_lifetime_seconds: 0 }, [{ path: "token_lifetime_seconds", message: "Too small: expected number to be >=1" }]);
    assertIssues(AuthConfig, { ...jwt, secret: "x" }, [{ path: "secret", message: "unknown key" }]);
  });
});

describe("exclude_paths matching", () => {
  test("an entry matches its exact path; a trailing * matches every path it prefixes", () => {
    assert.equal(excludedBy("/articles/count-words", ["/articles/count-words"]), "/articles/count-words");
    assert.equal(excludedBy("/articles/count-words/x", ["/articles/count-words"]), undefined);
    assert.equal(excludedBy("/articles", ["/articles/{pk}"]), undefined);
    assert.equal(excludedBy("/articles/{pk}", ["/articles/{pk}"]), "/articles/{pk}");
    assert.equal(excludedBy("/tags", ["/tags*"]), "/tags*");
    assert.equal(excludedBy("/tags/{pk}", ["/tags*"]), "/tags*");
    assert.equal(excludedBy("/tags", ["/tags/*"]), undefined);
    assert.equal(excludedBy("/tags/{pk}", ["/tags/*"]), "/tags/*");
    assert.equal(excludedBy("/anything", ["/*"]), "/*");
    assert.equal(excludedBy("/tags", []), undefined);
  });
});

describe("resource naming", () => {
  test("pluralize follows the -ies, -es, -s rules", () => {
    assert.deepEqual(
      ["category", "day", "address", "box", "quiz", "church", "dish", "movement"].map(pluralize),
      ["categories", "days", "addresses", "boxes", "quizes", "churches", "dishes", "movements"],
    );
  });

  test("the default route prefix is the plural slug of the model class", () => {
    assert.equal(defaultRoutePrefix("inventory.models.StockMovement"), "/stock-movements");
    assert.equal(defaultRoutePrefix("blog.models.Category"), "/categories");
    assert.equal(defaultRoutePrefix("crm.models.Address"), "/addresses");
    assert.equal(defaultRoutePrefix("net.models.HTTPProxy"), "/http-proxies");
  });
});

describe("ResourceConfig", () => {
  test("fills name, route prefix, pk and pk_type; cascading settings stay unset", () => {
    assert.deepEqual(parse(ResourceConfig, article({ model: "inventory.models.StockMovement" })), {
      model: "inventory.models.StockMovement",
      name: "stock_movement",
      route_prefix: "/stock-movements",
      pk: "id",
      pk_type: "uuid",
      representations: [],
      default_representation: "read",
      fields: [scalar("id", "uuid"), scalar("title", "str")],
      operations: [
        { name: "get", type: "get" },
        { name: "list", type: "list" },
      ],
    });
  });

  test("keeps what is given", () => {
    const parsed = parse(
      ResourceConfig,
      article({
        name: "post",
        route_prefix: "/posts",
        pk: "post_id",
        pk_type: "int",
        db_key: "analytics",
        generate_tests: true,
        require_auth: false,
        fields: [{ name: "post_id", type: "int" }],
      }),
    );
    assert.deepEqual(
      [parsed.name, parsed.route_prefix, parsed.pk, parsed.pk_type, parsed.db_key, parsed.generate_tests, parsed.require_auth],
      ["post", "/posts", "post_id", "int", "analytics", true, false],
    );
  });

  test("model is required; fields and operations must not be empty", () => {
    assertIssues(ResourceConfig, { fields: [idField], operations: ["get"] }, [
      { path: "model", message: "Invalid input: expected string, received undefined" },
    ]);
    assertIssues(ResourceConfig, article({ fields: [], operations: [] }), [
      { path: "fields", message: "must list at least one field" },
      { path: "operations", message: "must list at least one operation" },
    ]);
  });

  test("include_actions_in_dump reserves the read field name actions, in the fields and in a representation", () => {
    const issue = { path: "include_actions_in_dump", message: 'each row then carries "actions": rename the read field named "actions"' };
    assertIssues(ResourceConfig, article({ include_actions_in_dump: true, fields: [idField, { name: "actions", type: "str" }] }), [issue]);
    assertIssues(ResourceConfig, article({ include_actions_in_dump: true, representations: [{ name: "brief", fields: [idField, { name: "actions", type: "int" }] }] }), [issue]);
    assert.equal(parse(ResourceConfig, article({ include_actions_in_dump: true })).include_actions_in_dump, true);
  });

  test("name must be snake_case; route_prefix a path without a trailing slash", () => {
    assertIssues(ResourceConfig, article({ name: "BlogPost" }), [
      { path: "name", message: "must be lowercase snake_case (a-z, 0-9 and _, not starting with a digit)" },
    ]);
    assertIssues(ResourceConfig, article({ route_prefix: "/posts/" }), [
      { path: "route_prefix", message: 'must be a URL path like "/articles": starting with "/", without a trailing "/" or empty segments' },
    ]);
    assertIssues(ResourceConfig, article({ pk_type: "bigint" }), [{ path: "pk_type", message: 'Invalid option: expected one of "uuid"|"int"|"str"' }]);
    assertIssues(ResourceConfig, article({ route: "/posts" }), [{ path: "route", message: "unknown key" }]);
  });

  test("operation names are unique: the issue is at the later entry's name, or at a plain-string entry", () => {
    assertIssues(ResourceConfig, article({ operations: ["get", "list", { name: "get", type: "get" }] }), [
      {
        path: "operations[2].name",
        message: 'duplicate operation name "get" (already used by operations[0]); give one of them another name and set its type',
      },
    ]);
    assertIssues(ResourceConfig, article({ operations: ["get", "list", "get"] }), [
      {
        path: "operations[2]",
        message: 'duplicate operation name "get" (already used by operations[0]); give one of them another name and set its type',
      },
    ]);
    assert.equal(parse(ResourceConfig, article({ operations: ["list", { name: "list_published", type: "list" }] })).operations.length, 2);
  });

  test("two actions whose slugs collide are rejected", async () => {
    const action = (name: string, extra = {}) => ({ name, type: "action", fn: "blog.actions.publish", target: "instance", ...extra });
    for (const spelling of ["publishArticle", "PublishArticle"]) {
      assert.deepEqual(await resourceIssues(article({ operations: ["get", action("publish_article"), action(spelling)] })), [
        {
          path: "operations[2].name",
          message: 'action slug "publish-article" collides with operations[1] ("publish_article"); rename one or set its slug',
        },
      ]);
    }
    assert.deepEqual(await resourceIssues(article({ operations: [action("publish"), action("go_live", { slug: "publish" })] })), [
      { path: "operations[1].slug", message: 'action slug "publish" collides with operations[0] ("publish"); rename one or set its slug' },
    ]);
    // An explicit slug resolves the clash.
    assert.deepEqual(await resourceIssues(article({ operations: [action("publish_article"), action("publishArticle", { slug: "publish-now" })] })), []);
  });

  test("a primary-key field must have the resource's pk_type", () => {
    assertIssues(ResourceConfig, article({ fields: [{ name: "id", type: "int" }, titleField] }), [
      { path: "fields[0].type", message: 'the primary key "id" has pk_type "uuid": make them agree (set pk_type: "int" or change this type)' },
    ]);
  });
});

describe("AppConfig and App", () => {
  test("App's prefix defaults to / + module; an explicit \"\" mounts at the root", () => {
    const config = { module: "blog", resources: [article()] };
    assert.equal(parse(App, { config }).prefix, "/blog");
    assert.equal(parse(App, { config, prefix: "" }).prefix, "");
    assert.equal(parse(App, { config, prefix: "/api/blog" }).prefix, "/api/blog");
    assertIssues(App, { config, prefix: "blog/" }, [
      { path: "prefix", message: 'must be "" or a URL path like "/blog": starting with "/", without a trailing "/"' },
    ]);
  });

  test("module must be a Python name; resources must not be empty", () => {
    assertIssues(AppConfig, { module: "my-blog", resources: [] }, [
      { path: "module", message: "must be a Python identifier (letters, digits and underscores, not starting with a digit)" },
      { path: "resources", message: "must list at least one resource" },
    ]);
  });

  test("resource names are unique within an app: at name when given, at model when derived", () => {
    assertIssues(AppConfig, { module: "blog", resources: [article({ name: "post" }), article({ model: "blog.other.Post", name: "post", route_prefix: "/p" })] }, [
      { path: "resources[1].name", message: 'resource name "post" is already used by resources[0]; set name to tell them apart' },
    ]);
    assertIssues(AppConfig, { module: "blog", resources: [article(), article({ model: "blog.legacy.Article", route_prefix: "/old" })] }, [
      {
        path: "resources[1].model",
        message: 'resource name "article" (derived from the model) is already used by resources[0]; set name to tell them apart',
      },
    ]);
  });

  test("route prefixes are unique within an app", () => {
    assertIssues(AppConfig, { module: "blog", resources: [article(), article({ model: "blog.models.Post", route_prefix: "/articles" })] }, [
      { path: "resources[1].route_prefix", message: 'route prefix "/articles" is already used by resources[0]; set route_prefix to tell them apart' },
    ]);
  });
});

describe("ProjectConfig", () => {
  test("the single-app shorthand becomes one app", () => {
    const parsed = parse(ProjectConfig, { module: "blog", resources: [article()] });
    const resource = {
      model: "blog.models.Article",
      name: "article",
      route_prefix: "/articles",
      pk: "id",
      pk_type: "uuid",
      representations: [],
      default_representation: "read",
      fields: [scalar("id", "uuid"), scalar("title", "str")],
      operations: [
        { name: "get", type: "get" },
        { name: "list", type: "list" },
      ],
    };
    assert.deepEqual(plain(parsed), {
      package_prefix: "",
      databases: [defaultDatabase],
      trusted_proxies: [],
      generate_tests: false,
      require_auth: true,
      max_body_size: 1_048_576,
      idempotency_expiry: 86_400,
      apps: [{ config: { module: "blog", resources: [resource] }, prefix: "" }],
      single_app: true,
    });
  });

  test("problems in a shorthand app are reported at the paths the user wrote", () => {
    const parsed = parse(ProjectConfig, { module: "blog", resources: [article(), article({ model: "blog.models.Tag" })] });
    assert.deepEqual(operationPaths(parsed), ["resources[0].operations[0]", "resources[0].operations[1]", "resources[1].operations[0]", "resources[1].operations[1]"]);
  });

  test("the shorthand keeps an explicit prefix, auth and package prefix", () => {
    const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify_credentials" };
    const parsed = parse(ProjectConfig, { package_prefix: "backend.api", module: "blog", prefix: "", resources: [article()], auth });
    assert.equal(parsed.package_prefix, "backend.api");
    assert.equal(parsed.apps[0].prefix, "");
    assert.deepEqual(parsed.auth, { ...auth, algorithm: "HS256", token_url: "/auth/token", exclude_paths: [], token_lifetime_seconds: 3600, token_rate_limit: { username: "10/minute;100/hour", address: "30/minute;300/hour" }, sources: ["bearer"] });
  });

  test("a multi-app project keeps each level's generate_tests as written (the cascade resolves them); its problems are reported under apps", () => {
    const parsed = parse(ProjectConfig, {
      generate_tests: true,
      databases: [{ key: "main", default: true }, { key: "stats" }],
      apps: [
        { config: { module: "blog", resources: [article(), article({ model: "blog.models.Tag", generate_tests: false })] } },
        { config: { module: "shop", generate_tests: false, resources: [article({ model: "shop.models.Order", db_key: "stats" }), article({ model: "shop.models.Item", generate_tests: true })] }, prefix: "/store" },
      ],
    });
    assert.equal(parsed.single_app, false);
    assert.deepEqual(parsed.databases.map((database) => [database.key, database.url_env]), [
      ["main", "DATABASE_URL"],
      ["stats", "STATS_DATABASE_URL"],
    ]);
    assert.deepEqual(parsed.apps.map((app) => [app.config.module, app.prefix, app.config.generate_tests]), [
      ["blog", "/blog", undefined],
      ["shop", "/store", false],
    ]);
    assert.deepEqual(parsed.apps.flatMap((app) => app.config.resources.map((resource) => [resource.name, resource.route_prefix, resource.generate_tests])), [
      ["article", "/articles", undefined],
      ["tag", "/tags", false],
      ["order", "/orders", undefined],
      ["item", "/items", true],
    ]);
    assert.deepEqual(operationPaths(parsed), [
      "apps[0].config.resources[0].operations[0]",
      "apps[0].config.resources[0].operations[1]",
      "apps[0].config.resources[1].operations[0]",
      "apps[0].config.resources[1].operations[1]",
      "apps[1].config.resources[0].operations[0]",
      "apps[1].config.resources[0].operations[1]",
      "apps[1].config.resources[1].operations[0]",
      "apps[1].config.resources[1].operations[1]",
    ]);
  });

  test("the scope tree runs project, app, resource, operation, modifier", () => {
    const scopes = [...discoverScopes(ProjectConfig)].map((scope) => [scope.name, scope.resolvePath.join(".")]);
    assert.deepEqual(scopes, [
      ["project", ""],
      ["app", "apps"],
      ["resource", "config.resources"],
      ["operation", "operations"],
      ["modifier", "modifiers"],
    ]);
  });

  test("exactly one of apps or the single-app keys", () => {
    const app = { config: { module: "blog", resources: [article()] } };
    const notWithApps = "not allowed with apps: module, resources and prefix are the single-app shorthand; move them into an app";
    assertIssues(ProjectConfig, { apps: [app], module: "blog", resources: [article()], prefix: "/x" }, [
      { path: "module", message: notWithApps },
      { path: "resources", message: notWithApps },
      { path: "prefix", message: notWithApps },
    ]);
    assertIssues(ProjectConfig, {}, [{ path: "apps", message: "required: list apps, or give module and resources for a single app" }]);
    assertIssues(ProjectConfig, { prefix: "/x" }, [{ path: "apps", message: "required: list apps, or give module and resources for a single app" }]);
    assertIssues(ProjectConfig, { module: "blog" }, [{ path: "resources", message: "required with module (single-app shorthand): the app's resources" }]);
    assertIssues(ProjectConfig, { resources: [article()] }, [
      { path: "module", message: "required with resources (single-app shorthand): the app's Python package" },
    ]);
    assertIssues(ProjectConfig, { apps: [] }, [{ path: "apps", message: "must list at least one app" }]);
  });

  test("exactly one database is the default", () => {
    const base = { module: "blog", resources: [article()] };
    assertIssues(ProjectConfig, { ...base, databases: [{ key: "main" }, { key: "stats" }] }, [
      { path: "databases", message: "no default database: mark one with default: true" },
    ]);
    assertIssues(ProjectConfig, { ...base, databases: [] }, [{ path: "databases", message: "no default database: mark one with default: true" }]);
    assertIssues(ProjectConfig, { ...base, databases: [{ key: "main", default: true }, { key: "stats" }, { key: "logs", default: true }] }, [
      { path: "databases[2].default", message: "only one database may be the default; databases[0] already is" },
    ]);
  });

  test("database keys are unique", () => {
    assertIssues(ProjectConfig, { module: "blog", resources: [article()], databases: [{ key: "main", default: true }, { key: "main" }] }, [
      { path: "databases[1].key", message: 'duplicate database key "main" (already used by databases[0])' },
    ]);
  });

  test("a db_key must name a database, at the path the user wrote", () => {
    assertIssues(ProjectConfig, { module: "blog", resources: [article(), article({ model: "blog.models.Tag", db_key: "stats" })] }, [
      { path: "resources[1].db_key", message: 'unknown database "stats"; known databases: "default"' },
    ]);
    assertIssues(
      ProjectConfig,
      {
        databases: [{ key: "main", default: true }, { key: "logs" }],
        apps: [
          { config: { module: "blog", resources: [article({ db_key: "logs" })] } },
          { config: { module: "shop", resources: [article({ db_key: "stat" })] } },
        ],
      },
      [{ path: "apps[1].config.resources[0].db_key", message: 'unknown database "stat"; known databases: "main", "logs"' }],
    );
    assert.equal(parse(ProjectConfig, { module: "blog", resources: [article({ db_key: "default" })] }).apps[0].config.resources[0].db_key, "default");
  });

  test("app modules and prefixes are unique", () => {
    const config = (module: string) => ({ module, resources: [article()] });
    assertIssues(ProjectConfig, { apps: [{ config: config("blog"), prefix: "/a" }, { config: config("blog"), prefix: "/b" }] }, [
      { path: "apps[1].config.module", message: 'duplicate app module "blog" (already used by apps[0])' },
    ]);
    assertIssues(ProjectConfig, { apps: [{ config: config("blog"), prefix: "/site" }, { config: config("shop"), prefix: "/site" }] }, [
      { path: "apps[1].prefix", message: 'app prefix "/site" is already used by apps[0]; set prefix to tell them apart' },
    ]);
    assertIssues(ProjectConfig, { apps: [{ config: config("blog"), prefix: "/shop" }, { config: config("shop") }] }, [
      { path: "apps[1].config.module", message: 'app prefix "/shop" (derived from the module) is already used by apps[0]; set prefix to tell them apart' },
    ]);
  });

  test("resource clashes are reported at the shorthand's own paths", () => {
    assertIssues(ProjectConfig, { module: "blog", resources: [article(), article({ name: "article", route_prefix: "/old" })] }, [
      { path: "resources[1].name", message: 'resource name "article" is already used by resources[0]; set name to tell them apart' },
    ]);
    assertIssues(ProjectConfig, { apps: [{ config: { module: "blog", resources: [article(), article({ model: "blog.models.Post", route_prefix: "/articles" })] } }] }, [
      {
        path: "apps[0].config.resources[1].route_prefix",
        message: 'route prefix "/articles" is already used by resources[0]; set route_prefix to tell them apart',
      },
    ]);
  });

  test("nested issues carry the full path", () => {
    const nested = { name: "author", type: "nested", model: "blog.models.Author" };
    assertIssues(ProjectConfig, { module: "blog", resources: [article(), article({ model: "blog.models.Post", fields: [idField, nested] })] }, [
      { path: "resources[1].fields[1].fields", message: "required for a nested field: the related model's fields to include" },
    ]);
  });

  test("the auth rule is reported under auth", () => {
    assertIssues(ProjectConfig, { module: "blog", resources: [article()], auth: { type: "jwt", secret_env: "JWT_SECRET" } }, [
      {
        path: "auth.verify_credentials_fn",
        message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials",
      },
    ]);
  });

  test("rejects unknown top-level keys and a bad package prefix", () => {
    assertIssues(ProjectConfig, { modul: "blog", module: "blog", resources: [article()] }, [{ path: "modul", message: "unknown key" }]);
    assertIssues(ProjectConfig, { package_prefix: "backend.", module: "blog", resources: [article()] }, [
      { path: "package_prefix", message: 'must be a dotted Python package like "myproject.backend", or ""' },
    ]);
  });

  test("formatConfigPath renders issue paths as users read them", () => {
    const result = ProjectConfig.safeParse({ module: "blog", resources: [article({ fields: [{ name: "id", type: "uuid", nullable: "yes" }] })] });
    assert.equal(result.success, false);
    assert.deepEqual(result.error!.issues.map((issue) => formatConfigPath(issue.path)), ["resources[0].fields[0].nullable"]);
  });
});

describe("withArticle", () => {
  test("picks a or an by sound, not only by letter", () => {
    const cases = { article: "an", int: "an", email: "an", update: "an", tag: "a", uuid: "a", user: "a", unique: "a" };
    for (const [word, article] of Object.entries(cases)) assert.equal(withArticle(word), `${article} ${word}`);
  });
});

describe("rate_limit", () => {
  const withLimit = (project: Record<string, unknown>, resource: Record<string, unknown> = {}) =>
    ProjectConfig.safeParse({ module: "blog", resources: [article(resource)], ...project });
  const issues = (result: ReturnType<typeof withLimit>) =>
    result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

  test("takes limits, an object, or false at each level, and trusted proxies at the project", () => {
    const parsed = withLimit({ rate_limit: "5/second;1000/hours", trusted_proxies: ["10.0.0.0/8", "::1", "192.0.2.7"] }, { rate_limit: false });
    assert.ok(parsed.success, issues(parsed).join("\n"));
    assert.deepEqual(parsed.data.rate_limit, { limit: "5/second;1000/hours", key: "ip", headers: true });
    assert.equal(parsed.data.apps[0]!.config.resources[0]!.rate_limit, false);
  });

  test("rejects bad limits, keys and proxies with their paths", () => {
    const bad = withLimit(
      { rate_limit: { limit: "5/week;0/minute", key: "client" }, trusted_proxies: ["10.0.0.0/33", "proxy.local"] },
      { rate_limit: "1/minute;2/minute" },
    );
    assert.deepEqual(issues(bad), [
      'rate_limit.limit: "5/week" is not a limit like "5/minute" (a count from 1, then / and one of second, minute, hour, day)',
      'rate_limit.limit: "0/minute" is not a limit like "5/minute" (a count from 1, then / and one of second, minute, hour, day)',
      'rate_limit.key: expected "ip", "user", or a dotted path to a function of the request (like "myapp.limits.api_key")',
      "trusted_proxies.0: must be an IP address or network like 10.0.0.0/8",
      "trusted_proxies.1: must be an IP address or network like 10.0.0.0/8",
      "resources.0.rate_limit: two limits per minute",
    ]);
  });
});

describe("telemetry", () => {
  const project = (telemetry: Record<string, unknown>) =>
    ProjectConfig.safeParse({ module: "blog", resources: [article()], telemetry: { service_name: "blog", ...telemetry } });
  const issues = (result: ReturnType<typeof project>) =>
    result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

  test("fills the defaults: traces and metrics on, logs off, parent-based sampling, exporter from OTEL_*", () => {
    const parsed = project({});
    assert.ok(parsed.success);
    assert.deepEqual(parsed.data.telemetry, {
      service_name: "blog",
      environment_env: "ENVIRONMENT",
      traces: true,
      metrics: true,
      logs: false,
      instrument_fastapi: true,
      instrument_sqlalchemy: true,
      instrument_httpx: false,
      instrument_requests: false,
      instrument_logging: false,
      span_per_handler: true,
      span_per_action: true,
      capture_request_body: false,
      capture_response_body: false,
      capture_max_bytes: 2048,
      capture_redact: [],
      sampler: "parentbased_always_on",
      resource_attributes: {},
    });
  });

  test("the body limit is from 1 to 65536 bytes", () => {
    assert.deepEqual(issues(project({ capture_max_bytes: 0 })), ["telemetry.capture_max_bytes: must be at least 1"]);
    assert.deepEqual(issues(project({ capture_max_bytes: 100_000 })), ["telemetry.capture_max_bytes: must be at most 65536"]);
    assert.deepEqual(issues(project({ capture_redact: [""] })), ["telemetry.capture_redact.0: must not be empty"]);
  });

  test("a ratio sampler needs a ratio from 0 to 1, and only a ratio sampler takes one", () => {
    assert.deepEqual(issues(project({ sampler: "traceidratio" })), ['telemetry.sampler_ratio: required with sampler "traceidratio": a fraction from 0 to 1']);
    assert.deepEqual(issues(project({ sampler: "parentbased_traceidratio", sampler_ratio: 1.5 })), ["telemetry.sampler_ratio: must be from 0 to 1"]);
    assert.deepEqual(issues(project({ sampler_ratio: 0.5 })), [
      'telemetry.sampler_ratio: only with sampler "traceidratio" or "parentbased_traceidratio", not "parentbased_always_on"',
    ]);
    assert.equal(issues(project({ exporter: "zipkin" })).length, 1);
  });
});
