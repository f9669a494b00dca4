// `get`: GET {prefix}/{pk} → 200 with the read schema, or 404.

import { type BuildContext, ImportCollector, operation } from "../../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";
import { getTests } from "./tests.js";
import { RowActions, listsActions } from "../permissions/row-actions.js";
import { mayCheckRow } from "../authz/authz.js";

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
    // A guard or OPA may check the loaded row (operations/authz), and row actions ask about it: they take the ORM object.
    // Else the row is read as columns where its shape allows, as lists read theirs.
    const rows = mayCheckRow(ctx, options) || listsActions(view, shape) ? undefined : read.rows(shape);
    // Both ways give the same variables (the other way's undefined), so an override can test which it got.
    const body: Record<string, unknown> =
      rows === undefined
        ? { row: view.variable, serializer: shape.serializer, loader: routes.loader(shape), reader: undefined }
        : { row: view.variable, serializer: undefined, loader: undefined, reader: readerOf(routes.rowReader(shape, rows), () => handler) };
    const handler: RouteHandler = new RouteHandler({
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
      body: { template: "operations/get/get.py.njk", context: body },
      imports: rows === undefined ? shape.imports.copy() : new ImportCollector().addFrom(rows.schemaModule, rows.schema),
      asksWhoIsSignedIn: listsActions(view, shape),
    });
    if (listsActions(view, shape)) handler.listActions(RowActions.of(routes));
    return [routes.add(handler)];
  }
}

/** The row reader as the body template reads it: a bug, loudly, if authz gave the handler a check on the row after all. */
function readerOf(reader: { name: string }, handler: () => RouteHandler): { name: string } {
  return {
    get name(): string {
      if (handler().checksRow) throw new Error(`bug: ${handler().name} reads its row as columns, but authz checks the row, which needs the ORM object`);
      return reader.name;
    },
  };
}
