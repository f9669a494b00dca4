// Whether a route requires an authenticated user: the project sets `auth`, the cascading
// `require_auth` holds for its entry, and its path matches no `exclude_paths` entry. The
// `auth` augmenter applies the decision; validators ask `whyNoUser` of the routes the entry's
// endpoint operation declares (`declaredRoutes`), before any handler exists.

import type { BuildContext, BuildStore } from "../../../../codegen/index.js";
import { declaredRoutes } from "../../modules/endpoint.js";
import { type ProjectConfig, type ResolvedApp, type ResourceConfig, excludedBy } from "../../config/schema.js";
import { cascadeSource, cascaded } from "../../cascade.js";

/** Whether a route requires a user, and if not, why (for error messages). */
export type AuthDecision = { required: true } | { required: false; reason: string };

/**
 * The route's full path as OpenAPI shows it: the app's mount prefix, the resource's route
 * prefix, then the handler's own path.
 * @example routePath(store, "project.apps.0.resources.1.operations.5", "/{pk}/publish-article") // "/content/articles/{pk}/publish-article"
 */
export function routePath(store: BuildStore, instanceId: string, handlerPath: string): string {
  const app = store.ancestorOf(instanceId, "app") as ResolvedApp;
  const resource = store.ancestorOf(instanceId, "resource") as ResourceConfig;
  return `${app.prefix}${resource.route_prefix}${handlerPath}`;
}

/** Whether the route at `handlerPath` of the entry `instanceId` gets the `current_user` dependency. */
export function decideAuth(project: ProjectConfig, store: BuildStore, instanceId: string, handlerPath: string): AuthDecision {
  if (project.auth === undefined) return { required: false, reason: "the project sets no auth" };
  if (!cascaded(store, instanceId, project, "require_auth")) {
    return { required: false, reason: `${cascadeSource(store, instanceId, "require_auth")} sets require_auth: false` };
  }
  const path = routePath(store, instanceId, handlerPath);
  const pattern = excludedBy(path, project.auth.exclude_paths);
  if (pattern !== undefined) return { required: false, reason: `its path "${path}" matches exclude_paths entry "${pattern}"` };
  return { required: true };
}

/**
 * Why a route the entry at `ctx` declares gets no user, when one does: what validators of
 * keys that need a user (a per-user rate limit, groups, a guard) answer.
 */
export function whyNoUser(ctx: BuildContext<ProjectConfig>): string | undefined {
  for (const route of declaredRoutes(ctx)) {
    const decision = decideAuth(ctx.config, ctx.store, ctx.instanceId, route.path);
    if (!decision.required) return decision.reason;
  }
  return undefined;
}
