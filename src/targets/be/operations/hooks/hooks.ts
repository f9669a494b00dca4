// `hooks` (an augmenter, operation scope): an entry's `pre`, `post` and `serializer` keys
// (docs/hooks.md) apply only where its route calls them, as the endpoint operation declares
// in its route's `hooks` (`static route(options)`), a package's too: `post` on a route that
// commits a write, `pre` on one that stores its body, `serializer` on one that answers a row.
// It checks that; the endpoint operation makes the calls (`HookCalls`).

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { type HookKey, type Route, declaredRoutes } from "../../modules/endpoint.js";
import { ENDPOINT } from "../../modules/handler.js";

/** Why `key` has no effect on the entry of type `type`, whose routes are `routes`. */
function refusal(key: HookKey, type: string, routes: readonly Route[]): string {
  const writes = routes.some((route) => route.kind !== "read");
  switch (key) {
    case "pre":
      return `pre changes what a route stores from its request body; ${type} ${routes.some((route) => route.hooks?.includes("post")) ? "has no body to change: refuse it with `can`, or act after it with `post`" : writes ? "stores no body" : "writes nothing"}`;
    case "post":
      return `post runs after a write commits; ${type} ${writes ? "calls no post hook" : "writes nothing"}`;
    case "serializer":
      return `${type} answers with no row: serializer has no effect here`;
  }
}

@operation("hooks", { scope: "operation", requiresRoles: [ENDPOINT] })
export class Hooks {
  // The entry as written: this augmenter runs at every entry, whatever its operation parses.
  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    const entry = ctx.instance as Partial<Record<HookKey, unknown>> & { type: string };
    const routes = declaredRoutes(ctx);
    if (routes.length === 0) return;
    for (const key of ["serializer", "pre", "post"] as const) {
      if (entry[key] === undefined || routes.some((route) => route.hooks?.includes(key))) continue;
      yield { path: [key], message: refusal(key, entry.type, routes) };
    }
  }

  build(): unknown[] {
    return [];
  }
}
