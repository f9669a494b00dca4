// `update`: PATCH {prefix}/{pk} → 200 with the object, or 404. Partial: only the fields
// present in the body change; a non-nullable field sent as null is a 422.

import { type BuildContext, operation } from "../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../config/schema.js";
import { operationId, resourceView } from "../resource.js";
import { loaderContext, loaderImports, pkParam, routesModuleContext, sessionParam } from "./handlers.js";
import { readShapeOutputs } from "./read-outputs.js";
import { crudTests } from "../testing/cases.js";
import { RouteHandler, RouteParam } from "./types.js";
import { updateSchema, writeFields } from "./write-schema.js";

@operation("update", { scope: "operation", dispatchOn: "type" })
export class Update {
  static Options = CrudOptions;

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const view = resourceView(ctx);
    const { shape, outputs } = readShapeOutputs(ctx, view);
    const body = updateSchema(view, writeFields(view, options.fields));
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "update",
      requireAuth: options.require_auth,
      name: `update_${view.name}`,
      operationId: operationId(view, `update_${view.name}`),      method: "PATCH",
      path: "/{pk}",
      statusCode: 200,
      summary: options.summary ?? "Change the fields sent in the body; the others keep their values.",
      responseModel: shape.read.name,
      params: [pkParam(view), new RouteParam({ name: "body", annotation: body.name })],
      dependencies: [sessionParam(view)],
      context: {
        module: { ...routesModuleContext(view), ...loaderContext(view, shape) },
        model: view.modelClass,
        variable: view.name,
        serializer: shape.serializer.name,
        loader: `_load_${view.name}`,
      },
      imports: loaderImports(view, shape)
        .addFrom(body.module, body.name)
        .addFrom(shape.read.module, shape.read.name)
        .addFrom(shape.serializer.module, shape.serializer.name),
    });
    return [...outputs, body, handler, ...crudTests(ctx, options, handler)];
  }
}
