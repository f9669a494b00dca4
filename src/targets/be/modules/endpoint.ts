// What an endpoint operation (role `ENDPOINT`) declares of its route before it builds it:
// `static route(options)` on its class answers the route's kind and path for an entry's
// options (what it addresses follows from the path: `targetOf`). The handler is built from that answer, and the operations that attach
// to every endpoint read it while validating (`declaredRoutes`), when no handler exists yet:
// whether the route requires a user (auth, authz, rate limits), which hooks it can call.

import { type BuildContext, type BuildStore, GenerationError } from "../../../codegen/index.js";
import type { OperationConfig } from "../config/schema.js";
import { ENDPOINT, type RouteKind, targetOf } from "./handler.js";

/**
 * What a route is: its kind and its path below the resource's prefix.
 * @example { kind: "read", path: "/{pk}" }
 */
export interface Route {
  readonly kind: RouteKind;
  /** `""` (the collection), `/{pk}` (one row, by the key in it: `targetOf`), `/{pk}/publish-article`, `/bulk-delete`. */
  readonly path: string;
  /** The hooks of docs/hooks.md the route calls, so its entry may set them. @default none */
  readonly hooks?: readonly HookKey[];
  /**
   * The route stores one new row from a body of the entry's `fields` (else the resource's
   * scalar fields but a generated key) and answers it: generated tests make rows of the
   * resource through the first entry whose route does, and a `references` to the resource
   * needs one. @default false
   */
  readonly creates?: boolean;
}

/** An entry's hook keys: `pre` before a write stores the body, `post` after it commits, `serializer` making the answer. */
export type HookKey = "pre" | "post" | "serializer";

/** The static side of an endpoint operation's class: the route an entry's parsed options make. */
export interface EndpointOperation {
  route(options: any): Route;
}

/**
 * The routes the endpoint operations of the entry `ctx` is at declare, a package's too.
 * @throws GenerationError when an operation declares role `ENDPOINT` but not its route.
 */
export function declaredRoutes(ctx: BuildContext): Route[] {
  return routesAt(ctx.store, ctx.instanceId);
}

/**
 * The routes the endpoint operations of the entry at `entryId` declare: what an operation
 * elsewhere (a modifier of the entry, a sibling entry's tests) learns of the entry.
 * @throws GenerationError when an operation declares role `ENDPOINT` but not its route.
 */
export function routesAt(store: BuildStore, entryId: string): Route[] {
  return store
    .operationsAt(entryId)
    .filter(({ meta }) => meta.role === ENDPOINT)
    .map(({ meta, cls, options }) => {
      const route = (cls as Partial<EndpointOperation>).route;
      if (typeof route !== "function") {
        throw new GenerationError(`operation "${meta.name}" declares role "${ENDPOINT}" but not its route: give its class a static route(options) answering { kind, path }`);
      }
      return route.call(cls, options);
    });
}

/**
 * Each entry of the resource at `resourceId` with the routes it declares, in config order.
 * @example resourceRoutes(store, "project.apps.0.resources.0") // [{ entry: { name: "get", … }, routes: [{ kind: "read", path: "/{pk}", … }] }, …]
 */
export function resourceRoutes(store: BuildStore, resourceId: string): { entry: { name: string }; routes: Route[] }[] {
  return store.children(resourceId, { childScope: "operation" }).map(([id, entry]) => ({ entry: entry as { name: string }, routes: routesAt(store, id) }));
}

/**
 * Whether an entry of the resource at `resourceId` declares a route reading one row at the
 * row's own URL (`/{pk}`): what a create's `Location` names and tests fetch a row by.
 */
export function readsRowAtItsUrl(store: BuildStore, resourceId: string): boolean {
  return resourceRoutes(store, resourceId).some(({ routes }) => routes.some((route) => route.kind === "read" && route.path === "/{pk}"));
}

/**
 * The first entry of the resource at `resourceId` whose declared route creates rows
 * (`Route.creates`), with its id, or undefined when none does.
 * @example creatingEntry(store, "project.apps.0.resources.0") // { id: "project.apps.0.resources.0.operations.2", entry: { name: "create", … } }
 */
export function creatingEntry(store: BuildStore, resourceId: string): { id: string; entry: OperationConfig } | undefined {
  for (const [id, entry] of store.children(resourceId, { childScope: "operation" })) {
    if (routesAt(store, id).some((route) => route.creates === true)) return { id, entry: entry as OperationConfig };
  }
  return undefined;
}
