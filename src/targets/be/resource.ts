// Everything the `be` operations derive from one resource: Python names, module paths and
// files. Computed once per resource (by `resource_files`), so every operation and the
// routers agree on where things live.

import { type BuildContext, type BuildStore, ImportCollector, Name, prefixImport } from "../../codegen/index.js";
import type { AppConfig, DatabaseConfig, ProjectConfig, ResourceConfig } from "./config/schema.js";
import { pluralize } from "./config/schema.js";
import { perProject } from "./per-project.js";
import { scalarAnnotation } from "./python/annotations.js";

/**
 * Class names the generated modules that also import models (routes, schemas,
 * serializers, `discovery.py`, `indexes.py`) import for themselves. A model class named like one (a
 * model `Page`, `CurrentUser`) is imported under an alias there (`Page as PageModel`) or
 * spelled with its module. Only PascalCase names: a model class name is one.
 * test/targets/be/names.test.ts checks the golden trees' imports against it.
 */
export const GENERATED_NAMES: ReadonlySet<string> = new Set([
  // fastapi, typing, collections.abc, sqlalchemy, pydantic
  "APIRouter", "Annotated", "Any", "AsyncSession", "BaseModel", "Body", "ColumnElement", "ConfigDict", "Depends", "Field", "HTTPException", "Index",
  "Literal", "MISSING", "Path", "Query", "Request", "Response", "Sequence", "String", "Tag",
  // the project's own modules: auth, db, runtime
  "ActionRef", "AuthenticatedUser", "BoolSource", "Catalog", "CommaSeparated", "CurrentUser", "CursorSource", "DbBool", "DbDate", "DbDatetime",
  "DbEmail", "DbFloat", "DbInt", "DbJson", "DbText", "DownloadTicket", "EnumSource", "FieldCatalog", "FieldOptions", "FilterCatalog", "FilterSpec",
  "FilterUnion", "FiniteFloat", "FreeTextSource", "FullTextSearch", "IDEMPOTENCY_KEY", "Idempotency", "InQuery", "InValues", "LinkPage",
  "LinkSearch", "ListSpec", "LiteralSource", "NoRepeats", "OPA", "OffsetPage", "OptionalUser", "OrderInfo", "Ordering", "Page", "Policy",
  "ReadSessionDep", "RefSource", "RelatedKeys", "ResourceCatalog", "RowPolicy", "Rows", "SavedView", "SearchText", "SelfSource", "SessionDep", "TreeBounds",
  "TrigramSearch", "UploadTicket", "ValuesOptions", "ValuesPage", "Views",
  // classes discovery.py defines beside the models it imports
  "FieldSelection", "FilterSelection", "ValuesBody",
]);

/** A model class as generated code imports and names it. */
export interface ModelRef {
  /** Dotted module, e.g. `blog.models`. */
  module: string;
  /** The class's own name, e.g. `Article` (generated class names derive from it). */
  name: string;
  /** The name generated code uses: the class's, or an alias when a generated name takes it. */
  local: string;
  /** What to import: `Article`, or `Page as PageModel`. */
  importName: string;
}

/** The `ModelRef` of a dotted model path such as `blog.models.Article`. */
export function modelRef(dotted: string): ModelRef {
  const [module, name] = Name.fromDotted(dotted);
  const clash = GENERATED_NAMES.has(name.pascal) || /(Read|Create|Update|Params|Nested|Query|Search|Link)$/.test(name.pascal);
  const local = clash ? `${name.pascal}Model` : name.pascal;
  return { module, name: name.pascal, local, importName: clash ? `${name.pascal} as ${local}` : name.pascal };
}

/** A resource as the code generator sees it. */
export interface ResourceView {
  config: ResourceConfig;
  app: AppConfig;
  /** The URL prefix the app is mounted at (`""` or `/content`). */
  appPrefix: string;
  project: ProjectConfig;
  /** The build's store, for what the resource's entries declare. */
  store: BuildStore;
  /** Store id of the resource instance. */
  id: string;
  /** Snake name, e.g. `stock_movement`. */
  name: string;
  /** The Python variable holding one row in generated handlers: the name, unless generated code already uses it. */
  variable: string;
  /** Snake plural, e.g. `stock_movements` (for `list_stock_movements`). */
  plural: string;
  /** Human words for docstrings: `stock movement`, `stock movements`. */
  label: string;
  labelPlural: string;
  /** The model class, its module, and the name generated code uses for it. */
  model: ModelRef;
  pk: string;
  /** Annotation of the primary key and the import it needs. */
  pkAnnotation: string;
  pkImports: ImportCollector;
  routePrefix: string;
  schemaFile: string;
  schemaModule: string;
  serializerFile: string;
  serializerModule: string;
  routesFile: string;
  routesModule: string;
  /** Module holding `SessionDep` of the resource's database. */
  sessionModule: string;
  /** Package of the runtime helpers emitted by `scaffold` (`<prefix>.runtime`). */
  runtimePackage: string;
  /** Prefix of the resource's OpenAPI operation ids: `""`, or the app's module when another app has a resource of the same name. */
  operationIdPrefix: string;
}

/** Names generated handlers use for their own variables and parameters; a resource named like one gets `_row`. */
const HANDLER_NAMES = new Set([
  "body", "current_user", "cursor", "delete", "deleted", "idempotency", "limit", "location", "name", "next_cursor", "params", "pk", "request", "response", "result",
  "router", "select", "session", "status", "value",
]);

/** The view of the resource at or above `ctx`'s instance. */
export function buildResourceView(ctx: BuildContext<ProjectConfig>): ResourceView {
  const id = ctx.store.ancestorIdOf(ctx.instanceId, "resource");
  if (id === undefined) throw new TypeError(`${ctx.instanceId} is not inside a resource`);
  const config = ctx.store.instanceAt(id) as ResourceConfig;
  const mounted = ctx.store.ancestorOf(id, "app") as { config: AppConfig; prefix: string };
  const app = mounted.config;
  const module = app.module;
  const local = (...parts: string[]) => prefixImport(ctx.packagePrefix, module, ...parts);
  const pkImports = new ImportCollector();
  const words = resourceLabel(config);
  return {
    config,
    app,
    appPrefix: mounted.prefix,
    project: ctx.config,
    store: ctx.store,
    id,
    name: config.name,
    variable: HANDLER_NAMES.has(config.name) ? `${config.name}_row` : config.name,
    plural: pluralize(config.name),
    label: words,
    labelPlural: pluralize(words),
    model: modelRef(config.model),
    pk: config.pk,
    pkAnnotation: scalarAnnotation(config.pk_type, pkImports),
    pkImports,
    routePrefix: config.route_prefix,
    schemaFile: `${module}/schemas/${config.name}.py`,
    schemaModule: local("schemas", config.name),
    serializerFile: `${module}/serializers/${config.name}.py`,
    serializerModule: local("serializers", config.name),
    routesFile: `${module}/routes/${config.name}.py`,
    routesModule: local("routes", config.name),
    sessionModule: prefixImport(ctx.packagePrefix, ...sessionModulePath(ctx.config, config.db_key)),
    runtimePackage: prefixImport(ctx.packagePrefix, "runtime"),
    operationIdPrefix: sharedName(ctx.config, config.name) ? module : "",
  };
}

/** `stock movement` for the resource `stock_movement`: how docstrings and test names call one of its rows. */
export function resourceLabel(resource: { name: string }): string {
  return resource.name.replace(/_/g, " ");
}

// OpenAPI operation ids must be unique across the whole project.
function sharedName(project: ProjectConfig, name: string): boolean {
  return (appsPerResourceName(project).get(name) ?? 0) > 1;
}

/** How many apps have a resource of each name, counted once per project: a view is built per resource. */
export const appsPerResourceName = perProject((project): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>();
  for (const app of project.apps) {
    for (const name of new Set(app.config.resources.map((resource) => resource.name))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
});

/**
 * The OpenAPI `operationId` of a handler function: its name in camelCase, so generated
 * clients read naturally.
 * @example operationId(view, "list_articles") // "listArticles" (or "contentListArticles" when two apps have articles)
 */
export function operationId(view: ResourceView, functionName: string): string {
  const words = [...view.operationIdPrefix.split("_"), ...functionName.split("_")].filter((word) => word !== "");
  return words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join("");
}

/**
 * The collection key of the resource called `name` in the same app, as OpenAPI paths show
 * it without the leading `/` (`articles`, `content/articles`): what `x-references` names.
 */
export function collectionKey(view: ResourceView, name: string): string | undefined {
  const target = view.app.resources.find((resource) => resource.name === name);
  return target === undefined ? undefined : `${view.appPrefix}${target.route_prefix}`.replace(/^\//, "");
}

/** The database of `dbKey`, or the default database when it is undefined. */
export function databaseOf(project: ProjectConfig, dbKey: string | undefined): DatabaseConfig {
  return project.databases.find((database) => (dbKey === undefined ? database.default : database.key === dbKey))!;
}

/** Module path (below the package prefix) of a database's session module: `db/<key>_session` (SPEC's layout, kiln's), whatever the number of databases. */
export function sessionModulePath(project: ProjectConfig, dbKey: string | undefined): string[] {
  const key = dbKey ?? project.databases.find((database) => database.default)!.key;
  return ["db", `${key}_session`];
}

