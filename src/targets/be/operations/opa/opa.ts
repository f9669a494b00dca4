// `opa_scaffold` (project scope, with `auth.opa` and some `opa: true`): `policy.py`, the
// project's OPA client and its per-request `Policy` dependency, the runtime helpers it runs
// on (runtime/opa.py, runtime/opa_filter.py), and the `PolicyRouter` handle the top-level
// router includes so the client's lifespan runs. See `authz/policy.ts` for the handlers' side.

import { type BuildContext, type BuildStore, Handle, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { AuthzLevel, JwtAuth, OpaConfig, ProjectConfig } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonString } from "../../python/literals.js";
import { modelRef } from "../../resource.js";
import { visibilityRules } from "../../row-visibility.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { opaRowsName } from "../visibility/visibility.js";

/** The policy module's router, for the aggregating router to include (its lifespan opens the OPA client). */
export class PolicyRouter extends Handle {
  readonly dotted: string;
  readonly alias = "policy_router";

  constructor(packagePrefix: string) {
    super();
    this.dotted = prefixImport(packagePrefix, "policy");
  }

  /** Always: the policy module exists whenever this handle does. */
  usedIn(): boolean {
    return true;
  }
}

/**
 * Whether the project asks OPA: `auth.opa` is set and some app, resource or entry says `opa: true`.
 * @example opaUsed(ctx.config) // false for every project without `auth.opa`
 */
export function opaUsed(project: ProjectConfig): boolean {
  if (project.auth?.opa === undefined) return false;
  const on = (level: AuthzLevel) => level.opa === true;
  return project.apps.some((app) => on(app.config) || app.config.resources.some((resource) => on(resource) || resource.operations.some((entry) => on(entry as AuthzLevel))));
}

@operation("opa_scaffold", { scope: "project" })
export class OpaScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return opaUsed(ctx.config);
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const auth = ctx.config.auth as JwtAuth;
    return [policyModule(ctx.config, ctx.store, auth.opa!, ctx.packagePrefix), ...["opa", "opa_filter"].map((name) => new StaticFile(runtimeHelperFile(name))), new PolicyRouter(ctx.packagePrefix)];
  }
}

function policyModule(project: ProjectConfig, store: BuildStore, opa: OpaConfig, packagePrefix: string): PythonModule {
  const runtime = prefixImport(packagePrefix, "runtime", "opa");
  const imports = new ImportCollector()
    .addFrom("typing", "Annotated", "Any")
    .addFrom("fastapi", "APIRouter", "Depends")
    .addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "AuthenticatedUser", "CurrentUser")
    .addFrom(prefixImport(packagePrefix, "auth", "groups"), "user_groups")
    .addFrom(runtime, "PolicyClient", "RequestPolicy", "policy_claims");
  // OPA's rows of each model whose reads ask it: registered here, when the routes import
  // this module, so startup checks that row filters translate the policy.
  const rows = visibilityRules(project, store).flatMap((rule) => {
    if (rule.opa === undefined) return [];
    const model = modelRef(rule.model);
    imports.addFrom(model.module, model.importName);
    return [{ name: opaRowsName(rule.opa), resource: pythonString(rule.opa.resource), action: pythonString(rule.opa.action), model: model.local }];
  });
  if (rows.length > 0) {
    imports.addFrom("collections.abc", "Awaitable", "Callable").addFrom("sqlalchemy", "ColumnElement", "false").addFrom(runtime, "RowPolicy");
  }
  return new PythonModule({
    path: "policy.py",
    template: "operations/opa/policy.py.njk",
    context: {
      decision_literal: pythonString(opa.decision),
      url_env_literal: pythonString(opa.url_env),
      timeout: Number.isInteger(opa.timeout_seconds) ? `${opa.timeout_seconds}.0` : String(opa.timeout_seconds),
      fail_open: opa.fail === "open",
      rows,
    },
    imports,
  });
}
