// `delete`: DELETE {prefix}/{pk} → 204, or 404.

import { type BuildContext, ImportCollector, operation } from "../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../config/schema.js";
import { operationId, resourceView } from "../resource.js";
import { notFoundContext, pkParam, routesModuleContext, sessionParam } from "./handlers.js";
import { crudTests } from "../testing/cases.js";
import { RouteHandler } from "./types.js";

@operation("delete", { scope: "operation", dispatchOn: "type" })
export class Delete {
  static Options = CrudOptions;

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const view = resourceView(ctx);
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "delete",
      requireAuth: options.require_auth,
      name: `delete_${view.name}`,
      operationId: operationId(view, `delete_${view.name}`),      method: "DELETE",
      path: "/{pk}",
      statusCode: 204,
      summary: options.summary ?? `Delete one ${view.label}.`,
      params: [pkParam(view)],
      dependencies: [sessionParam(view)],
      context: {
        module: { ...routesModuleContext(view), not_found: notFoundContext(view) },
        model: view.modelClass,
        variable: view.name,
      },
      imports: new ImportCollector().addFrom("fastapi", "HTTPException", "status").addFrom(view.modelModule, view.modelClass),
    });
    return [handler, ...crudTests(ctx, options, handler)];
  }
}
