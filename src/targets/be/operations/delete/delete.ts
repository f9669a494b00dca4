// `delete`: DELETE {prefix}/{pk} → 204, or 404. One DELETE statement, so the database's own
// foreign-key rules decide (cascade, set null, or restrict: a 409 naming the constraint);
// the ORM never loads the row's children to null or delete them itself.

import { type BuildContext, ImportCollector, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../../config/schema.js";
import { resourceFiles } from "../../modules/files.js";
import { HookCalls } from "../../modules/hooks.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import { operationId } from "../../resource.js";
import { deleteTests } from "./tests.js";

@operation("delete", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Delete {
  static Options = CrudOptions;

  static route(): Route {
    return { kind: "write", path: "/{pk}", hooks: ["post"] };
  }

  /** The generated tests of its route (tests.ts). */
  static readonly tests = deleteTests;

  /** The route answers no body and reads none: keys that shape a body would be silently dropped. */
  *validate(_ctx: BuildContext, options: CrudOptions): Iterable<ValidationIssue> {
    if (options.representation !== undefined) yield { path: ["representation"], message: "delete returns no body: representation has no effect here" };
    if (options.fields !== undefined) yield { path: ["fields"], message: "delete returns no body: fields has no effect here" };
  }

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const { view, routes } = resourceFiles(ctx);
    const hooks = new HookCalls(view, options);
    const name = `delete_${view.name}`;
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "DELETE",
      route: Delete.route(),
      statusCode: 204,
      summary: options.summary ?? `Delete one ${view.label}.`,
      params: [pkParam(view)],
      session: sessionParam(view),
      body: { template: "operations/delete/delete.py.njk", context: { row: view.variable, model: view.model.local, pk: view.pk, notFound: routes.notFound(), hooks } },
      imports: new ImportCollector().addFrom("sqlalchemy", "delete").addFrom(view.model.module, view.model.importName).update(hooks.imports),
      rowCheckImports: new ImportCollector().addFrom("sqlalchemy", "select"),
    });
    return [routes.add(handler)];
  }
}
