// `authz` (an augmenter, operation scope, after `auth`): the authorization of each handler
// of an entry — the cascading `groups` check, OPA's decision (cascading `opa`, see
// `policy.ts`) and the entry's guard (`can`) — handed to the handler through
// `RouteHandler.authorize`. Row visibility (`visible`, and OPA's rows of a resource whose
// reads ask OPA) is the ORM's (operations/visibility): here a public route of
// such a resource only takes the optional user, so the rule sees who signed in. Its
// `validate` rejects checks on routes without a user.

import { type BuildContext, ImportCollector, Name, type ValidationIssue, operation, prefixImport } from "../../../../codegen/index.js";
import type { AuthzLevel, ProjectConfig, ResourceConfig } from "../../config/schema.js";
import type { Convention } from "../../config/kiln.js";
import { cascaded } from "../../cascade.js";
import { type AuthzCheck, ENDPOINT, RouteHandler, RouteParam } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import { mayBeHidden } from "../../row-visibility.js";
import { whyNoUser } from "../auth/decide.js";
import { policyAuthz } from "./policy.js";

type Entry = AuthzLevel & { name: string; type: string; convention?: Convention };

/**
 * The guard's call on `row` (the row's variable, or `None`): codegen's `can(user, row, session)`,
 * or kiln's `can(resource, session)`, whose session is kiln's auth session: the session model
 * read back from the token's claims with kiln's login, else the signed-in user.
 */
function guardCall(config: ProjectConfig, can: string, convention: Convention | undefined, imports: ImportCollector): (row: string) => string {
  if (convention !== "kiln") return (row) => `${can}(current_user, ${row}, session)`;
  const session = kilnSession(config, imports);
  return (row) => `${can}(${row}, ${session})`;
}

/**
 * kiln's auth session of the signed-in `current_user`, as kiln's functions get it: the
 * session model read back from the token's claims with kiln's login, else the user itself.
 */
export function kilnSession(config: ProjectConfig, imports: ImportCollector): string {
  const sessionSchema = config.auth?.get_current_user_fn === undefined ? config.auth?.login?.session_schema : undefined;
  if (sessionSchema === undefined) return "current_user";
  const [module, name] = Name.fromDotted(sessionSchema);
  imports.add(module);
  return `${module}.${name.raw}.model_validate(current_user.claims)`;
}

/**
 * Whether the entry's authorization may check a row it loads: its guard (`can`) or OPA,
 * when the config has OPA and the entry's cascading `opa` is on. A route reading its row
 * as columns is one where this is false, so its check needs no ORM object.
 */
export function mayCheckRow(ctx: BuildContext<ProjectConfig>, options: { can?: string }): boolean {
  return options.can !== undefined || asksOpa(ctx);
}

function asksOpa(ctx: BuildContext<ProjectConfig>): boolean {
  return ctx.config.auth?.opa !== undefined && cascaded(ctx.store, ctx.instanceId, ctx.config, "opa") === true;
}

/** Whether the route works on one row (its guard gets the row), rather than on the collection (`None`). */
function onInstance(handler: RouteHandler): boolean {
  return handler.target === "row";
}

@operation("authz", { scope: "operation", requires: ["auth"], requiresRoles: [ENDPOINT] })
export class Authz {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.auth !== undefined;
  }

  // The entry as written (its keys beyond the augmenter's own options): this augmenter runs at every entry.
  *validate(ctx: BuildContext<ProjectConfig>): Iterable<ValidationIssue> {
    const options = ctx.instance as Entry;
    const reason = whyNoUser(ctx);
    if (reason === undefined) return;
    for (const key of ["groups", "can", "opa"] as const) {
      if (options[key] !== undefined && options[key] !== false) {
        const what = { groups: "admits only members of these groups", can: "asks this guard", opa: "asks the OPA policy" }[key];
        yield { path: [key], message: `${what}, but this endpoint is not authenticated: ${reason}` };
      }
    }
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const options = ctx.instance as Entry;
    const resource = ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
    const groups = cascaded(ctx.store, ctx.instanceId, ctx.config, "groups");
    const opa = asksOpa(ctx);
    const runtime = prefixImport(ctx.packagePrefix, "runtime");
    for (const handler of ctx.store.outputsUnder(ctx.instanceId, RouteHandler)) {
      const imports = new ImportCollector();
      const checks: AuthzCheck[] = [];
      // A route without a user has no groups to check: only an entry's own `groups` is refused there (validate).
      if (groups !== undefined && handler.user !== undefined) {
        const admitted = [...groups].sort().map(pythonString).join(", ");
        const groupsModule = prefixImport(ctx.packagePrefix, "auth", "groups");
        checks.push({
          require: `    await require_groups(current_user, ${admitted})`,
          allows: `await in_groups(current_user, ${admitted})`,
          allowsImports: new ImportCollector().addFrom(groupsModule, "in_groups"),
        });
        handler.admitsGroups(groups);
        imports.addFrom(groupsModule, "require_groups");
      }
      // OPA, like groups, needs a user: a route without one asks nothing (validate refuses an entry's own `opa` there).
      const policy = opa && handler.user !== undefined ? policyAuthz(ctx, handler, options, onInstance(handler)) : undefined;
      if (policy !== undefined) checks.push(...policy.checks);
      let guard: ((row: string) => string) | undefined;
      const guardImports = new ImportCollector();
      if (options.can !== undefined) {
        guardImports.add(options.can.slice(0, options.can.lastIndexOf(".")));
        const call = guardCall(ctx.config, options.can, options.convention, guardImports);
        imports.update(guardImports).addFrom(`${runtime}.authz`, "forbidden");
        if (onInstance(handler)) guard = call;
        else checks.push({ require: `    if not await ${call("None")}:\n        raise forbidden()`, allows: `await ${call("None")}`, allowsImports: guardImports });
      }
      // A public route of the JWT flow sees the user when a request carries valid credentials, so its model's rule (yours, OPA's rows) sees them
      // too, and so does a route whose answer is about who asks (the permissions routes).
      const readsUser = mayBeHidden(ctx.config, ctx.store, resource.model) || handler.asksWhoIsSignedIn;
      if (readsUser && handler.user === undefined && ctx.config.auth!.get_current_user_fn === undefined) handler.acceptUser(optionalUserParam(ctx.packagePrefix));
      const rowPolicy = policy?.policy;
      if (checks.length > 0 || guard !== undefined || policy !== undefined) {
        handler.authorize({
          checks,
          ...(rowPolicy !== undefined && { policy: rowPolicy }),
          ...(guard !== undefined && { guard, guardImports }),
          ...(policy !== undefined && { params: policy.params }),
          imports,
        });
      }
    }
    return [];
  }
}

/** `current_user: OptionalUser`, from the generated `auth.dependencies`: the user, or `None` without valid credentials. */
function optionalUserParam(packagePrefix: string): RouteParam {
  return new RouteParam({
    name: "current_user",
    annotation: "OptionalUser",
    imports: new ImportCollector().addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "OptionalUser"),
  });
}
