// `list`: GET {prefix} → 200 with one bounded page (`limit`, opaque `cursor`), keyset-ordered
// by primary key. Every nested relationship is loaded with the page's rows, so the number
// of SQL statements does not grow with the page size.

import { type BuildContext, ImportCollector, operation } from "../../../codegen/index.js";
import { ListOptions, type ProjectConfig } from "../config/schema.js";
import { operationId, resourceView } from "../resource.js";
import { routesModuleContext, sessionParam } from "./handlers.js";
import { readShapeOutputs } from "./read-outputs.js";
import { wrapCall } from "../python/wrap.js";
import { crudTests } from "../testing/cases.js";
import { RouteHandler, RouteParam } from "./types.js";

@operation("list", { scope: "operation", dispatchOn: "type" })
export class List {
  static Options = ListOptions;

  build(ctx: BuildContext<ProjectConfig>, options: ListOptions): unknown[] {
    const view = resourceView(ctx);
    const { shape, outputs } = readShapeOutputs(ctx, view);
    const limit = new RouteParam({
      name: "limit",
      annotation: `Annotated[int, Query(ge=1, le=${options.max_limit})]`,
      default: String(options.default_limit),
      imports: new ImportCollector().addFrom("typing", "Annotated").addFrom("fastapi", "Query"),
    });
    const cursor = new RouteParam({ name: "cursor", annotation: "str | None", default: "None" });
    const hasLoaders = shape.loaders.length > 0;
    const imports = new ImportCollector()
      .addFrom("sqlalchemy", "select")
      .addFrom(view.modelModule, view.modelClass)
      .addFrom(shape.read.module, shape.read.name)
      .addFrom(shape.serializer.module, shape.serializer.name)
      .addFrom(`${view.runtimePackage}.pagination`, "Page", "paginate");
    if (hasLoaders) imports.update(shape.loaderImports);
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "list",
      requireAuth: options.require_auth,
      name: `list_${view.plural}`,
      operationId: operationId(view, `list_${view.plural}`),      method: "GET",
      path: "",
      statusCode: 200,
      summary: options.summary ?? `List ${view.labelPlural} by ${view.pk}, one page at a time.`,
      responseModel: `Page[${shape.read.name}]`,
      params: [limit, cursor],
      dependencies: [sessionParam(view)],
      context: {
        module: { ...routesModuleContext(view), read_options: hasLoaders ? shape.loaders : undefined },
        paginate: wrapCall(
          `${view.plural}, next_cursor = await paginate`,
          ["session", `select(${view.modelClass})${hasLoaders ? ".options(*_READ_OPTIONS)" : ""}`, `${view.modelClass}.${view.pk}`, "limit=limit", "cursor=cursor"],
          "",
          "    ",
        ),
        page: wrapCall(
          "return Page",
          [`items=[${shape.serializer.name}(${view.name}) for ${view.name} in ${view.plural}]`, "next_cursor=next_cursor"],
          "",
          "    ",
        ),
      },
      imports,
    });
    return [...outputs, handler, ...crudTests(ctx, options, handler)];
  }
}
