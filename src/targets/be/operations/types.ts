// Typed outputs of the `be` target (SPEC's `be.operations.types`). Operations build them;
// renderers turn them into Python files. They carry Python-level facts (annotations,
// expressions, imports) so templates stay free of logic.

import { ImportCollector } from "../../../codegen/index.js";

/** One attribute of a generated Pydantic class. */
export class Field {
  readonly name: string;
  /** Python annotation, e.g. `UUID`, `str | None`, `list[ArticleReadTagsNested]`. */
  readonly annotation: string;
  /** Python expression for the default, or undefined when the field is required. */
  readonly default: string | undefined;
  readonly description: string | undefined;
  /** The sub-schema of a nested field. */
  readonly nested: SchemaClass | undefined;
  /** A nested field holding a list. */
  readonly many: boolean;

  constructor(options: { name: string; annotation: string; default?: string; description?: string; nested?: SchemaClass; many?: boolean }) {
    this.name = options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.description = options.description;
    this.nested = options.nested;
    this.many = options.many ?? false;
  }
}

/** A Pydantic model class in `{module}/schemas/{name}.py`. */
export class SchemaClass {
  /** File path relative to the output directory. */
  readonly file: string;
  /** Dotted Python module of the file. */
  readonly module: string;
  readonly name: string;
  readonly doc: string;
  readonly fields: Field[];
  /** Fields that may be omitted but not sent as null (update bodies). */
  readonly rejectNull: readonly string[];
  readonly imports: ImportCollector;

  constructor(options: { file: string; module: string; name: string; doc: string; fields: Field[]; rejectNull?: readonly string[]; imports: ImportCollector }) {
    this.file = options.file;
    this.module = options.module;
    this.name = options.name;
    this.doc = options.doc;
    this.fields = options.fields;
    this.rejectNull = options.rejectNull ?? [];
    this.imports = options.imports;
  }
}

/** How a serializer fills one schema field from the model instance. */
export interface SerializedField {
  name: string;
  /** Sub-serializer for a nested field. */
  nested?: SerializerFn;
  many?: boolean;
  nullable?: boolean;
}

/** A function building a read schema from a model instance, in `{module}/serializers/{name}.py`. */
export class SerializerFn {
  readonly file: string;
  readonly module: string;
  /** Function name, e.g. `serialize_article`. */
  readonly name: string;
  readonly schema: SchemaClass;
  /** Model class name and its module. */
  readonly modelClass: string;
  readonly modelModule: string;
  /** Parameter name of the instance, e.g. `article`. */
  readonly argument: string;
  readonly fields: SerializedField[];

  constructor(options: {
    file: string;
    module: string;
    name: string;
    schema: SchemaClass;
    modelClass: string;
    modelModule: string;
    argument: string;
    fields: SerializedField[];
  }) {
    this.file = options.file;
    this.module = options.module;
    this.name = options.name;
    this.schema = options.schema;
    this.modelClass = options.modelClass;
    this.modelModule = options.modelModule;
    this.argument = options.argument;
    this.fields = options.fields;
  }
}

/** A parameter of a route handler: path, query, body or dependency. */
export class RouteParam {
  readonly name: string;
  /** Full Python annotation, e.g. `UUID` or `Annotated[int, Query(ge=1, le=100)]`. */
  readonly annotation: string;
  /** Python default expression, if any. */
  readonly default: string | undefined;
  readonly imports: ImportCollector;

  constructor(options: { name: string; annotation: string; default?: string; imports?: ImportCollector }) {
    this.name = options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.imports = options.imports ?? new ImportCollector();
  }
}

/** The kinds of handler the `be` target generates; each has its own body template. */
export type HandlerKind = "get" | "list" | "create" | "update" | "delete" | "action";

/** One FastAPI path operation in `{module}/routes/{name}.py`. */
export class RouteHandler {
  readonly file: string;
  readonly kind: HandlerKind;
  /** Function name, e.g. `get_article`. */
  readonly name: string;
  /** OpenAPI operation id, e.g. `getArticle`. */
  readonly operationId: string;
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path below the resource's router prefix, e.g. `/{pk}` or `/{pk}/publish-article`. */
  readonly path: string;
  readonly statusCode: number;
  readonly summary: string;
  /** Python annotation of the response, or undefined for 204 handlers. */
  readonly responseModel: string | undefined;
  /** Path, query and body parameters, in signature order. */
  readonly params: RouteParam[];
  /** Dependencies (session, current user); augmenters append here. */
  readonly dependencies: RouteParam[];
  /** Values the kind's body template needs (model, loaders, serializer, ...). */
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;
  /** The entry's `require_auth`: undefined follows the resource's. The `auth` augmenter decides. */
  readonly requireAuth: boolean | undefined;
  /** The body passes `current_user` on (an action's `pass_user`): the route must be authenticated. */
  readonly passUser: boolean;

  constructor(options: {
    file: string;
    kind: HandlerKind;
    name: string;
    operationId: string;
    method: RouteHandler["method"];
    path: string;
    statusCode: number;
    summary: string;
    responseModel?: string;
    params?: RouteParam[];
    dependencies?: RouteParam[];
    context?: Record<string, unknown>;
    imports?: ImportCollector;
    requireAuth?: boolean;
    passUser?: boolean;
  }) {
    this.file = options.file;
    this.kind = options.kind;
    this.name = options.name;
    this.operationId = options.operationId;
    this.method = options.method;
    this.path = options.path;
    this.statusCode = options.statusCode;
    this.summary = options.summary;
    this.responseModel = options.responseModel;
    this.params = options.params ?? [];
    this.dependencies = options.dependencies ?? [];
    this.context = options.context ?? {};
    this.imports = options.imports ?? new ImportCollector();
    this.requireAuth = options.requireAuth;
    this.passUser = options.passUser ?? false;
  }
}

/**
 * A whole Python module from one template. Unlike `StaticFile`, its imports are collected
 * here and formatted by the assembler into the template's `{{ imports }}`.
 */
export class PythonModule {
  /** File path relative to the output directory. */
  readonly file: string;
  readonly template: string;
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;

  constructor(options: { file: string; template: string; context?: Record<string, unknown>; imports?: ImportCollector }) {
    this.file = options.file;
    this.template = options.template;
    this.context = options.context ?? {};
    this.imports = options.imports ?? new ImportCollector();
  }
}

/** Includes one router into an aggregating `routes/__init__.py`. */
export class RouterMount {
  /** The aggregating file, e.g. `content/routes/__init__.py` or `routes/__init__.py`. */
  readonly file: string;
  /** Dotted module holding the mounted `router`. */
  readonly module: string;
  /** Name the router is imported as. */
  readonly alias: string;
  /** Prefix passed to `include_router`, "" for none. */
  readonly prefix: string;
  /** Prefix of the aggregating router itself, "" for none. */
  readonly routerPrefix: string;
  /** Docstring of the aggregating module. */
  readonly doc: string;

  constructor(options: { file: string; module: string; alias: string; prefix?: string; routerPrefix?: string; doc: string }) {
    this.file = options.file;
    this.module = options.module;
    this.alias = options.alias;
    this.prefix = options.prefix ?? "";
    this.routerPrefix = options.routerPrefix ?? "";
    this.doc = options.doc;
  }
}

/**
 * An app's generated `{module}/tests/conftest.py`: the engine, the per-test transaction,
 * the app and its client. Every test output of one app carries the same suite; the
 * assembler merges them into one file.
 */
export class TestSuite {
  /** `{module}/tests/conftest.py`. */
  readonly file: string;
  /** Values of the conftest template (module, metadata, session overrides, mount, auth). */
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;

  constructor(options: { file: string; context: Record<string, unknown>; imports: ImportCollector }) {
    this.file = options.file;
    this.context = options.context;
    this.imports = options.imports;
  }
}

/** The kinds of generated test; each has its body template `tests/{kind}.py.njk`. */
export type TestKind =
  | "create"
  | "get"
  | "list"
  | "list_page"
  | "list_invalid"
  | "update"
  | "delete"
  | "action"
  | "not_found"
  | "invalid"
  | "unauthorized";

/** One test function in `{module}/tests/test_{name}.py`, driving one route over HTTP. */
export class TestCase {
  /** `{module}/tests/test_{name}.py`. */
  readonly file: string;
  readonly kind: TestKind;
  /** Function name, e.g. `test_get_article_not_found`. */
  readonly name: string;
  readonly doc: string;
  /** Fixtures the test takes (`client`, `make_article`, …), in signature order. */
  readonly fixtures: RouteParam[];
  /** Values the kind's body template needs (URLs, bodies, expected status). */
  readonly context: Record<string, unknown>;
  /** Module-level values of the test file (docstring, `PATH`, `MISSING`, helpers). */
  readonly module: Record<string, unknown>;
  readonly imports: ImportCollector;
  /** The handler under test. Its final dependencies (after augmenters) tell whether it requires a user. */
  readonly handler: RouteHandler;
  readonly suite: TestSuite;

  constructor(options: {
    file: string;
    kind: TestKind;
    name: string;
    doc: string;
    fixtures: RouteParam[];
    context: Record<string, unknown>;
    module: Record<string, unknown>;
    imports: ImportCollector;
    handler: RouteHandler;
    suite: TestSuite;
  }) {
    this.file = options.file;
    this.kind = options.kind;
    this.name = options.name;
    this.doc = options.doc;
    this.fixtures = options.fixtures;
    this.context = options.context;
    this.module = options.module;
    this.imports = options.imports;
    this.handler = options.handler;
    this.suite = options.suite;
  }
}

/** The kinds of conftest fixture: valid create bodies of a resource, or rows created through the API. */
export type TestFixtureKind = "body" | "make";

/** A factory fixture in an app's conftest, e.g. `article_body` or `make_article`. */
export class TestFixture {
  readonly kind: TestFixtureKind;
  /** Fixture name. */
  readonly name: string;
  readonly doc: string;
  /** Fixtures it depends on, in signature order. */
  readonly fixtures: RouteParam[];
  /** Values of its template `tests/fixture_{kind}.py.njk`. */
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;
  readonly suite: TestSuite;

  constructor(options: {
    kind: TestFixtureKind;
    name: string;
    doc: string;
    fixtures: RouteParam[];
    context: Record<string, unknown>;
    imports: ImportCollector;
    suite: TestSuite;
  }) {
    this.kind = options.kind;
    this.name = options.name;
    this.doc = options.doc;
    this.fixtures = options.fixtures;
    this.context = options.context;
    this.imports = options.imports;
    this.suite = options.suite;
  }
}
