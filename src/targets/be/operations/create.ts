// `create`: POST {prefix} → 201 with the created object, and a `Location` header when the
// resource also has a `get` route to point at. In an app with tests, it also gives the
// conftest the resource's factories (`{name}_body`, `make_{name}`).

import { type BuildContext, ImportCollector, operation } from "../../../codegen/index.js";
import { CrudOptions, type ProjectConfig, withArticle } from "../config/schema.js";
import { operationId, resourceHasOperation, resourceView } from "../resource.js";
import { loaderContext, loaderImports, routesModuleContext, sessionParam } from "./handlers.js";
import { readShapeOutputs } from "./read-outputs.js";
import { crudTests } from "../testing/cases.js";
import { factoryFixtures } from "../testing/fixtures.js";
import { RouteHandler, RouteParam } from "./types.js";
import { createSchema, writeFields } from "./write-schema.js";

@operation("create", { scope: "operation", dispatchOn: "type" })
export class Create {
  static Options = CrudOptions;

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const view = resourceView(ctx);
    const { shape, outputs } = readShapeOutputs(ctx, view);
    const body = createSchema(view, writeFields(view, options.fields));
    const located = resourceHasOperation(view, "get");
    const params = [new RouteParam({ name: "body", annotation: body.name })];
    const imports = loaderImports(view, shape)
      .addFrom(body.module, body.name)
      .addFrom(shape.read.module, shape.read.name)
      .addFrom(shape.serializer.module, shape.serializer.name);
    if (located) {
      params.push(new RouteParam({ name: "request", annotation: "Request" }), new RouteParam({ name: "response", annotation: "Response" }));
      imports.addFrom("fastapi", "Request", "Response");
    }
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "create",
      requireAuth: options.require_auth,
      name: `create_${view.name}`,
      operationId: operationId(view, `create_${view.name}`),      method: "POST",
      path: "",
      statusCode: 201,
      summary: options.summary ?? (located ? `Create ${withArticle(view.label)}; the \`\`Location\`\` header gives its URL.` : `Create ${withArticle(view.label)}.`),
      responseModel: shape.read.name,
      params,
      dependencies: [sessionParam(view)],
      context: {
        module: { ...routesModuleContext(view), ...loaderContext(view, shape) },
        body: body.name,
        model: view.modelClass,
        variable: view.name,
        pk: view.pk,
        serializer: shape.serializer.name,
        loader: `_load_${view.name}`,
        // Built from the request's own URL, not a route name: two apps may both have a `get_<name>`.
        located,
      },
      imports: imports.update(new ImportCollector()),
    });
    return [...outputs, body, handler, ...crudTests(ctx, options, handler), ...factoryFixtures(ctx, options)];
  }
}
