// `auth` (an augmenter, operation scope): once the CRUD and action ops of an operation
// entry have built their handlers, it appends `current_user: CurrentUser` to each of them,
// unless the project sets no `auth`, the entry or its resource opts out
// (`require_auth: false`; the entry's setting wins), or the route's path matches an
// `exclude_paths` entry. A handler that passes the user on (`pass_user`) must end up
// authenticated; otherwise the config is wrong and the error says why.

import { type BuildContext, ConfigError, ImportCollector, formatConfigPath, operation, prefixImport } from "../../../codegen/index.js";
import { type ProjectConfig, type ResolvedApp, excludedBy } from "../config/schema.js";
import { type ResourceView, resourceView } from "../resource.js";
import { RouteHandler, RouteParam } from "./types.js";

/** The operations whose handlers the augmenter sees: it runs after them at each entry. */
const HANDLER_OPERATIONS = ["get", "list", "create", "update", "delete", "action"];

/** Whether a route requires a user, and if not, why (for error messages). */
export type AuthDecision = { required: true } | { required: false; reason: string };

@operation("auth", { scope: "operation", requires: HANDLER_OPERATIONS })
export class Auth {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const handlers = ctx.store.outputsUnder(ctx.instanceId, RouteHandler);
    if (handlers.length === 0) return [];
    const view = resourceView(ctx);
    const app = ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
    for (const handler of handlers) {
      const decision = decideAuth(ctx.config, view, app, handler);
      if (decision.required) {
        handler.dependencies.push(currentUserParam(ctx.packagePrefix));
      } else if (handler.passUser) {
        throw new ConfigError("invalid configuration", {
          issues: [
            {
              path: formatConfigPath(["pass_user"], ctx.configPath),
              message: `passes current_user to the function, but this endpoint is not authenticated: ${decision.reason}`,
            },
          ],
        });
      }
    }
    return [];
  }
}

/**
 * The route's full path as OpenAPI shows it: the app's mount prefix, the resource's route
 * prefix, then the handler's own path.
 * @example routePath(app, view, handler) // "/content/articles/{pk}/publish-article"
 */
export function routePath(app: ResolvedApp, view: ResourceView, handler: RouteHandler): string {
  return `${app.prefix}${view.routePrefix}${handler.path}`;
}

/** Whether `handler` gets the `current_user` dependency. */
export function decideAuth(project: ProjectConfig, view: ResourceView, app: ResolvedApp, handler: RouteHandler): AuthDecision {
  if (project.auth === undefined) return { required: false, reason: "the project sets no auth" };
  if (handler.requireAuth === false) return { required: false, reason: "this operation sets require_auth: false" };
  if (handler.requireAuth === undefined && !view.config.require_auth) {
    return { required: false, reason: "its resource sets require_auth: false" };
  }
  const path = routePath(app, view, handler);
  const pattern = excludedBy(path, project.auth.exclude_paths);
  if (pattern !== undefined) return { required: false, reason: `its path "${path}" matches exclude_paths entry "${pattern}"` };
  return { required: true };
}

/** `current_user: CurrentUser`, from the generated `auth.dependencies`. */
function currentUserParam(packagePrefix: string): RouteParam {
  return new RouteParam({
    name: "current_user",
    annotation: "CurrentUser",
    imports: new ImportCollector().addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "CurrentUser"),
  });
}
