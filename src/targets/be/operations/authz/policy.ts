// The OPA side of a handler's authorization (`opa: true`, docs/authorization.md): the
// request's `policy: Policy` dependency, then a decision about the loaded row (instance
// routes) or a decision without one (collection routes). Which rows exist is not decided
// here: OPA's rows are their model's visibility rule (row-visibility.ts), which the ORM
// applies to every read, so lists and get ask nothing of their own.

import { type BuildContext, ImportCollector, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig } from "../../config/schema.js";
import { type AuthzCheck, RouteHandler, RouteParam } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";

/** What OPA adds to one handler's authorization. */
export interface PolicyAuthz {
  /** Lines run first: the decision of a collection route. */
  checks: AuthzCheck[];
  /** `"get", "article"`: the decision about the loaded row of an instance route. */
  policy?: string;
  params: RouteParam[];
}

/**
 * OPA's part of `handler`'s checks. `onInstance`: the route works on one row, which OPA then
 * sees as `input.object`. A read route (kind `read`: get, lists, a package's) reads through
 * the rule of the model (OPA's rows): a row the policy would not let the user get is
 * missing, a 404; it asks no decision of its own.
 */
export function policyAuthz(ctx: BuildContext<ProjectConfig>, handler: RouteHandler, entry: { name: string }, onInstance: boolean): PolicyAuthz | undefined {
  if (handler.kind === "read") return undefined;
  const resource = ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
  const param = new RouteParam({ name: "policy", annotation: "Policy", imports: new ImportCollector().addFrom(prefixImport(ctx.packagePrefix, "policy"), "Policy") });
  const subject = `${pythonString(entry.name)}, ${pythonString(resource.name)}`;
  if (onInstance) return { checks: [], policy: subject, params: [param] };
  return { checks: [{ require: `    await policy.require(${subject})`, allows: `await policy.allows(${subject})` }], params: [param] };
}
