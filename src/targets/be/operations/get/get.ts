// `get`: GET {prefix}/{pk} → 200 with the read schema, or 404.

import { type BuildContext, operation } from "../../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";
import { getTests } from "./tests.js";
import { RowActions, listsActions } from "../permissions/row-actions.js";

@operation("get", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Get {
  static Options = CrudOptions;

  static route(): Route {
    return { kind: "read", path: "/{pk}", hooks: ["serializer"] };
  }

  /** The generated tests of its route (tests.ts). */
  static readonly tests = getTests;

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const { view, routes, read } = resourceFiles(ctx);
    const shape = read.of(options);
    const name = `get_${view.name}`;
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "GET",
      route: Get.route(),
      statusCode: 200,
      summary: options.summary ?? `Get one ${view.label}.`,
      responseModel: shape.responseModel,
      representation: shape,
      params: [pkParam(view)],
      session: sessionParam(view),
      body: { template: "operations/get/get.py.njk", context: { row: view.variable, serializer: shape.serializer, loader: routes.loader(shape) } },
      imports: shape.imports.copy(),
      asksWhoIsSignedIn: listsActions(view, shape),
    });
    if (listsActions(view, shape)) handler.listActions(RowActions.of(routes));
    return [routes.add(handler)];
  }
}
