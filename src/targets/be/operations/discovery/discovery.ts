// `discovery` (project scope): `discovery.py`, the project-wide `GET /_filters` and
// `POST /_values` over every filtered list, built on `runtime/discovery.py`. The lists and
// what each one filters are read from the store as it renders (every modifier has run by
// then). Nothing is written when no list filters.

import { type BuildContext, type BuildStore, FileFragment, type Fragment, ImportCollector, Name, PROJECT, type RenderCtx, operation, prefixImport } from "../../../../codegen/index.js";
import { type AppConfig, excludedBy, type ProjectConfig, type ResourceConfig } from "../../config/schema.js";
import { docstringText, pythonInt, pythonString } from "../../python/literals.js";
import { ProjectNames } from "../../modules/project-names.js";
import type { ResourceView } from "../../resource.js";
import { ListHandler } from "../list/list-handler.js";
import type { FilterField } from "../list/query.js";

/** The discovery module of a project; rendered only when some list filters. */
export class Discovery {
  readonly path = "discovery.py";
  readonly alias = "discovery_router";
  readonly dotted: string;
  readonly #project: ProjectConfig;
  readonly #packagePrefix: string;

  /** Its lists are read from the store when it renders (every modifier has run by then). */
  constructor(project: ProjectConfig, packagePrefix: string) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
    this.dotted = prefixImport(packagePrefix, "discovery");
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
    const runtime = prefixImport(this.#packagePrefix, "runtime", "discovery");
    const imports = new ImportCollector()
      .addFrom("fastapi", "APIRouter")
      .addFrom(runtime, "Catalog", "FilterCatalog", "FilterSpec", "ListSpec", "ValuesOptions", "ValuesPage")
      .addFrom("typing", "Literal");
    const names = new ProjectNames(project, this.#packagePrefix, imports);
    const rows = new Map<string, string>();
    const rowsOf = (resource: ResourceConfig): string => {
      const constant = `_${names.id(resource, "_").toUpperCase()}_ROWS`;
      if (!rows.has(constant)) {
        imports.addFrom(runtime, "Rows");
        const model = names.model(resource);
        const args = [`${model}.${resource.pk}`, `${model}.${resource.link!.name}`, names.sessions(resource)];
        if (resource.search) args.push(`search=${names.search(resource, model)}`);
        rows.set(constant, `${constant} = Rows(${args.join(", ")})`);
      }
      return constant;
    };
    const lists = filtered.map((handler) => {
      const resource = handler.view.config;
      const path = `${handler.view.appPrefix}${resource.route_prefix}`;
      const specs = handler.query.filters!.map((field) => `FilterSpec(${pythonString(field.name)}, ${tuple(field.operators.map(pythonString))}, ${this.#source(field, resource, handler.view.app, { names, rowsOf, imports, runtime })})`);
      const args = [pythonString(names.id(resource)), pythonString(handler.entry.name), pythonString(`${path}${handler.path}`), pythonString(`${path}${handler.searchPath}`), tuple(specs)];
      if (handler.query.search) args.push("search=True");
      const order = handler.query.order;
      if (order) {
        imports.addFrom(runtime, "OrderInfo");
        args.push(`order=OrderInfo(fields=[${order.fields.map((field) => pythonString(field.name)).join(", ")}], default=[${order.default.map(pythonString).join(", ")}])`);
      }
      return `ListSpec(${args.join(", ")})`;
    });
    const bodies = this.#valuesBodies(filtered, names);
    if (bodies.length > 1) imports.addFrom("typing", "Annotated").addFrom("pydantic", "Field");
    const user = this.#user(imports);
    // What each route can answer besides 422: a user's absence, a body it cannot read, a busy database.
    const authErrors = user === undefined ? [] : [401];
    imports.addFrom(prefixImport(this.#packagePrefix, "runtime", "responses"), "error_responses");
    return [
      new FileFragment({
        path: this.path,
        template: "operations/discovery/discovery.py.njk",
        context: {
          doc: docstringText("Filter discovery over every filtered list: ``GET /_filters`` and ``POST /_values``."),
          rows: [...rows.values()],
          lists,
          bodies,
          body: bodies.length === 1 ? bodies[0]!.name : `Annotated[${bodies.map((body) => body.name).join(" | ")}, Field(discriminator="resource")]`,
          params: user ?? "",
          filters_errors: authErrors.join(", "),
          values_errors: [400, ...authErrors, 413, 503].join(", "),
          max_body_size: pythonInt(project.max_body_size),
        },
        imports,
      }),
    ];
  }

  /**
   * One `POST /_values` body per filtered resource, its `resource` and `field` literals: the
   * pairs the catalog answers, so a body the schema allows is never refused.
   */
  #valuesBodies(filtered: readonly ListHandler[], names: ProjectNames): ValuesBody[] {
    // A resource's lists, by its id: their filter fields together.
    const byResource = new Map<string, { view: ResourceView; fields: Set<string> }>();
    for (const handler of filtered) {
      const id = names.id(handler.view.config);
      const lists = byResource.get(id) ?? { view: handler.view, fields: new Set<string>() };
      byResource.set(id, lists);
      for (const field of handler.query.filters!) lists.fields.add(field.name);
    }
    return [...byResource].map(([id, { view, fields }]) => ({
      name: `${new Name(names.id(view.config, "_")).pascal}Values`,
      label: view.labelPlural,
      resource: pythonString(id),
      literals: [...fields].sort().map(pythonString).join(", "),
    }));
  }

  /** `current_user: CurrentUser` when the project's auth covers the discovery routes. */
  #user(imports: ImportCollector): string | undefined {
    const auth = this.#project.auth;
    if (auth === undefined || !this.#project.require_auth) return undefined;
    const excluded = ["/_filters", "/_values"].every((route) => excludedBy(this.#routePath(route), auth.exclude_paths) !== undefined);
    if (excluded) return undefined;
    imports.addFrom(prefixImport(this.#packagePrefix, "auth", "dependencies"), "CurrentUser");
    return "current_user: CurrentUser";
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
        return `FreeTextSource(${column()}, ${names.sessions(resource)})`;
      case "literal":
        imports.addFrom(runtime, "LiteralSource");
        return `LiteralSource(${pythonString(field.literalType!)}, ${column()}, ${names.sessions(resource)})`;
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

/** A `POST /_values` body class of one resource. */
interface ValuesBody {
  name: string;
  /** `articles`, for its docstring. */
  label: string;
  /** The resource's id as a Python string. */
  resource: string;
  /** Its filter fields' names as Python strings, comma-separated. */
  literals: string;
}

interface SourceNames {
  names: ProjectNames;
  rowsOf: (resource: ResourceConfig) => string;
  imports: ImportCollector;
  runtime: string;
}

function tuple(items: readonly string[]): string {
  return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
}

@operation("discovery", { scope: "project" })
export class DiscoveryOperation {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [new Discovery(ctx.config, ctx.packagePrefix)];
  }
}
