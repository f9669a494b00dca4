// `get`: GET {prefix}/{pk} → 200 with the read schema, or 404.

import { type BuildContext, operation } from "../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../config/schema.js";
import { operationId, resourceView } from "../resource.js";
import { loaderContext, loaderImports, pkParam, routesModuleContext, sessionParam } from "./handlers.js";
import { readShapeOutputs } from "./read-outputs.js";
import { crudTests } from "../testing/cases.js";
import { RouteHandler } from "./types.js";

@operation("get", { scope: "operation", dispatchOn: "type" })
export class Get {
  static Options = CrudOptions;

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const view = resourceView(ctx);
    const { shape, outputs } = readShapeOutputs(ctx, view);
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "get",
      requireAuth: options.require_auth,
      name: `get_${view.name}`,
      operationId: operationId(view, `get_${view.name}`),      method: "GET",
      path: "/{pk}",
      statusCode: 200,
      summary: options.summary ?? `Get one ${view.label}.`,
      responseModel: shape.read.name,
      params: [pkParam(view)],
      dependencies: [sessionParam(view)],
      context: { module: { ...routesModuleContext(view), ...loaderContext(view, shape) }, serializer: shape.serializer.name, loader: `_load_${view.name}` },
      imports: loaderImports(view, shape).addFrom(shape.read.module, shape.read.name).addFrom(shape.serializer.module, shape.serializer.name),
    });
    return [...outputs, handler, ...crudTests(ctx, options, handler)];
  }
}
