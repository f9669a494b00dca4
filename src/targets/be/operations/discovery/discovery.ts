// `discovery` (project scope): `discovery.py`, the project-wide `GET /_filters`, kiln's
// `POST /_filters` and `POST /_filters/fields`, and `POST /_values` over every filtered list,
// built on `runtime/discovery.py`. The lists and what each one filters are read from the
// store as it renders (every modifier has run by then). Nothing is written when no list
// filters. The operation declares role `ENDPOINT` and yields a `ProjectRoute` per route, so
// the project's rate limit reaches them too; each route takes the user as the project's auth,
// `require_auth` (kiln's `resource_registry.require_auth` first) and `exclude_paths` say for its path.

import { type BuildContext, type BuildStore, FileFragment, type Fragment, ImportCollector, Name, PROJECT, type RenderCtx, operation, prefixImport } from "../../../../codegen/index.js";
import { type AppConfig, excludedBy, type ProjectConfig, type ResourceConfig } from "../../config/schema.js";
import { docstringText, pythonInt, pythonString } from "../../python/literals.js";
import { ENDPOINT } from "../../modules/handler.js";
import { ProjectNames } from "../../modules/project-names.js";
import { ProjectRoute } from "../../modules/project-route.js";
import { ListHandler } from "../list/list-handler.js";
import type { FilterField } from "../list/query.js";
import { visibilityRules } from "../../row-visibility.js";

/** The discovery module of a project; rendered only when some list filters. */
export class Discovery {
  readonly path = "discovery.py";
  readonly alias = "discovery_router";
  readonly dotted: string;
  readonly #project: ProjectConfig;
  readonly #packagePrefix: string;
  // Each list's line, made once.
  readonly #lines = new WeakMap<ListHandler, ListLine>();
  /** The module's routes, the handles the project's rate limit amends, in the module's order. */
  readonly routes: readonly DiscoveryRoute[];

  /** Its lists are read from the store when it renders (every modifier has run by then). */
  constructor(project: ProjectConfig, packagePrefix: string) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
    this.dotted = prefixImport(packagePrefix, "discovery");
    const route = (spec: Omit<DiscoveryRoute, "route">): DiscoveryRoute => {
      const path = this.#routePath(spec.path);
      const user = this.#takesUser(path);
      return {
        ...spec,
        route: new ProjectRoute({
          name: spec.name,
          method: spec.method,
          path,
          group: "discovery",
          userKeyed: user,
          responses: prefixImport(packagePrefix, "runtime", "responses"),
          // A body may be unreadable (not UTF-8) or too large; values are read from the database.
          errors: [...(user ? [401 as const] : []), ...(spec.body === undefined ? [] : [400 as const, 413 as const]), ...(spec.readsRows ? [503 as const] : [])],
          presentIn: (store) => this.usedIn(store),
        }),
      };
    };
    this.routes = [
      route({ name: "list_filters", method: "GET", path: "/_filters", operationId: "listFilters", answer: "FilterCatalog", catalog: ["describe"], doc: "Every filtered list: its filter fields, their operators and where their values come from." }),
      route({
        name: "describe_filters",
        method: "POST",
        path: "/_filters",
        operationId: "describeFilters",
        body: "FilterSelection",
        answer: "ResourceCatalog",
        catalog: ["resources", "body.resources"],
        doc: "The filter fields of each resource the body names (of every one when it names none), over all its lists (kiln's discovery).",
      }),
      route({
        name: "describe_filter_fields",
        method: "POST",
        path: "/_filters/fields",
        operationId: "describeFilterFields",
        body: "FieldSelection",
        answer: "FieldCatalog",
        catalog: ["fields", "body.fields"],
        doc: "Each filter field the body names, in its order: its operators and where its values come from (kiln's discovery).",
      }),
      route({
        name: "list_filter_values",
        method: "POST",
        path: "/_values",
        operationId: "listFilterValues",
        body: "ValuesBody",
        answer: "ValuesPage",
        catalog: ["values", "body"],
        doc: "Values to offer for one filter field of a resource, best first.",
        readsRows: true,
      }),
    ];
  }

  /** The lists with filters of the build of `store`, in config order. */
  #filtered(store: BuildStore): ListHandler[] {
    return store.outputsUnder(PROJECT.name, ListHandler).filter((handler) => handler.query.filters !== undefined);
  }

  /** Whether the module exists in the build of `store` (some list filters); routers include it only then. */
  usedIn(store: BuildStore): boolean {
    return this.#filtered(store).length > 0;
  }

  /** `/_filters` as mounted: under the single app's prefix, else at the root. */
  #routePath(route: string): string {
    return `${this.#project.single_app ? this.#project.apps[0].prefix : ""}${route}`;
  }

  render(ctx: RenderCtx): Fragment[] {
    const filtered = this.#filtered(ctx.store);
    if (filtered.length === 0) return [];
    const project = this.#project;
    const imports = new ImportCollector()
      .addFrom("fastapi", "APIRouter")
      .addFrom(this.#runtime, "Catalog", "FilterCatalog", "FilterSpec", "ListSpec", "ValuesOptions", "ValuesPage")
      .addFrom("typing", "Literal");
    // Row sources in order of first need; lists of one resource share its constant.
    const rows = new Map<string, string>();
    const lines = filtered.map((handler) => {
      let line = this.#lines.get(handler);
      if (!line) this.#lines.set(handler, (line = this.#lineOf(handler)));
      imports.update(line.imports);
      for (const [constant, row] of line.rows) if (!rows.has(constant)) rows.set(constant, row);
      return line;
    });
    const bodies = valuesBodies(lines);
    imports.addFrom(this.#runtime, "FieldCatalog", "FieldOptions", "ResourceCatalog").addFrom("pydantic", "BaseModel", "ConfigDict", "Field");
    if (bodies.length > 1) imports.addFrom("typing", "Annotated");
    // With row visibility, /_values reads through sessions that know the request, so its rule hides rows there too.
    const visibility = visibilityRules(project, ctx.store).length > 0;
    if (visibility) imports.addFrom("fastapi", "Request");
    const responses = prefixImport(this.#packagePrefix, "runtime", "responses");
    imports.addFrom(responses, "error_responses");
    const routes = this.routes.map((spec) => {
      const { route } = spec;
      imports.update(route.imports);
      const params = [spec.body === undefined ? undefined : `body: ${spec.body}`, route.userKeyed ? "current_user: CurrentUser" : undefined];
      if (route.userKeyed) imports.addFrom(prefixImport(this.#packagePrefix, "auth", "dependencies"), "CurrentUser");
      const [method, ...args] = spec.catalog;
      if (spec.readsRows && visibility) {
        params.push("request: Request");
        args.push('session_info={"request": request}');
      }
      const decorator = [pythonString(spec.path), `operation_id=${pythonString(spec.operationId)}`];
      if (spec.body !== undefined) decorator.push(`max_body_size=${pythonInt(project.max_body_size)}`);
      if (route.dependencies) decorator.push(route.dependencies);
      if (route.errors) decorator.push(`responses=error_responses(${route.errors})`);
      return {
        method: spec.method.toLowerCase(),
        args: decorator,
        name: spec.name,
        params: params.filter(Boolean).join(", "),
        answer: spec.answer,
        call: `${spec.readsRows ? "await " : ""}CATALOG.${method}(${args.join(", ")})`,
        doc: docstringText(spec.doc, "    "),
      };
    });
    return [
      new FileFragment({
        path: this.path,
        template: "operations/discovery/discovery.py.njk",
        context: {
          doc: docstringText("Filter discovery over every filtered list: ``GET /_filters``, kiln's ``POST /_filters`` and ``POST /_filters/fields``, and ``POST /_values``."),
          rows: [...rows.values()],
          lists: lines.map((line) => line.spec),
          bodies,
          values: union(bodies.map((body) => body.values)),
          field: union(bodies.map((body) => body.name)),
          resources: bodies.map((body) => body.resource).join(", "),
          routes,
        },
        imports,
      }),
    ];
  }

  /** The runtime module the catalog is built with. */
  get #runtime(): string {
    return prefixImport(this.#packagePrefix, "runtime", "discovery");
  }

  /** One list's part of the module, with the imports and row sources it needs. */
  #lineOf(handler: ListHandler): ListLine {
    const runtime = this.#runtime;
    const imports = new ImportCollector();
    const names = new ProjectNames(this.#project, this.#packagePrefix, imports);
    const rows: [string, string][] = [];
    const rowsOf = (resource: ResourceConfig): string => {
      const constant = `_${names.id(resource, "_").toUpperCase()}_ROWS`;
      if (!rows.some(([known]) => known === constant)) {
        imports.addFrom(runtime, "Rows");
        const model = names.model(resource);
        const args = [`${model}.${resource.pk}`, this.#labelOf(resource, model, imports), names.readSessions(resource)];
        if (resource.search) args.push(`search=${names.search(resource, model)}`);
        rows.push([constant, `${constant} = Rows(${args.join(", ")})`]);
      }
      return constant;
    };
    const resource = handler.view.config;
    const path = `${handler.view.appPrefix}${resource.route_prefix}`;
    const specs = handler.query.filters!.map((field) => `FilterSpec(${pythonString(field.name)}, ${tuple(field.operators.map(pythonString))}, ${this.#source(field, resource, handler.view.app, { names, rowsOf, imports, runtime })})`);
    const id = names.id(resource);
    const args = [pythonString(id), pythonString(handler.entry.name), pythonString(`${path}${handler.path}`), pythonString(`${path}${handler.searchPath}`), tuple(specs)];
    if (handler.query.search) args.push("search=True");
    const order = handler.query.order;
    if (order) {
      imports.addFrom(runtime, "OrderInfo");
      args.push(`order=OrderInfo(fields=[${order.fields.map((field) => pythonString(field.name)).join(", ")}], default=[${order.default.map(pythonString).join(", ")}])`);
    }
    return {
      spec: `ListSpec(${args.join(", ")})`,
      rows,
      imports,
      resource: { id, body: new Name(names.id(resource, "_")).pascal, label: handler.view.labelPlural },
      fields: handler.query.filters!.map((field) => field.name),
    };
  }

  /** The column labelling a resource's rows: its link's `name`, else (kiln's kind `id`) its link's id as text. */
  #labelOf(resource: ResourceConfig, model: string, imports: ImportCollector): string {
    const link = resource.link!;
    if (link.name !== undefined) return `${model}.${link.name}`;
    imports.addFrom("sqlalchemy", "String").addFrom("sqlalchemy", "cast");
    // Labelled: a row holding the key and an unlabelled cast of it cannot tell the two apart.
    return `cast(${model}.${link.id ?? resource.pk}, String).label("label")`;
  }

  /**
   * Whether the route at `path` takes the user: the project has `auth`, kiln's
   * `resource_registry.require_auth` (else the project's `require_auth`) holds, and no
   * `exclude_paths` entry matches the path.
   */
  #takesUser(path: string): boolean {
    const auth = this.#project.auth;
    if (auth === undefined || !(this.#project.resource_registry?.require_auth ?? this.#project.require_auth)) return false;
    return excludedBy(path, auth.exclude_paths) === undefined;
  }

  #source(field: FilterField, resource: ResourceConfig, app: AppConfig, context: SourceNames): string {
    const { names, rowsOf, imports, runtime } = context;
    const column = () => `${names.model(resource)}.${field.name}`;
    switch (field.kind) {
      case "enum":
        imports.addFrom(runtime, "EnumSource").update(field.imports);
        return `EnumSource(${field.enumClass})`;
      case "bool":
        imports.addFrom(runtime, "BoolSource");
        return "BoolSource()";
      case "free_text":
        imports.addFrom(runtime, "FreeTextSource");
        return `FreeTextSource(${column()}, ${names.readSessions(resource)})`;
      case "literal":
        imports.addFrom(runtime, "LiteralSource");
        return `LiteralSource(${pythonString(field.literalType!)}, ${column()}, ${names.readSessions(resource)})`;
      case "ref": {
        const target = app.resources.find((candidate) => candidate.name === field.refResource)!;
        imports.addFrom(runtime, "RefSource");
        return `RefSource(${pythonString(names.id(target))}, ${rowsOf(target)})`;
      }
      case "self":
        imports.addFrom(runtime, "SelfSource");
        return `SelfSource(${pythonString(names.id(resource))}, ${rowsOf(resource)})`;
    }
  }
}

/**
 * One `POST /_values` body per filtered resource, its `resource` and `field` literals: the
 * pairs the catalog answers, so a body the schema allows is never refused.
 */
function valuesBodies(lines: readonly ListLine[]): ValuesBody[] {
  // A resource's lists, by its id: their filter fields together.
  const byResource = new Map<string, { resource: ListLine["resource"]; fields: Set<string> }>();
  for (const line of lines) {
    const lists = byResource.get(line.resource.id) ?? { resource: line.resource, fields: new Set<string>() };
    byResource.set(line.resource.id, lists);
    for (const field of line.fields) lists.fields.add(field);
  }
  return [...byResource.values()].map(({ resource, fields }) => ({
    name: `${resource.body}Field`,
    values: `${resource.body}Values`,
    label: resource.label,
    resource: pythonString(resource.id),
    literals: [...fields].sort().map(pythonString).join(", "),
  }));
}

/** What one list adds to the module. */
interface ListLine {
  /** Its `ListSpec(...)` entry. */
  spec: string;
  /** `[constant, definition]` of the row sources its filters need, in order of first need. */
  rows: readonly (readonly [string, string])[];
  imports: ImportCollector;
  /** Its resource: project-wide id, the stem of its body classes (`Article`), plural label. */
  resource: { id: string; body: string; label: string };
  /** Its filter fields' names. */
  fields: readonly string[];
}

/** The body classes of one resource: its field reference, and its `POST /_values` body. */
interface ValuesBody {
  /** `ArticleField`, a filter field of the resource (`POST /_filters/fields`). */
  name: string;
  /** `ArticleValues`, on `ArticleField` (`POST /_values`). */
  values: string;
  /** `articles`, for its docstring. */
  label: string;
  /** The resource's id as a Python string. */
  resource: string;
  /** Its filter fields' names as Python strings, comma-separated. */
  literals: string;
}

/** One route of the module: what the routes module writes of it, and its rate-limit handle. */
interface DiscoveryRoute {
  /** The handler's function name. */
  name: string;
  method: "GET" | "POST";
  /** Its path below the discovery router. */
  path: string;
  operationId: string;
  /** Its body's class, when it reads one. */
  body?: string;
  /** Its answer's class. */
  answer: string;
  /** Whether it reads rows: awaited, through sessions given the request (so row visibility applies); the database may be down. */
  readsRows?: boolean;
  /** The `CATALOG` method it returns, then that method's arguments (Python expressions). */
  catalog: readonly [string, ...string[]];
  doc: string;
  route: ProjectRoute;
}

interface SourceNames {
  names: ProjectNames;
  rowsOf: (resource: ResourceConfig) => string;
  imports: ImportCollector;
  runtime: string;
}

/** One of `classes`, told apart by their `resource`. */
function union(classes: readonly string[]): string {
  return classes.length === 1 ? classes[0]! : `Annotated[${classes.join(" | ")}, Field(discriminator="resource")]`;
}

function tuple(items: readonly string[]): string {
  return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
}

@operation("discovery", { scope: "project", role: ENDPOINT })
export class DiscoveryOperation {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const discovery = new Discovery(ctx.config, ctx.packagePrefix);
    return [discovery, ...discovery.routes.map((spec) => spec.route)];
  }
}
