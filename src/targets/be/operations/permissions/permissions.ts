// `permissions`: GET {prefix}/permissions (which collection operations the current user may
// call: list, create, collection actions) or GET {prefix}/{pk}/permissions (which operations
// on that row: get, update, delete, instance actions; 404 for a row the user may not see,
// as get answers). The answer is not listed here: when the routes module renders, the
// handler reads every other handler of its resource, each as the operations that attach to
// endpoints left it (its user, groups, policy decision and guard: `authzChecks`, `policy`,
// `guard`), and asks the same checks without raising. A route added later, a package's
// too, is in the answer the moment it exists.

import { type BuildContext, ImportCollector, operation } from "../../../../codegen/index.js";
import { z } from "zod";
import { type ProjectConfig, endpointKeys } from "../../config/schema.js";
import { Identifier } from "../../config/primitives.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, type HandlerBody, RouteHandler, type RouteParam, distinctParams } from "../../modules/handler.js";
import type { Helper, RoutesModule } from "../../modules/routes.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";
import { type AskedAction, RowActions, SCOPES, askedActions, userOf } from "./row-actions.js";

/** An entry `{ name, type: "permissions", target }`; `permissions_endpoint: true` on a resource adds both targets. */
export const PermissionsOptions = z
  .strictObject({
    name: Identifier,
    type: z.literal("permissions"),
    target: z.enum(["collection", "row"]).default("collection").meta({
      description: "`collection`: `GET {prefix}/permissions`, the collection's operations; `row`: `GET {prefix}/{pk}/permissions`, the row's.",
    }),
    summary: endpointKeys.summary,
    require_auth: endpointKeys.require_auth,
    generate_tests: endpointKeys.generate_tests,
    rate_limit: endpointKeys.rate_limit,
    groups: endpointKeys.groups,
  })
  .meta({ id: "PermissionsOptions", description: "Options of `permissions`: which operations of the resource the current user may call." });
export type PermissionsOptions = z.output<typeof PermissionsOptions>;

@operation("permissions", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Permissions {
  static Options = PermissionsOptions;

  static route(options: PermissionsOptions): Route {
    return { kind: "read", path: options.target === "row" ? "/{pk}/permissions" : "/permissions" };
  }

  build(ctx: BuildContext<ProjectConfig>, options: PermissionsOptions): unknown[] {
    const { view, routes } = resourceFiles(ctx);
    const row = options.target === "row";
    const name = row ? `get_${view.name}_permissions` : `get_${view.plural}_permissions`;
    const handler = new PermissionsHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "GET",
      route: Permissions.route(options),
      statusCode: 200,
      summary: options.summary ?? (row ? `The operations the current user may call on one ${view.label}.` : `The operations on ${view.labelPlural} the current user may call.`),
      responseModel: "list[ActionRef]",
      params: row ? [pkParam(view)] : [],
      session: sessionParam(view),
      asksWhoIsSignedIn: true,
      imports: row
        ? new ImportCollector().addFrom(`${view.runtimePackage}.actions`, "ActionRef").addFrom(view.model.module, view.model.importName)
        : new ImportCollector().addFrom(`${view.runtimePackage}.actions`, "ActionRef"),
      notFound: row ? routes.notFound() : undefined,
    });
    // Ahead of the other routes: a text key's `GET /{pk}` would answer `/permissions` first.
    return [routes.addAhead(handler)];
  }
}

/**
 * A permissions route: its body and dependencies follow from its resource's other handlers once they are final.
 * The row route answers with the module's row actions helper (row-actions.ts), which the rows of get and list carry too.
 */
export class PermissionsHandler extends RouteHandler {
  readonly #notFound: Helper | undefined;
  readonly #rowActions: RowActions | undefined;

  constructor(options: ConstructorParameters<typeof RouteHandler>[0] & { module: RoutesModule; notFound: Helper | undefined }) {
    super(options);
    options.module.nameOperations();
    this.#notFound = options.notFound;
    if (this.target === "row") {
      this.#rowActions = RowActions.of(options.module);
      this.#rowActions.calledBy(this);
    }
  }

  /** The collection's handlers whose operations the collection route names. */
  get #asked(): RouteHandler[] {
    return this.module.handlers.filter((handler) => !(handler instanceof PermissionsHandler) && handler.target === this.target);
  }

  /** Each asked handler's entry name and the conditions of calling it, in the module's order (a check this route ran holds already). */
  get #actions(): AskedAction[] {
    return askedActions(this.#asked, this.module.view.variable, userOf(this), new Set(this.authzChecks.map((check) => check.require)));
  }

  override get body(): HandlerBody {
    const view = this.module.view;
    return {
      template: "operations/permissions/permissions.py.njk",
      context: {
        actions: this.#rowActions === undefined ? this.#actions : [],
        call: this.#rowActions?.call(view.variable),
        scope: SCOPES.collection,
        row: this.target === "row" ? view.variable : undefined,
        model: view.model.local,
        notFound: this.#notFound?.name,
      },
    };
  }

  /** The route's own, then what the asked checks need (the request's `policy`), each once. */
  override get dependencies(): RouteParam[] {
    return distinctParams([...super.dependencies, ...(this.#rowActions?.params ?? this.#asked.flatMap((handler) => handler.authzParams))]);
  }

  override get allImports(): ImportCollector {
    const imports = super.allImports;
    if (this.#rowActions === undefined) for (const action of this.#actions) imports.update(action.imports);
    return imports;
  }
}
