// `auth` (an augmenter, operation scope): once every endpoint operation of an entry (role
// `ENDPOINT`, a package's too) has built its handler, the handler takes `current_user:
// CurrentUser` when the route requires a user (see `decide.ts`). It decides for every
// handler, with or without `auth` in the config, through `RouteHandler.decideUser`: a handler
// it never saw cannot render. `userType` is the Python type of that user, for the modules
// that annotate it (groups, visibility).

import { type BuildContext, GenerationError, ImportCollector, operation, prefixImport } from "../../../../codegen/index.js";
import type { AuthConfig, ProjectConfig } from "../../config/schema.js";
import { declaredRoutes } from "../../modules/endpoint.js";
import { ENDPOINT, RouteHandler, RouteParam, targetOf } from "../../modules/handler.js";
import { decideAuth } from "./decide.js";

@operation("auth", { scope: "operation", requiresRoles: [ENDPOINT] })
export class Auth {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const declared = declaredRoutes(ctx);
    for (const handler of ctx.store.outputsUnder(ctx.instanceId, RouteHandler)) {
      // The validators decided from the declared routes: a handler must be one of them.
      if (!declared.some((route) => route.kind === handler.kind && route.path === handler.path)) {
        throw new GenerationError(
          `the route handler ${handler.name} (entry "${handler.entry.name}") is a ${handler.kind} of ${handler.target === "row" ? "a row" : "the collection"} at "${handler.path}", ` +
            `which its operation's static route(options) does not declare (${declared.map((route) => `${route.kind} ${targetOf(route.path)} "${route.path}"`).join(", ") || "no route"})`,
        );
      }
      const required = decideAuth(ctx.config, ctx.store, ctx.instanceId, handler.path).required;
      handler.decideUser(required ? currentUserParam(ctx.packagePrefix) : undefined);
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
