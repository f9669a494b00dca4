// Saved views (docs/be.md#saved-views): a signed-in user's named queries of a resource's
// list, in the runtime's `saved_views` table (runtime/saved_views.py). `view_list` GET
// {prefix}/views, `view_create` POST {prefix}/views, `view_get`, `view_update` (PATCH) and
// `view_delete` {prefix}/views/{view_id}. Each handler reaches the table only through
// `Views(current_user.subject, resource)`, so a user reads and changes their own views and
// no other: the owner is never read from the body. Each is an endpoint: auth, rate limits,
// telemetry and generated tests attach as to any route.

import { type BuildContext, ImportCollector, StaticFile, type ValidationIssue, operation } from "../../../../codegen/index.js";
import type { OperationConfig, ProjectConfig, ResourceConfig } from "../../config/schema.js";
import { cascaded } from "../../cascade.js";
import type { Route } from "../../modules/endpoint.js";
import { resourceFiles } from "../../modules/files.js";
import { ENDPOINT, type HttpMethod, RouteHandler, RouteParam } from "../../modules/handler.js";
import { sessionParam } from "../../modules/params.js";
import { Field, SchemaClass, type SchemaModule } from "../../modules/schemas.js";
import { pythonString } from "../../python/literals.js";
import { operationId, type ResourceView } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { whyNoUser } from "../auth/decide.js";
import { listQueryModel } from "../list/list-handler.js";
import { VIEW_STEPS, type ViewStep, ViewOptions } from "./options.js";

/** What each step's route is: method, path, kind, status, handler name and summary. */
const STEPS: Record<ViewStep, { method: HttpMethod; path: string; kind: Route["kind"]; status: number; name: string; summary: string }> = {
  view_list: { method: "GET", path: "/views", kind: "read", status: 200, name: "list_{name}_views", summary: "List your saved views of {plural}, by name." },
  view_create: { method: "POST", path: "/views", kind: "write", status: 201, name: "create_{name}_view", summary: "Save a view of {plural}: a name, the list's query, the columns shown." },
  view_get: { method: "GET", path: "/views/{view_id}", kind: "read", status: 200, name: "get_{name}_view", summary: "Get one of your saved views of {plural}." },
  view_update: { method: "PATCH", path: "/views/{view_id}", kind: "write", status: 200, name: "update_{name}_view", summary: "Change one of your saved views of {plural}: only the fields sent." },
  view_delete: { method: "DELETE", path: "/views/{view_id}", kind: "write", status: 204, name: "delete_{name}_view", summary: "Delete one of your saved views of {plural}." },
};

/** The key that tells one resource's views from another's in the shared table: the app's module, then the resource. */
function resourceKey(view: ResourceView): string {
  return `${view.app.module}.${view.name}`;
}

/** `view_id: uuid.UUID`, the path parameter of a view's own routes (a segment not a UUID is no view's). */
function viewIdParam(): RouteParam {
  return new RouteParam({ name: "view_id", annotation: "uuid.UUID", imports: new ImportCollector().add("uuid"), converter: "uuid" });
}

/**
 * The bodies of the create and the update, once per resource: a name, the list's query
 * parameters validated by the list's own query model (a bad one is a 422 naming it), the
 * columns shown. Neither has an owner: unknown keys are an error.
 */
function viewBody(schemas: SchemaModule, view: ResourceView, listEntry: string, update: boolean): SchemaClass {
  const name = `${view.model.name}View${update ? "Update" : "Create"}`;
  const query = listQueryModel(view, listEntry);
  const imports = new ImportCollector().addFrom("typing", "Annotated").addFrom("pydantic", "Field");
  const fields = [
    new Field({ name: "name", annotation: `Annotated[str, Field(min_length=1, max_length=200)]${update ? " | None" : ""}`, default: update ? "None" : undefined }),
    new Field({ name: "query", annotation: update ? `${query} | None` : query, default: update ? "None" : `Field(default_factory=${query})` }),
    new Field({
      name: "columns",
      annotation: `Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=100)]${update ? " | None" : ""}`,
      default: update ? "None" : "[]",
    }),
  ];
  return schemas.add(
    new SchemaClass({
      module: schemas,
      name,
      doc: update
        ? `What a PATCH of a saved view of ${view.labelPlural} changes: only the fields sent.`
        : `A saved view of ${view.labelPlural}: its name, \`\`GET ${view.routePrefix}\`\`'s query parameters, the columns shown.`,
      fields,
      imports,
      forbidExtra: true,
    }),
  );
}

/** One route on the current user's saved views of the resource. */
class ViewStepOperation {
  static Options = ViewOptions;

  static route(options: ViewOptions): Route {
    const step = STEPS[options.type];
    return { kind: step.kind, path: step.path };
  }

  *validate(ctx: BuildContext<ProjectConfig>, options: ViewOptions): Iterable<ValidationIssue> {
    const resourceId = ctx.store.ancestorIdOf(ctx.instanceId, "resource")!;
    const resource = ctx.store.instanceAt(resourceId) as ResourceConfig;
    const entries = ctx.store.children(resourceId, { childScope: "operation" });
    if (!entries.some(([, entry]) => (entry as OperationConfig).name === options.list && (entry as OperationConfig).type === "list")) {
      yield { path: ["list"], message: `names the list whose views these are, but ${resource.name} has no list entry "${options.list}"` };
    }
    // One set of views per resource: its routes share {prefix}/views and its bodies one name.
    const others = entries.filter(([id, entry]) => id !== ctx.instanceId && (VIEW_STEPS as readonly string[]).includes((entry as OperationConfig).type)).map(([, entry]) => entry as OperationConfig & { list?: string });
    if (others.some((entry) => entry.type === options.type)) {
      yield { path: ["type"], message: `${resource.name} has another ${options.type} entry: a resource's saved views are one set, at ${resource.route_prefix}/views` };
    }
    const otherList = others.find((entry) => (entry.list ?? "list") !== options.list);
    if (otherList !== undefined) {
      yield { path: ["list"], message: `a resource's saved views are of one list, but its ${otherList.type} entry "${otherList.name}" keeps views of "${otherList.list ?? "list"}"` };
    }
    const reason = whyNoUser(ctx);
    if (reason !== undefined) yield { path: ["require_auth"], message: `a saved view belongs to the signed-in user who saved it, but this endpoint is not authenticated: ${reason}` };
    // A text key's route matches any segment, /views too.
    if (resource.pk_type === "str") yield { path: ["type"], message: `saved views live at ${resource.route_prefix}/views, which a text key's routes would take for a row: they need a uuid or int key` };
  }

  build(ctx: BuildContext<ProjectConfig>, options: ViewOptions): unknown[] {
    const { view, routes, schemas } = resourceFiles(ctx);
    const step = STEPS[options.type];
    const name = step.name.replace("{name}", view.name);
    const runtime = `${view.runtimePackage}.saved_views`;
    const imports = new ImportCollector().addFrom(runtime, "Views");
    const params: RouteParam[] = [];
    if (step.path.includes("{view_id}")) params.push(viewIdParam());
    if (options.type === "view_create" || options.type === "view_update") {
      const body = viewBody(schemas, view, options.list, options.type === "view_update");
      params.push(new RouteParam({ name: "body", annotation: body.name, imports: new ImportCollector().addFrom(schemas.dotted, body.name) }));
      schemas.alsoHolds("the bodies of their saved views");
      imports.addFrom(runtime, "stored_query");
    }
    if (options.type !== "view_delete") imports.addFrom(runtime, "SavedView");
    if (options.type === "view_get" || options.type === "view_update" || options.type === "view_delete") imports.addFrom("fastapi", "HTTPException", "status");
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: step.method,
      route: ViewStepOperation.route(options),
      statusCode: step.status,
      summary: options.summary ?? step.summary.replace("{plural}", view.labelPlural),
      responseModel: options.type === "view_list" ? "list[SavedView]" : options.type === "view_delete" ? undefined : "SavedView",
      params,
      session: sessionParam(view),
      maxBodySize: options.type === "view_create" || options.type === "view_update" ? cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size") : undefined,
      // A view of another user is no view of this one: 404, as for one that never existed.
      errors: step.path.includes("{view_id}") ? [404] : [],
      body: { template: `operations/views/${options.type.replace("view_", "")}.py.njk`, context: { resource: pythonString(resourceKey(view)) } },
      imports,
    });
    return [routes.add(handler), new StaticFile(runtimeHelperFile("saved_views"))];
  }
}

@operation("view_list", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class ViewList extends ViewStepOperation {}

@operation("view_create", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class ViewCreate extends ViewStepOperation {}

@operation("view_get", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class ViewGet extends ViewStepOperation {}

@operation("view_update", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class ViewUpdate extends ViewStepOperation {}

@operation("view_delete", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class ViewDelete extends ViewStepOperation {}
