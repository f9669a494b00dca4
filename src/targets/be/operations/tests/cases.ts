// The generated tests of one operation entry: `Tests` builds them; an endpoint operation
// writes its route's own (its `static tests`, in its folder's tests.ts), any other route
// gets the failures its target implies (404 for a missing key, 401 without a token).
// A test that needs a row makes one through the resource's `make_{name}` factory; when
// the resource cannot be created through the API (no `create`, or no key in its read
// shape), those tests are left out rather than generated to fail or skip.

import { ImportCollector, Name } from "../../../../codegen/index.js";
import type { ScalarField } from "../../config/schema.js";
import { type Route, resourceRoutes } from "../../modules/endpoint.js";
import { type RouteHandler, targetOf } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import type { ResourceView } from "../../resource.js";
import { type FixtureParam, type ModuleNeeds, type SetupStep, type TemplatePath, TestCase, type TestRequest } from "./outputs.js";
import { Needs, type ReferenceKeys } from "./samples.js";

/** The template of a test any route may have (`not_found`, `unauthorized`…), beside this file. */
export function sharedTemplate(name: "hidden" | "invalid" | "list_hidden" | "not_found" | "unauthorized"): TemplatePath {
  return `operations/tests/templates/${name}.py.njk`;
}

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
  enum: "a member of its enum",
};

/** What the tests of one resource know about it. */
export interface TestTarget {
  view: ResourceView;
  /** The resource's URL path: the app's prefix, then its route prefix. */
  path: string;
  /** Whether the conftest has `make_{name}` for this resource. */
  canCreate: boolean;
  /** Whether an entry of the resource declares a route reading one row at its own URL (`GET /{pk}`), by which tests fetch a row. */
  fetchesRow: boolean;
  keys: ReferenceKeys;
}

/** What a test does besides its client: its setup, its request, what it expects, more fixtures. */
interface TestParts {
  setup?: SetupStep[];
  request?: TestRequest;
  expect?: Record<string, unknown>;
  fixtures?: readonly FixtureParam[];
}

/** Builds the test cases of one operation entry, whose route `H` handles. */
export class Tests<H extends RouteHandler = RouteHandler> {
  readonly cases: TestCase[] = [];
  readonly variable: string;
  readonly pk: string;

  constructor(
    readonly target: TestTarget,
    readonly handler: H,
    /** The operation entry's name (`get`, `list_recent`, `publish_article`). */
    readonly entry: { name: string },
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

  /**
   * The row a test that fails before the lookup (a 422) sends its request to: one the
   * factory makes, or, when the resource cannot make one, a key no row has.
   */
  anyRow(needs: Needs, suffix = ""): { url: string; setup: SetupStep[] } {
    return this.target.canCreate ? { url: this.rowUrl(suffix), setup: [this.makeRow(needs)] } : { url: this.missingUrl(suffix), setup: [] };
  }

  /**
   * Adds a test on a row the factory makes, none when the resource cannot make one: `parts`
   * gets the row's URL plus `suffix`; its setup runs once the row is made.
   */
  addOnRow(template: TemplatePath, doc: string, parts: (needs: Needs, url: string) => TestParts, suffix = ""): void {
    if (!this.target.canCreate) return;
    const needs = new Needs();
    const row = this.makeRow(needs);
    const { setup = [], ...rest } = parts(needs, this.rowUrl(suffix));
    this.add(template, "", doc, needs, { setup: [row, ...setup], ...rest });
  }

  /** Adds a test rendered by `template`; a test whose URL uses `MISSING` gets it defined at module level. */
  add(template: TemplatePath, suffix: string, doc: string, needs: Needs, parts: TestParts): void {
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
        template,
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
   * after: the rows a route reads many of in the plural. An action named like another
   * route's tests (`get_article`) gets `action_` first.
   */
  base(): string {
    const view = this.view;
    const routeBase = (name: string, route: Route) => `${name}_${route.kind === "read" && targetOf(route.path) === "collection" ? view.plural : view.name}`;
    if (!this.handler.action) return routeBase(this.entry.name, this.handler);
    const name = new Name(this.entry.name).snake;
    const taken = resourceRoutes(view.store, view.id).some(({ entry, routes }) => routes.some((route) => route.kind !== "action" && routeBase(entry.name, route) === name));
    return taken ? `action_${name}` : name;
  }

  /** The scalar fields the entry's response shows (none known for a builder representation). */
  get readNames(): Set<string> {
    return new Set(this.handler.representation?.fieldNames ?? []);
  }

  /** 404 for a key no row has (at `url`, the module's `MISSING` unless given); `setup` and `json` give a body valid in every other way. */
  notFound(parts: { url?: string; json?: string; setup?: SetupStep[]; needs?: Needs } = {}): void {
    this.add(sharedTemplate("not_found"), "_not_found", `\`\`${this.route}\`\` answers 404 for a key no ${this.label} has.`, parts.needs ?? new Needs(), {
      setup: parts.setup ?? [],
      request: this.request(parts.url ?? this.missingUrl(), parts.json),
    });
  }

  /**
   * A 422 test: the request gives `bad` a value of the wrong type (`null` when `nulled`), or,
   * with no field to spoil, sends a body that is not an object.
   */
  invalid(suffix: string, bad: ScalarField | undefined, needs: Needs, parts: TestParts, nulled = false): void {
    const why = bad ? `when \`\`${bad.name}\`\` is ${nulled ? "null" : `not ${TYPE_WORDS[bad.type]}`}` : "for a body that is not an object";
    this.add(sharedTemplate("invalid"), suffix, `\`\`${this.route}\`\` answers 422 ${why}.`, needs, { ...parts, expect: { field: bad ? pythonString(bad.name) : "" } });
  }

  /** A 401 test: the request, valid in every other way, sent without a token; only for routes that require a user. */
  unauthorized(url: string, json?: string, needs = new Needs()): void {
    if (this.handler.user === undefined) return;
    this.add(sharedTemplate("unauthorized"), "_requires_a_user", `\`\`${this.route}\`\` answers 401 without a token.`, needs, { request: this.request(url, json, "anonymous_client") });
  }
}

/**
 * The class of an endpoint operation that writes its route's tests itself (`static
 * tests(tests, options)`, with the entry's parsed options): its success and failure paths.
 */
export interface TestedOperation {
  /** `tests.handler` is the handler the operation built for the entry (a `ListHandler` for `list`). */
  tests(tests: Tests<any>, options: any): void;
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
  if (handler.target === "row") tests.notFound({ url });
  tests.unauthorized(url);
}
