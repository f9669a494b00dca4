// The generated pytest files: `{module}/tests/test_{name}.py` per resource (`TestModule`,
// one `TestCase` per test) and `{module}/tests/conftest.py` per app (`Conftest`, with one
// `TestFixture` per factory). Tests are declarative — a setup of typed steps, one request,
// what the response must be — and each test's template turns them into Python: the
// operation's own beside it (`operations/get/test.py.njk`), or a failure any route may
// have, in `templates/` here.

import { FileFragment, type Fragment, Handle, ImportCollector, type RenderCtx, SnippetFragment, renderTemplate } from "../../../../codegen/index.js";
import { docstringText, pythonString } from "../../python/literals.js";
import type { Indexes } from "../indexes/indexes.js";
import type { RateLimitsModule } from "../rate_limit/rate-limits.js";

/** A template's path from the target's directory, e.g. `operations/get/test.py.njk`. */
export type TemplatePath = `operations/${string}.py.njk`;

/** A fixture a test or factory takes, e.g. `client: AsyncClient`, `make_author: Factory`. */
export interface FixtureParam {
  name: string;
  annotation: string;
}

/** One statement before the request: `article = await make_article()`, or `body = {...}`. */
export type SetupStep = { kind: "make"; variable: string; factory: string } | { kind: "assign"; variable: string; value: string };

/** The request a test sends: `response = await <client>.<method>(<url>[, json=<json>])`. */
export interface TestRequest {
  client: "client" | "anonymous_client" | "other_client";
  method: "get" | "post" | "patch" | "delete";
  /** Python expression of the URL, e.g. `PATH` or `f"{PATH}/{article['id']}"`. */
  url: string;
  /** Python expression of the JSON body. */
  json?: string;
}

/** What a test module defines at its top, because some test needs it. */
export interface ModuleNeeds {
  /** `MISSING`, the URL of a row that does not exist. */
  missing?: string;
  /** The `unique(prefix)` helper. */
  unique?: boolean;
  /** The `Factory` type alias. */
  factory?: boolean;
}

/** One test function. */
export class TestCase {
  /** The template of its body, e.g. `operations/get/test.py.njk`, given setup, request and `expect`. */
  readonly template: TemplatePath;
  /** Function name, e.g. `test_get_article_not_found`. */
  readonly name: string;
  readonly doc: string;
  readonly fixtures: readonly FixtureParam[];
  readonly setup: readonly SetupStep[];
  readonly request: TestRequest | undefined;
  /** Values of the kind's template beyond setup and request (expected status, fields…). */
  readonly expect: Record<string, unknown>;
  readonly needs: ModuleNeeds;
  readonly imports: ImportCollector;

  constructor(options: {
    template: TemplatePath;
    name: string;
    doc: string;
    fixtures: readonly FixtureParam[];
    setup?: readonly SetupStep[];
    request?: TestRequest;
    expect?: Record<string, unknown>;
    needs?: ModuleNeeds;
    imports: ImportCollector;
  }) {
    this.template = options.template;
    this.name = options.name;
    this.doc = options.doc;
    this.fixtures = options.fixtures;
    this.setup = options.setup ?? [];
    this.request = options.request;
    this.expect = options.expect ?? {};
    this.needs = options.needs ?? {};
    this.imports = options.imports;
  }
}

/** The test file of one resource. */
export class TestModule {
  readonly path: string;
  readonly #head: { doc: string; path: string; article: string };
  readonly #cases: (() => readonly TestCase[])[] = [];

  /** @param head.path the resource's URL path, e.g. `/content/articles` */
  constructor(path: string, head: { doc: string; path: string; article: string }) {
    this.path = path;
    this.#head = head;
  }

  /**
   * Adds tests decided when the module renders, in this place: a list's modifiers, which
   * shape its tests, run after the `tests` operation.
   */
  defer(make: () => readonly TestCase[]): void {
    this.#cases.push(make);
  }

  render(ctx: RenderCtx): Fragment[] {
    const cases = this.#cases.flatMap((make) => make());
    if (cases.length === 0) return [];
    const needs = Object.assign({}, ...cases.map((test) => test.needs)) as ModuleNeeds;
    return [
      new FileFragment({
        path: this.path,
        template: "operations/tests/templates/module.py.njk",
        context: {
          doc: docstringText(this.#head.doc),
          path: pythonString(this.#head.path),
          article: docstringText(this.#head.article),
          missing: needs.missing ?? "",
          unique: needs.unique ?? false,
          factory: needs.factory ?? false,
        },
      }),
      ...cases.map(
        (test) =>
          new SnippetFragment({
            path: this.path,
            slot: "tests",
            template: "operations/tests/templates/case.py.njk",
            context: {
              signature: `async def ${test.name}(${test.fixtures.map((param) => `${param.name}: ${param.annotation}`).join(", ")}) -> None:`,
              doc: docstringText(test.doc, "    "),
              body: renderTemplate(ctx.env, test.template, { setup: test.setup, request: test.request, ...test.expect }).trimEnd(),
            },
            imports: test.imports,
          }),
      ),
    ];
  }
}

/** The kinds of conftest factory: valid create bodies of a resource, or rows created through the API. */
export type TestFixtureKind = "body" | "make";

/**
 * A factory fixture in an app's conftest, e.g. `article_body` or `make_article`: yielded by
 * the `tests` operation of a resource's create entry, listed by the app's `Conftest` when it renders.
 */
export class TestFixture extends Handle {
  readonly kind: TestFixtureKind;
  readonly name: string;
  readonly doc: string;
  readonly fixtures: readonly FixtureParam[];
  /** Values of its template `operations/tests/templates/fixture_{kind}.py.njk`. */
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;

  constructor(options: { kind: TestFixtureKind; name: string; doc: string; fixtures: readonly FixtureParam[]; context: Record<string, unknown>; imports: ImportCollector }) {
    super();
    this.kind = options.kind;
    this.name = options.name;
    this.doc = options.doc;
    this.fixtures = options.fixtures;
    this.context = options.context;
    this.imports = options.imports;
  }
}

/** An app's `conftest.py`: the engine, the per-test transaction, the app, its clients, and the factories. */
export class Conftest {
  readonly path: string;
  /** Values of the conftest template (module, metadata, session overrides, mount, auth). */
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;
  /** The project's recommended indexes: the test database gets them (and their extensions) when there are any. */
  readonly #indexes: Indexes | undefined;
  /** The project's rate limits: the tests' requests are not counted when there are any. */
  readonly #rateLimits: RateLimitsModule | undefined;

  constructor(options: { path: string; context: Record<string, unknown>; imports: ImportCollector; indexes?: Indexes; rateLimits?: RateLimitsModule }) {
    this.path = options.path;
    this.context = options.context;
    this.imports = options.imports;
    this.#indexes = options.indexes;
    this.#rateLimits = options.rateLimits;
  }

  #head(ctx: RenderCtx): FileFragment {
    const imports = this.imports.copy();
    const indexed = this.#indexes?.usedIn(ctx.store) ?? false;
    if (indexed) {
      const indexes = this.#indexes!;
      imports.addFrom(indexes.dotted, "EXTENSIONS", "INDEXES").addFrom(indexes.runtime, "create_extensions", "create_indexes");
    }
    const limited = this.#rateLimits?.usedIn(ctx.store) ?? false;
    if (limited) imports.addFrom(this.#rateLimits!.dotted, "LIMITERS");
    return new FileFragment({ path: this.path, template: "operations/tests/templates/conftest.py.njk", context: { ...this.context, indexed, limited }, imports });
  }

  /** `ctx` is the app's: the factory fixtures of its resources lie under it, in build order. */
  render(ctx: RenderCtx): Fragment[] {
    return [
      this.#head(ctx),
      ...ctx.store.outputsUnder(ctx.instanceId, TestFixture).map(
        (fixture) =>
          new SnippetFragment({
            path: this.path,
            slot: "fixtures",
            template: "operations/tests/templates/fixture.py.njk",
            context: {
              signature: `def ${fixture.name}(${fixture.fixtures.map((param) => `${param.name}: ${param.annotation}`).join(", ")}) -> Factory:`,
              doc: docstringText(fixture.doc, "    "),
              body: renderTemplate(ctx.env, `operations/tests/templates/fixture_${fixture.kind}.py.njk`, fixture.context).trimEnd(),
            },
            imports: fixture.imports,
          }),
      ),
    ];
  }
}
