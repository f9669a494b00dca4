// `row_visibility` (project scope, when some resource sets `visible` or reads through OPA):
// `visibility.py`, the rule of each model with one (your function, OPA's rows from policy.py,
// or both), and the runtime that applies it. Every session module builds
// its sessions from `ROW_VISIBILITY.session_class`, so each ORM read of a request's session
// meets the rules (lists, lookups, nested loads, discovery, actions, hooks): no handler
// applies visibility itself. See runtime/visibility.py and docs/authorization.md.

import { type BuildContext, type BuildStore, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { modelRef } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { type OpaRows, visibilityRules } from "../../row-visibility.js";

/** The name policy.py gives OPA's rows of a resource (`ARTICLE_ROWS`). */
export function opaRowsName(rows: OpaRows): string {
  return `${rows.resource.toUpperCase()}_ROWS`;
}

/** The dotted module of `visibility.py`, which session modules import when the project has rules. */
export function visibilityModule(project: ProjectConfig, store: BuildStore, packagePrefix: string): string | undefined {
  return visibilityRules(project, store).length > 0 ? prefixImport(packagePrefix, "visibility") : undefined;
}

@operation("row_visibility", { scope: "project" })
export class RowVisibilityOperation {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return visibilityRules(ctx.config, ctx.store).length > 0;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const imports = new ImportCollector().addFrom(prefixImport(ctx.packagePrefix, "runtime", "visibility"), "RowVisibility");
    const rules = visibilityRules(ctx.config, ctx.store).map((rule) => {
      const model = modelRef(rule.model);
      imports.addFrom(model.module, model.importName);
      const parts: string[] = [];
      if (rule.fn !== undefined) {
        imports.add(rule.fn.slice(0, rule.fn.lastIndexOf(".")));
        parts.push(rule.fn);
      }
      if (rule.opa !== undefined) {
        imports.addFrom(prefixImport(ctx.packagePrefix, "policy"), opaRowsName(rule.opa), "visible_rows");
        parts.push(`visible_rows(${opaRowsName(rule.opa)})`);
      }
      if (parts.length === 1) return { model: model.local, fn: parts[0]! };
      // Both: a row must meet your function and the policy.
      imports.addFrom(prefixImport(ctx.packagePrefix, "runtime", "visibility"), "all_of");
      return { model: model.local, fn: `all_of(${parts.join(", ")})` };
    });
    return [
      new PythonModule({ path: "visibility.py", template: "operations/visibility/visibility.py.njk", context: { rules }, imports }),
      new StaticFile(runtimeHelperFile("visibility")),
    ];
  }
}
