// `auth` (an augmenter, operation scope): once the endpoint operation of an entry has built
// its handler, the handler takes `current_user: CurrentUser` when the route requires a user
// (see `decide.ts`). It amends the handler only through `RouteHandler.requireUser`. `userType`
// is the Python type of that user, for the modules that annotate it (groups, visibility).

import { type BuildContext, ImportCollector, operation, prefixImport } from "../../../../codegen/index.js";
import type { AuthConfig, ProjectConfig } from "../../config/schema.js";
import { RouteHandler, RouteParam } from "../../modules/handler.js";
import { decideAuth } from "./decide.js";

/** The endpoint operations whose handlers the augmenter sees: it runs after them at each entry. */
export const ENDPOINT_OPERATIONS = ["get", "list", "create", "update", "delete", "action"];

@operation("auth", { scope: "operation", requires: ENDPOINT_OPERATIONS })
export class Auth {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.auth !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    for (const handler of ctx.store.outputsUnder(ctx.instanceId, RouteHandler)) {
      if (decideAuth(ctx.config, ctx.store, ctx.instanceId, handler.path).required) handler.requireUser(currentUserParam(ctx.packagePrefix));
    }
    return [];
  }
}

/** `current_user: CurrentUser`, from the generated `auth.dependencies`. */
function currentUserParam(packagePrefix: string): RouteParam {
  return new RouteParam({
    name: "current_user",
    annotation: "CurrentUser",
    imports: new ImportCollector().addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "CurrentUser"),
  });
}

/** The Python type of the current user: `AuthenticatedUser` of the JWT flow, `Any` with `get_current_user_fn`. */
export function userType(auth: AuthConfig, packagePrefix: string): { name: string; imports: ImportCollector } {
  if (auth.get_current_user_fn !== undefined) return { name: "Any", imports: new ImportCollector().addFrom("typing", "Any") };
  return { name: "AuthenticatedUser", imports: new ImportCollector().addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "AuthenticatedUser") };
}
