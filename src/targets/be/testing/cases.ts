// The generated tests of one operation entry: its success path and the failure paths that
// apply (404 for a missing key, 422 for a bad body, limit or params, 401 without a token).
// A test that needs a row makes one through the resource's `make_{name}` factory; when
// the resource cannot be created through the API (no `create`, or no key in its read
// shape), those tests are left out rather than generated to fail or skip.

import { type BuildContext, ImportCollector, Name } from "../../../codegen/index.js";
import type { ActionOptions, CrudOptions, ListOptions, ProjectConfig, ScalarField } from "../config/schema.js";
import { createBodyFields } from "../config/references.js";
import { RouteHandler, RouteParam, TestCase, type TestKind } from "../operations/types.js";
import { writeFields } from "../operations/write-schema.js";
import { resourceView } from "../resource.js";
import { wrapBrackets, wrapCall } from "../python/wrap.js";
import { Needs, bodyEntries, dictItems, invalidValue, sampleValue } from "./samples.js";
import { withArticle } from "../config/schema.js";
import { type TestScope, testScope } from "./suite.js";

const INDENT = "    ";

/** Names the test bodies use for their own variables; a resource named like one gets `_row`. */
const RESERVED = new Set(["body", "client", "fetched", "item", "limit", "located", "made", "name", "page", "params", "response", "seen", "unique", "uuid", "value"]);

/** Words for a value of the wrong type, in docstrings. */
const TYPE_WORDS: Record<ScalarField["type"], string> = {
  uuid: "a UUID",
  str: "a string",
  email: "an e-mail address",
  int: "an integer",
  float: "a number",
  bool: "a boolean",
  datetime: "a date-time",
  date: "a date",
  json: "a JSON object",
};

/** Builds the test cases of one operation entry, sharing the resource's scope. */
class Tests {
  readonly cases: TestCase[] = [];
  readonly variable: string;
  readonly pk: string;

  constructor(
    readonly scope: TestScope,
    readonly handler: RouteHandler,
    /** The operation entry's name (`get`, `list_recent`, `publish_article`). */
    readonly entry: string,
  ) {
    this.variable = RESERVED.has(scope.view.name) ? `${scope.view.name}_row` : scope.view.name;
    this.pk = scope.view.pk;
  }

  get label(): string {
    return this.scope.view.label;
  }

  /**
   * The route, for docstrings: `GET /articles/{pk}` as OpenAPI shows it, or an action's
   * slug (its path is in the request line below).
   */
  get route(): string {
    if (this.handler.kind === "action") return this.handler.path.replace(/^.*\//, "");
    return `${this.handler.method} ${this.scope.path}${this.handler.path}`;
  }

  /** `f"{PATH}/{article['id']}"`, the URL of the row in the test's variable, plus `suffix`. */
  rowUrl(suffix = ""): string {
    return `f"{PATH}/{${this.variable}['${this.pk}']}${suffix}"`;
  }

  /** The URL of a row that does not exist (the module's `MISSING`), plus `suffix`. */
  missingUrl(suffix = ""): string {
    return suffix === "" ? "MISSING" : `f"{MISSING}${suffix}"`;
  }

  /** `response = await client.<method>(url, json=…)`, laid out to fit. */
  request(url: string, json?: string, variable = "response", client = "client"): string {
    const args = json === undefined ? [url] : [url, `json=${json}`];
    return wrapCall(`${variable} = await ${client}.${this.handler.method.toLowerCase()}`, args, "", INDENT);
  }

  /** `name = {…}`, a dict literal laid out to fit. */
  dict(name: string, entries: readonly { name: string; value: string }[]): string {
    return wrapBrackets(`${name} = `, "{", "}", dictItems(entries), "", INDENT);
  }

  /**
   * Adds a test. `context.setup` (lines) and `context.request` are Python statements; a
   * test whose statements use `MISSING` gets it defined at module level.
   */
  add(kind: TestKind, suffix: string, doc: string, needs: Needs, context: { setup?: string[]; request?: string; [key: string]: unknown }): void {
    const { view } = this.scope;
    const imports = new ImportCollector().add("pytest").addFrom("httpx", "AsyncClient").update(needs.imports);
    const client = kind === "unauthorized" ? "anonymous_client" : "client";
    const fixtures = [new RouteParam({ name: client, annotation: "AsyncClient" })];
    for (const factory of needs.factories) fixtures.push(new RouteParam({ name: factory, annotation: "Factory" }));
    const moduleContext: Record<string, unknown> = {
      doc: `Tests of the ${view.label} routes under \`\`${this.scope.path}\`\`, generated from the config.`,
      path: this.scope.path,
      article: withArticle(view.label),
    };
    const statements = [...(context.setup ?? []), context.request ?? ""].join("\n");
    if (/\bMISSING\b/.test(statements)) {
      const type = view.config.pk_type;
      moduleContext.missing = type === "uuid" ? 'f"{PATH}/{uuid.uuid4()}"' : type === "int" ? 'f"{PATH}/0"' : 'f"{PATH}/missing-{uuid.uuid4().hex}"';
      if (type !== "int") imports.add("uuid");
    }
    if (needs.factories.length > 0) {
      moduleContext.factory = true;
      imports.addFrom("collections.abc", "Awaitable", "Callable").addFrom("typing", "Any");
    }
    if (needs.unique) {
      moduleContext.unique = true;
      imports.add("uuid");
    }
    this.cases.push(
      new TestCase({
        file: this.scope.file,
        kind,
        name: `test_${this.base()}${suffix}`,
        doc,
        fixtures,
        context: { variable: this.variable, pk: this.pk, label: view.label, setup: [], ...context },
        module: moduleContext,
        imports,
        handler: this.handler,
        suite: this.scope.suite,
      }),
    );
  }

  /**
   * `get_article`, `list_articles`, `publish_article`: what the entry's tests are named
   * after. An action named like a CRUD entry's tests (`get_article`) gets `action_` first.
   */
  base(): string {
    const { view } = this.scope;
    const crudBase = (name: string, type: string) => `${name}_${type === "list" ? view.plural : view.name}`;
    if (this.handler.kind !== "action") return crudBase(this.entry, this.handler.kind);
    const name = new Name(this.entry).snake;
    const taken = view.config.operations.some((entry) => entry.type !== "action" && crudBase(entry.name, entry.type) === name);
    return taken ? `action_${name}` : name;
  }

  /** A row made by the factory, as the first line of a test. */
  makeRow(needs: Needs): string {
    return `${this.variable} = await ${needs.factory(`make_${this.scope.view.name}`)}()`;
  }

  /** The fields the resource's read schema shows. */
  get readNames(): Set<string> {
    return new Set(this.scope.view.config.fields.map((field) => field.name));
  }

  /**
   * A 401 test: the request, valid in every other way, sent without a token. Kept by the
   * renderer only when the handler ends up requiring a user (the `auth` augmenter decides).
   */
  unauthorized(url: string, json?: string, needs = new Needs()): void {
    if (this.scope.project.auth === undefined) return;
    this.add("unauthorized", "_requires_a_user", `\`\`${this.route}\`\` answers 401 without a token.`, needs, {
      request: this.request(url, json, "response", "anonymous_client"),
    });
  }
}

/** The tests of a `get`, `list`, `create`, `update` or `delete` entry; empty unless the resource generates tests. */
export function crudTests(ctx: BuildContext<ProjectConfig>, options: CrudOptions | ListOptions, handler: RouteHandler): TestCase[] {
  if (!resourceView(ctx).config.generate_tests) return [];
  const scope = testScope(ctx);
  const tests = new Tests(scope, handler, options.name);
  switch (options.type) {
    case "get":
      getTests(tests);
      break;
    case "list":
      listTests(tests, options as ListOptions);
      break;
    case "create":
      createTests(tests);
      break;
    case "update":
      updateTests(tests, options);
      break;
    case "delete":
      deleteTests(tests);
      break;
  }
  return tests.cases;
}

function getTests(tests: Tests): void {
  if (tests.scope.canCreate) {
    const needs = new Needs();
    tests.add("get", "", `\`\`${tests.route}\`\` answers 200 with the ${tests.label}.`, needs, {
      setup: [tests.makeRow(needs)],
      request: tests.request(tests.rowUrl()),
    });
  }
  notFound(tests);
  tests.unauthorized(tests.missingUrl());
}

/** 404 for a key no row has; `setup` and `json` give a body valid in every other way. */
function notFound(tests: Tests, json?: string, setup: string[] = [], needs = new Needs(), suffix = ""): void {
  tests.add("not_found", "_not_found", `\`\`${tests.route}\`\` answers 404 for a key no ${tests.label} has.`, needs, {
    setup,
    request: tests.request(tests.missingUrl(suffix), json),
  });
}

function listTests(tests: Tests, options: ListOptions): void {
  const plural = tests.scope.view.labelPlural;
  const needs = new Needs();
  if (tests.scope.canCreate) {
    needs.imports.addFrom("typing", "Any");
    const make = needs.factory(`make_${tests.scope.view.name}`);
    tests.add("list_page", "", `\`\`${tests.route}\`\` pages with \`\`limit\`\` and \`\`cursor\`\`, each ${tests.label} once.`, needs, {
      make,
      plural,
    });
  } else {
    tests.add("list", "", `\`\`${tests.route}\`\` answers 200 with a page of at most \`\`limit\`\` ${plural}.`, needs, {});
  }
  tests.add("list_invalid", "_rejects_a_bad_limit", `\`\`${tests.route}\`\` answers 422 for a \`\`limit\`\` outside 1..${options.max_limit}.`, new Needs(), {
    limits: `(0, ${options.max_limit + 1})`,
  });
  tests.unauthorized("PATH");
}

function createTests(tests: Tests): void {
  const { scope } = tests;
  const fields = createBodyFields(scope.view.config) ?? [];
  const bodyFactory = `${scope.view.name}_body`;
  const sent = bodyEntries(fields, "create", "created", scope.keys, new Needs()).map((entry) => entry.name);
  const read = tests.readNames;
  const located = scope.view.config.operations.some((entry) => entry.type === "get");
  const needs = new Needs();
  needs.factory(bodyFactory);
  const compared = sent.filter((name) => read.has(name));
  tests.add("create", "", `\`\`${tests.route}\`\` answers 201 with the new ${tests.label}${located ? " and its ``Location``" : ""}.`, needs, {
    body_factory: bodyFactory,
    compare_all: compared.length === sent.length && sent.length > 0,
    compared: compared.length > 0 && compared.length < sent.length ? wrapBrackets("for name in ", "(", ")", compared.map((name) => JSON.stringify(name)), ":", INDENT) : undefined,
    located,
  });
  const bad = fields.find((field) => field.required) ?? fields[0];
  const invalidNeeds = new Needs();
  if (bad) invalidNeeds.factory(bodyFactory);
  tests.add(
    "invalid",
    "_rejects_a_bad_body",
    bad ? `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is not ${TYPE_WORDS[bad.type]}.` : `\`\`${tests.route}\`\` answers 422 for a body that is not an object.`,
    invalidNeeds,
    bad
      ? { setup: [wrapBrackets("body = ", "{", "}", [`**await ${bodyFactory}()`, `${JSON.stringify(bad.name)}: ${invalidValue(bad.type)}`], "", INDENT)], request: tests.request("PATH", "body"), field: bad.name }
      : { setup: [], request: tests.request("PATH", "[]") },
  );
  tests.unauthorized("PATH", "{}");
}

function updateTests(tests: Tests, options: CrudOptions): void {
  const { scope } = tests;
  const fields = writeFields(scope.view, options.fields);
  const read = tests.readNames;
  const changeable = fields.filter((field) => field.name !== tests.pk && field.references === undefined && field.type !== "uuid" && read.has(field.name));
  const hasGet = scope.view.config.operations.some((entry) => entry.type === "get");
  if (scope.canCreate) {
    const needs = new Needs();
    const field = changeable[0];
    const setup = [tests.makeRow(needs)];
    if (field) setup.push(`value = ${sampleValue(field.type, field.name, "update", needs)}`);
    tests.add(
      "update",
      "",
      field ? `\`\`${tests.route}\`\` changes \`\`${field.name}\`\`, and the change is kept.` : `\`\`${tests.route}\`\` answers 200 for an empty change.`,
      needs,
      {
        setup,
        request: tests.request(tests.rowUrl(), field ? `{${JSON.stringify(field.name)}: value}` : "{}"),
        field: field?.name,
        fetch: hasGet && field !== undefined ? wrapCall("fetched = await client.get", [tests.rowUrl()], "", INDENT) : undefined,
      },
    );
  }
  notFound(tests, "{}");
  const needs = new Needs();
  const url = scope.canCreate ? tests.rowUrl() : tests.missingUrl();
  const setup = scope.canCreate ? [tests.makeRow(needs)] : [];
  const nonNull = fields.find((field) => !field.nullable && field.name !== tests.pk) ?? fields.find((field) => !field.nullable);
  const bad = nonNull ?? fields[0];
  const value = nonNull ? "None" : bad ? invalidValue(bad.type) : undefined;
  tests.add(
    "invalid",
    "_rejects_a_bad_body",
    bad
      ? `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is ${nonNull ? "null" : `not ${TYPE_WORDS[bad.type]}`}.`
      : `\`\`${tests.route}\`\` answers 422 for a body that is not an object.`,
    needs,
    { setup, request: tests.request(url, bad ? `{${JSON.stringify(bad.name)}: ${value}}` : "[]"), field: bad?.name },
  );
  tests.unauthorized(tests.missingUrl(), "{}");
}

function deleteTests(tests: Tests): void {
  const { scope } = tests;
  if (scope.canCreate) {
    const needs = new Needs();
    const hasGet = scope.view.config.operations.some((entry) => entry.type === "get");
    tests.add("delete", "", `\`\`${tests.route}\`\` answers 204, and the ${tests.label} is gone.`, needs, {
      setup: [tests.makeRow(needs)],
      request: tests.request(tests.rowUrl()),
      url: tests.rowUrl(),
      get: hasGet,
    });
  }
  notFound(tests);
  tests.unauthorized(tests.missingUrl());
}

/** The tests of an `action` entry; empty unless the resource generates tests. */
export function actionTests(ctx: BuildContext<ProjectConfig>, options: ActionOptions, handler: RouteHandler): TestCase[] {
  if (!resourceView(ctx).config.generate_tests) return [];
  const scope = testScope(ctx);
  const tests = new Tests(scope, handler, options.name);
  const instance = options.target === "instance";
  const params = options.params as ScalarField[];
  const suffix = `/${options.slug}`;
  const fn = `\`\`${options.fn}\`\``;
  if (!instance || scope.canCreate) {
    const needs = new Needs();
    const setup = instance ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "created", scope.keys, needs);
    if (params.length > 0) setup.push(tests.dict("params", entries));
    tests.add("action", "", `\`\`${tests.route}\`\` runs ${fn}, answering ${options.status_code}.`, needs, {
      setup,
      request: tests.request(instance ? tests.rowUrl(suffix) : `f"{PATH}${suffix}"`, params.length > 0 ? "params" : undefined),
      status: options.status_code,
      response: options.response,
      instance,
    });
  }
  if (instance) {
    const needs = new Needs();
    const setup = params.length > 0 ? [tests.dict("params", bodyEntries(params, "create", "placeholder", scope.keys, needs))] : [];
    notFound(tests, params.length > 0 ? "params" : undefined, setup, needs, suffix);
  }
  const bad = params.find((param) => param.required) ?? params[0];
  if (bad) {
    const needs = new Needs();
    const url = instance ? (scope.canCreate ? tests.rowUrl(suffix) : tests.missingUrl(suffix)) : `f"{PATH}${suffix}"`;
    const setup = instance && scope.canCreate ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "placeholder", scope.keys, needs).map((entry) =>
      entry.name === bad.name ? { name: entry.name, value: invalidValue(bad.type) } : entry,
    );
    if (!entries.some((entry) => entry.name === bad.name)) entries.push({ name: bad.name, value: invalidValue(bad.type) });
    setup.push(tests.dict("params", entries));
    tests.add("invalid", "_rejects_bad_params", `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is not ${TYPE_WORDS[bad.type]}.`, needs, {
      setup,
      request: tests.request(url, "params"),
      field: bad.name,
    });
  }
  const authNeeds = new Needs();
  const url = instance ? tests.missingUrl(suffix) : `f"{PATH}${suffix}"`;
  const json = params.length > 0 ? `{${dictItems(bodyEntries(params, "create", "placeholder", scope.keys, authNeeds)).join(", ")}}` : undefined;
  tests.unauthorized(url, json, authNeeds);
  return tests.cases;
}
