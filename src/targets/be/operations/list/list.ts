// `list`: GET {prefix} → 200 with one bounded page. The operation yields the entry's
// `ListHandler`, whose `ListQuery` its modifiers (filter, order, paginate, and those of
// other packages) amend; without modifiers a list pages by keyset in primary-key order.
// Every nested relationship is loaded with the page's rows, so the number of SQL
// statements does not grow with the page size.

import { type BuildContext, ImportCollector, operation } from "../../../../codegen/index.js";
import { cascaded } from "../../cascade.js";
import type { ProjectConfig } from "../../config/schema.js";
import { ListOptions } from "./options.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT } from "../../modules/handler.js";
import { sessionParam } from "../../modules/params.js";
import { SchemaClass } from "../../modules/schemas.js";
import { ListHandler } from "./list-handler.js";
import { RowActions, listsActions } from "../permissions/row-actions.js";
import { listTests } from "./tests.js";

@operation("list", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class List {
  static Options = ListOptions;

  /** The entry's modifiers amend the `ListHandler` it yields (modifier/context.ts). */
  static readonly yieldsListHandler = true;

  /** The generated tests of its route (tests.ts), decided once its modifiers have shaped the query. */
  static readonly tests = listTests;

  static route(): Route {
    return { kind: "read", path: "", hooks: ["serializer"] };
  }

  build(ctx: BuildContext<ProjectConfig>, options: ListOptions): unknown[] {
    const { view, routes, read, schemas } = resourceFiles(ctx);
    const handler = new ListHandler({
      routes,
      entry: options,
      route: List.route(),
      read: read.of(options),
      session: sessionParam(view),
      searchBodySize: cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size"),
    });
    if (view.config.search) handler.searchWith(view.config.search);
    if (listsActions(view, handler.read)) handler.listActions(RowActions.of(routes));
    // Row actions ask about each row's object; otherwise the page is read as columns where its shape allows.
    handler.readRows(handler.rowActions === undefined ? read.rows(handler.read) : undefined);
    const imports = new ImportCollector();
    schemas.add(
      new SchemaClass({
        module: schemas,
        name: handler.names.queryModel,
        doc: `The query parameters of \`\`GET ${view.routePrefix}\`\`; any other is an error.`,
        fields: () => handler.queryFields(imports),
        imports,
        forbidExtra: true,
      }),
    );
    return [routes.add(handler)];
  }
}
