// The OPA side of a handler's authorization (`opa: true`, docs/authorization.md): the
// request's `policy: Policy` dependency, then a decision about the loaded row (instance
// routes), a decision without one (collection routes), or a list's row filter from OPA's
// partial evaluation, registered once per routes module as `_POLICY_ROWS`.

import { type BuildContext, ImportCollector, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig, ResourceConfig } from "../../config/schema.js";
import { RouteHandler, RouteParam } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import { ListHandler } from "../list/list-handler.js";

/** What OPA adds to one handler's authorization. */
export interface PolicyAuthz {
  /** Lines run first: the decision of a collection route. */
  checks: string[];
  /** `"get", "article"`: the decision about the loaded row of an instance route. */
  policy?: string;
  params: RouteParam[];
}

/**
 * OPA's part of `handler`'s checks; a list's row filter goes straight into its query.
 * `onInstance`: the route works on one row, which OPA then sees as `input.object`.
 */
export function policyAuthz(ctx: BuildContext<ProjectConfig>, handler: RouteHandler, entry: { name: string }, onInstance: boolean): PolicyAuthz {
  const resource = ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
  const policyModule = prefixImport(ctx.packagePrefix, "policy");
  const param = new RouteParam({ name: "policy", annotation: "Policy", imports: new ImportCollector().addFrom(policyModule, "Policy") });
  const subject = `${pythonString(entry.name)}, ${pythonString(resource.name)}`;
  if (handler instanceof ListHandler) {
    const rows = handler.module.policyRows(new ImportCollector().addFrom(policyModule, "OPA"));
    handler.query.where({ expression: `await policy.visible(${rows.name})`, imports: new ImportCollector(), perRequest: true });
    return { checks: [], params: [param] };
  }
  if (onInstance) return { checks: [], policy: subject, params: [param] };
  return { checks: [`    await policy.require(${subject})`], params: [param] };
}
