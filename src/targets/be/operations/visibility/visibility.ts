// `row_visibility` (project scope, when some resource sets `visible`): `visibility.py`, the
// rule of each model with one, and the runtime that applies it. Every session module builds
// its sessions from `ROW_VISIBILITY.session_class`, so each ORM read of a request's session
// meets the rules (lists, lookups, nested loads, discovery, actions, hooks): no handler
// applies visibility itself. See runtime/visibility.py and docs/authorization.md.

import { type BuildContext, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { modelRef } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { visibilityRules } from "../../row-visibility.js";

/** The dotted module of `visibility.py`, which session modules import when the project has rules. */
export function visibilityModule(project: ProjectConfig, packagePrefix: string): string | undefined {
  return visibilityRules(project).length > 0 ? prefixImport(packagePrefix, "visibility") : undefined;
}

@operation("row_visibility", { scope: "project" })
export class RowVisibilityOperation {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return visibilityRules(ctx.config).length > 0;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const imports = new ImportCollector().addFrom(prefixImport(ctx.packagePrefix, "runtime", "visibility"), "RowVisibility");
    const rules = visibilityRules(ctx.config).map((rule) => {
      const model = modelRef(rule.model);
      imports.addFrom(model.module, model.importName).add(rule.fn.slice(0, rule.fn.lastIndexOf(".")));
      return { model: model.local, fn: rule.fn };
    });
    return [
      new PythonModule({ path: "visibility.py", template: "operations/visibility/visibility.py.njk", context: { rules }, imports }),
      new StaticFile(runtimeHelperFile("visibility")),
    ];
  }
}
