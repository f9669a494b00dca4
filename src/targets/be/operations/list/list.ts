// `list`: GET {prefix} → 200 with one bounded page (`limit`, opaque `cursor`), keyset-ordered
// by primary key. Every nested relationship is loaded with the page's rows, so the number
// of SQL statements does not grow with the page size.

import { type BuildContext, ImportCollector, operation } from "../../../../codegen/index.js";
import { ListOptions, type ProjectConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import { RouteHandler, RouteParam } from "../../modules/handler.js";
import { sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";

@operation("list", { scope: "operation", dispatchOn: "type" })
export class List {
  static Options = ListOptions;

  build(ctx: BuildContext<ProjectConfig>, options: ListOptions): unknown[] {
    const { view, routes, read } = resourceFiles(ctx);
    const shape = read.use();
    const limit = new RouteParam({
      name: "limit",
      annotation: `Annotated[int, Query(ge=1, le=${options.max_limit})]`,
      default: String(options.default_limit),
      imports: new ImportCollector().addFrom("typing", "Annotated").addFrom("fastapi", "Query"),
    });
    const cursor = new RouteParam({ name: "cursor", annotation: "str | None", default: "None" });
    const imports = new ImportCollector()
      .addFrom("sqlalchemy", "select")
      .addFrom(view.model.module, view.model.importName)
      .addFrom(shape.schema.module.dotted, shape.schema.name)
      .addFrom(shape.serializer.module.dotted, shape.serializer.name)
      .addFrom(`${view.runtimePackage}.pagination`, "Page", "paginate");
    const name = `list_${view.plural}`;
    // Rows of the page: a plural that names the row variable too would shadow it.
    const rows = view.plural === view.variable ? `${view.plural}_page` : view.plural;
    const readOptions = routes.readOptions(shape);
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "GET",
      path: "",
      statusCode: 200,
      summary: options.summary ?? `List ${view.labelPlural} by ${view.pk}, one page at a time.`,
      responseModel: `Page[${shape.schema.name}]`,
      params: [limit, cursor],
      session: sessionParam(view),
      body: {
        template: "operations/list/list.py.njk",
        context: {
          rows,
          row: view.variable,
          statement: `select(${view.model.local})${readOptions ? `.options(*${readOptions.name})` : ""}`,
          key: `${view.model.local}.${view.pk}`,
          serializer: shape.serializer,
        },
      },
      imports,
    });
    return [routes.add(handler)];
  }
}
