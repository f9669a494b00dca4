// The generated tests of one operation entry: its success path and the failure paths that
// apply (404 for a missing key, 422 for a bad body, limit or params, 401 without a token).
// A test that needs a row makes one through the resource's `make_{name}` factory; when
// the resource cannot be created through the API (no `create`, or no key in its read
// shape), those tests are left out rather than generated to fail or skip.

import { ImportCollector, Name } from "../../../../codegen/index.js";
import { createBodyFields } from "../../config/references.js";
import type { ActionOptions, CrudOptions, ScalarField } from "../../config/schema.js";
import { writeFields } from "../../modules/bodies.js";
import type { RouteHandler } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import type { ResourceView } from "../../resource.js";
import { type FixtureParam, type ModuleNeeds, type SetupStep, TestCase, type TestKind, type TestRequest } from "./outputs.js";
import { columnRuled } from "../../python/annotations.js";
import { Needs, type ReferenceKeys, bodyEntries, dictLiteral, invalidValue, sampleValue } from "./samples.js";

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

/** What the tests of one resource know about it. */
export interface TestTarget {
  view: ResourceView;
  /** The resource's URL path: the app's prefix, then its route prefix. */
  path: string;
  /** Whether the conftest has `make_{name}` for this resource. */
  canCreate: boolean;
  keys: ReferenceKeys;
}

/** Builds the test cases of one operation entry. */
export class Tests {
  readonly cases: TestCase[] = [];
  readonly variable: string;
  readonly pk: string;

  constructor(
    readonly target: TestTarget,
    readonly handler: RouteHandler,
    /** The operation entry's name (`get`, `list_recent`, `publish_article`) and type. */
    readonly entry: { name: string; type: string },
  ) {
    this.variable = RESERVED.has(target.view.name) ? `${target.view.name}_row` : target.view.name;
    this.pk = target.view.pk;
  }

  get view(): ResourceView {
    return this.target.view;
  }

  get label(): string {
    return this.view.label;
  }

  /** The route, for docstrings: `GET /articles/{pk}` as OpenAPI shows it, or an action's slug. */
  get route(): string {
    if (this.handler.action) return this.handler.path.replace(/^.*\//, "");
    return `${this.handler.method} ${this.target.path}${this.handler.path}`;
  }

  /** `f"{PATH}/{article['id']}"`, the URL of the row in the test's variable, plus `suffix` (a URL path). */
  rowUrl(suffix = ""): string {
    // The key is a Python identifier: it needs no escaping inside the f-string.
    return `f"{PATH}/{${this.variable}['${this.pk}']}${suffix}"`;
  }

  /** The URL of a row that does not exist (the module's `MISSING`), plus `suffix`. */
  missingUrl(suffix = ""): string {
    return suffix === "" ? "MISSING" : `f"{MISSING}${suffix}"`;
  }

  /** The request of this entry's route. */
  request(url: string, json?: string, client: TestRequest["client"] = "client"): TestRequest {
    return { client, method: this.handler.method.toLowerCase() as TestRequest["method"], url, ...(json !== undefined && { json }) };
  }

  /** `article = await make_article()`, the row a test works on. */
  makeRow(needs: Needs): SetupStep {
    return { kind: "make", variable: this.variable, factory: needs.factory(`make_${this.view.name}`) };
  }

  /** Adds a test; a test whose URL uses `MISSING` gets it defined at module level. */
  add(
    kind: TestKind,
    suffix: string,
    doc: string,
    needs: Needs,
    parts: { setup?: SetupStep[]; request?: TestRequest; expect?: Record<string, unknown>; fixtures?: readonly FixtureParam[] },
  ): void {
    const imports = new ImportCollector().add("pytest").addFrom("httpx", "AsyncClient").update(needs.imports);
    const client = parts.request?.client ?? "client";
    const fixtures: FixtureParam[] = [{ name: client, annotation: "AsyncClient" }, ...(parts.fixtures ?? []), ...needs.factories.map((factory) => ({ name: factory, annotation: "Factory" }))];
    const moduleNeeds: ModuleNeeds = {};
    if (parts.request && /\bMISSING\b/.test(parts.request.url)) {
      const type = this.view.config.pk_type;
      if (type === "str") {
        // A key that fits the key column, or it would be a 422 instead of a 404.
        imports.addFrom(this.view.model.module, this.view.model.importName);
        moduleNeeds.unique = true;
      }
      moduleNeeds.missing = type === "uuid" ? 'f"{PATH}/{uuid.uuid4()}"' : type === "int" ? 'f"{PATH}/0"' : `f"{PATH}/{unique('missing', ${this.view.model.local}.${this.pk})}"`;
      if (type !== "int") imports.add("uuid");
    }
    if (needs.factories.length > 0) {
      moduleNeeds.factory = true;
      imports.addFrom("collections.abc", "Awaitable", "Callable").addFrom("typing", "Any");
    }
    if (needs.unique) {
      moduleNeeds.unique = true;
      imports.add("uuid");
    }
    this.cases.push(
      new TestCase({
        kind,
        name: `test_${this.base()}${suffix}`,
        doc,
        fixtures,
        setup: parts.setup,
        request: parts.request,
        expect: { variable: this.variable, pk: pythonString(this.pk), ...parts.expect },
        needs: moduleNeeds,
        imports,
      }),
    );
  }

  /**
   * `get_article`, `list_articles`, `publish_article`: what the entry's tests are named
   * after. An action named like a CRUD entry's tests (`get_article`) gets `action_` first.
   */
  base(): string {
    const view = this.view;
    const crudBase = (name: string, type: string) => `${name}_${type === "list" ? view.plural : view.name}`;
    if (!this.handler.action) return crudBase(this.entry.name, this.entry.type);
    const name = new Name(this.entry.name).snake;
    const taken = view.config.operations.some((entry) => entry.type !== "action" && crudBase(entry.name, entry.type) === name);
    return taken ? `action_${name}` : name;
  }

  /** The scalar fields the entry's response shows (none known for a builder representation). */
  get readNames(): Set<string> {
    return new Set(this.handler.representation?.fieldNames ?? []);
  }

  /** A 401 test: the request, valid in every other way, sent without a token; only for routes that require a user. */
  unauthorized(url: string, json?: string, needs = new Needs()): void {
    if (this.handler.user === undefined) return;
    this.add("unauthorized", "_requires_a_user", `\`\`${this.route}\`\` answers 401 without a token.`, needs, { request: this.request(url, json, "anonymous_client") });
  }
}

/**
 * The class of an endpoint operation that writes its route's tests itself (`static
 * tests(tests, options)`, with the entry's parsed options): its success and failure paths.
 */
export interface TestedOperation {
  tests(tests: Tests, options: any): void;
}

/**
 * The tests of an entry's route: those its operation writes (`own`), else the failures its
 * target implies: 404 for a key no row has when it addresses a row, 401 without a token.
 */
export function endpointTests(target: TestTarget, handler: RouteHandler, own: { cls: TestedOperation; options: unknown } | undefined): TestCase[] {
  const tests = new Tests(target, handler, handler.entry);
  if (own === undefined) routeTests(tests);
  else own.cls.tests(tests, own.options);
  return tests.cases;
}

/** A route only its kind is known of: 404 for a missing key (when it addresses a row), 401 without a token. */
function routeTests(tests: Tests): void {
  const { handler } = tests;
  // The path comes from a package's operation: a string literal, never f-string text.
  const url = handler.target === "row" ? `MISSING + ${pythonString(handler.path.replace("/{pk}", ""))}` : `PATH + ${pythonString(handler.path)}`;
  if (handler.target === "row") {
    tests.add("not_found", "_not_found", `\`\`${tests.route}\`\` answers 404 for a key no ${tests.label} has.`, new Needs(), { request: tests.request(url) });
  }
  tests.unauthorized(url);
}

/** `get`: 200 with the row, 404, 401. */
export function getTests(tests: Tests): void {
  if (tests.target.canCreate) {
    const needs = new Needs();
    tests.add("get", "", `\`\`${tests.route}\`\` answers 200 with the ${tests.label}.`, needs, { setup: [tests.makeRow(needs)], request: tests.request(tests.rowUrl()) });
  }
  notFound(tests);
  tests.unauthorized(tests.missingUrl());
}

/** 404 for a key no row has; `setup` and `json` give a body valid in every other way. */
function notFound(tests: Tests, json?: string, setup: SetupStep[] = [], needs = new Needs(), suffix = ""): void {
  tests.add("not_found", "_not_found", `\`\`${tests.route}\`\` answers 404 for a key no ${tests.label} has.`, needs, {
    setup,
    request: tests.request(tests.missingUrl(suffix), json),
  });
}

/** `create`: 201 with the new row (and its `Location`), 422 for a bad body, 401. */
export function createTests(tests: Tests): void {
  const { view } = tests;
  const fields = createBodyFields(view.config) ?? [];
  const bodyFactory = `${view.name}_body`;
  const sent = bodyEntries(fields, "create", "created", tests.target.keys, new Needs()).map((entry) => entry.name);
  const read = tests.readNames;
  const located = view.config.operations.some((entry) => entry.type === "get");
  const needs = new Needs();
  needs.factory(bodyFactory);
  const compared = sent.filter((name) => read.has(name));
  tests.add("create", "", `\`\`${tests.route}\`\` answers 201 with the new ${tests.label}${located ? " and its ``Location``" : ""}.`, needs, {
    expect: {
      body_factory: bodyFactory,
      compare_all: compared.length === sent.length && sent.length > 0,
      compared: compared.length > 0 && compared.length < sent.length ? `${compared.map(pythonString).join(", ")}${compared.length === 1 ? "," : ""}` : "",
      located,
    },
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
      ? {
          setup: [{ kind: "assign", variable: "body", value: `{**await ${bodyFactory}(), ${pythonString(bad.name)}: ${invalidValue(bad.type)}}` }],
          request: tests.request("PATH", "body"),
          expect: { field: pythonString(bad.name) },
        }
      : { request: tests.request("PATH", "[]"), expect: { field: "" } },
  );
  tests.unauthorized("PATH", "{}");
}

/** `update`: the change is kept, 404, 422 for a bad body, 401. */
export function updateTests(tests: Tests, options: CrudOptions): void {
  const { view, target } = tests;
  const fields = writeFields(view, options.fields);
  const read = tests.readNames;
  const changeable = fields.filter((field) => field.name !== tests.pk && field.references === undefined && field.type !== "uuid" && read.has(field.name));
  const hasGet = view.config.operations.some((entry) => entry.type === "get");
  if (target.canCreate) {
    const needs = new Needs();
    const field = changeable[0];
    const setup: SetupStep[] = [tests.makeRow(needs)];
    if (field) setup.push({ kind: "assign", variable: "value", value: sampleValue(field.type, field.name, "update", needs, columnRuled(field.type) ? { model: view.model, attribute: field.name } : undefined) });
    tests.add(
      "update",
      "",
      field ? `\`\`${tests.route}\`\` changes \`\`${field.name}\`\`, and the change is kept.` : `\`\`${tests.route}\`\` answers 200 for an empty change.`,
      needs,
      {
        setup,
        request: tests.request(tests.rowUrl(), field ? `{${pythonString(field.name)}: value}` : "{}"),
        expect: { field: field ? pythonString(field.name) : "", fetch: hasGet && field !== undefined ? tests.rowUrl() : "" },
      },
    );
  }
  notFound(tests, "{}");
  const needs = new Needs();
  const url = target.canCreate ? tests.rowUrl() : tests.missingUrl();
  const setup = target.canCreate ? [tests.makeRow(needs)] : [];
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
    { setup, request: tests.request(url, bad ? `{${pythonString(bad.name)}: ${value}}` : "[]"), expect: { field: bad ? pythonString(bad.name) : "" } },
  );
  tests.unauthorized(tests.missingUrl(), "{}");
}

/** `delete`: 204 and the row is gone, 404, 401. */
export function deleteTests(tests: Tests): void {
  if (tests.target.canCreate) {
    const needs = new Needs();
    const hasGet = tests.view.config.operations.some((entry) => entry.type === "get");
    tests.add("delete", "", `\`\`${tests.route}\`\` answers 204, and the ${tests.label} is gone.`, needs, {
      setup: [tests.makeRow(needs)],
      request: tests.request(tests.rowUrl()),
      expect: { url: tests.rowUrl(), get: hasGet },
    });
  }
  notFound(tests);
  tests.unauthorized(tests.missingUrl());
}

/** The tests of an `action` entry: it runs the function, 404, 422 for bad params, 401. */
export function actionTests(tests: Tests, options: ActionOptions): void {
  const { target } = tests;
  const instance = options.target === "instance";
  const params = options.params as ScalarField[];
  const suffix = `/${options.slug}`;
  const fn = `\`\`${options.fn}\`\``;
  const collectionUrl = `f"{PATH}${suffix}"`;
  if (!instance || target.canCreate) {
    const needs = new Needs();
    const setup: SetupStep[] = instance ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "created", target.keys, needs);
    if (params.length > 0) setup.push({ kind: "assign", variable: "params", value: dictLiteral(entries) });
    tests.add("action", "", `\`\`${tests.route}\`\` runs ${fn}, answering ${options.status_code}.`, needs, {
      setup,
      request: tests.request(instance ? tests.rowUrl(suffix) : collectionUrl, params.length > 0 ? "params" : undefined),
      expect: { status: options.status_code, response: options.response, instance },
    });
  }
  if (instance) {
    const needs = new Needs();
    const setup: SetupStep[] = params.length > 0 ? [{ kind: "assign", variable: "params", value: dictLiteral(bodyEntries(params, "create", "placeholder", target.keys, needs)) }] : [];
    notFound(tests, params.length > 0 ? "params" : undefined, setup, needs, suffix);
  }
  const bad = params.find((param) => param.required) ?? params[0];
  if (bad) {
    const needs = new Needs();
    const url = instance ? (target.canCreate ? tests.rowUrl(suffix) : tests.missingUrl(suffix)) : collectionUrl;
    const setup: SetupStep[] = instance && target.canCreate ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "placeholder", target.keys, needs).map((entry) =>
      entry.name === bad.name ? { name: entry.name, value: invalidValue(bad.type) } : entry,
    );
    if (!entries.some((entry) => entry.name === bad.name)) entries.push({ name: bad.name, value: invalidValue(bad.type) });
    setup.push({ kind: "assign", variable: "params", value: dictLiteral(entries) });
    tests.add("invalid", "_rejects_bad_params", `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is not ${TYPE_WORDS[bad.type]}.`, needs, {
      setup,
      request: tests.request(url, "params"),
      expect: { field: pythonString(bad.name) },
    });
  }
  const authNeeds = new Needs();
  const url = instance ? tests.missingUrl(suffix) : collectionUrl;
  const json = params.length > 0 ? dictLiteral(bodyEntries(params, "create", "placeholder", target.keys, authNeeds)) : undefined;
  tests.unauthorized(url, json, authNeeds);
}
