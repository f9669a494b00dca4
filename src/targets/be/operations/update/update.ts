// `update`: PATCH {prefix}/{pk} → 200 with the object, or 404. Partial: only the fields
// present in the body change; a non-nullable field sent as null is a 422. The answer is read
// (by the row's key after the change, which may rename it) before the commit.

import { type BuildContext, ImportCollector, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { CrudOptions, type ProjectConfig } from "../../config/schema.js";
import { bodyFieldIssues, bodyWrites, updateSchema, writeFields } from "../../modules/bodies.js";
import { resourceFiles } from "../../modules/files.js";
import { HookCalls } from "../../modules/hooks.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, type ModuleStatement, RouteHandler, RouteParam } from "../../modules/handler.js";
import { pkParam, sessionParam } from "../../modules/params.js";
import type { RowSerializerFn } from "../../modules/row-serializer.js";
import { cascaded } from "../../cascade.js";
import { type ResourceView, operationId } from "../../resource.js";
import { updateTests } from "./tests.js";

@operation("update", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Update {
  static Options = CrudOptions;

  static route(): Route {
    return { kind: "write", path: "/{pk}", hooks: ["pre", "post", "serializer"] };
  }

  /** The generated tests of its route (tests.ts). */
  static readonly tests = updateTests;

  /** Its own `fields` are the request body's: scalar fields, and links with `many` (docs/be.md, Many-to-many writes). */
  validate(_ctx: BuildContext, options: CrudOptions): Iterable<ValidationIssue> {
    return bodyFieldIssues(options.fields);
  }

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const { view, routes, read, schemas } = resourceFiles(ctx);
    const shape = read.of(options);
    const fields = writeFields(view, options.fields);
    const body = updateSchema(schemas, view, fields);
    const hooks = new HookCalls(view, options);
    // Unless a post hook takes the changed row as an object, the answer is read as columns.
    const rows = hooks.post === undefined ? read.rows(shape) : undefined;
    const answer = rows === undefined ? shape.imports : new ImportCollector().addFrom(rows.schemaModule, rows.schema);
    const { imports, relations, dump, files } = bodyWrites(view, body, fields, answer, hooks.imports);
    if (relations.length > 0) imports.addFrom("pydantic", "MISSING");
    // A pre hook or a relation reads the row before it changes; without either (or a check of the row) the update is one statement.
    const loadsRow = hooks.pre !== undefined || relations.length > 0;
    const name = `update_${view.name}`;
    // A shape of the row's own columns alone: the one UPDATE returns the answer too.
    const returning = !loadsRow && rows !== undefined && shape.loaders.length === 0 ? rows : undefined;
    const statement = oneUpdate(view, name, returning);
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "PATCH",
      route: Update.route(),
      statusCode: 200,
      summary: options.summary ?? "Change the fields sent in the body; the others keep their values.",
      responseModel: shape.responseModel,
      representation: shape,
      params: [pkParam(view), new RouteParam({ name: "body", annotation: body.name })],
      session: sessionParam(view),
      maxBodySize: cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size"),
      body: {
        template: "operations/update/update.py.njk",
        context: {
          row: view.variable,
          model: view.model.local,
          pk: view.pk,
          reader: rows === undefined ? undefined : routes.rowReader(shape, rows),
          serializer: rows === undefined ? shape.serializer : undefined,
          loader: rows === undefined ? routes.loader(shape) : undefined,
          notFound: routes.notFound(),
          hooks,
          relations,
          dump,
          loadsRow,
          statement: statement.name,
          from_row: returning?.name,
        },
      },
      imports,
      directStatement: loadsRow ? undefined : statement,
      directImports: returning === undefined ? undefined : new ImportCollector().addFrom(returning.module.dotted, returning.name),
    });
    return [routes.add(handler), ...files];
  }
}

/**
 * `_UPDATE_<NAME>`: the one `UPDATE … RETURNING` of a row nothing reads first, the body's changes and the key `_pk` its
 * parameters; it returns the key, or given `rows` (a shape of the row's own columns) their columns.
 */
function oneUpdate(view: ResourceView, handler: string, rows: RowSerializerFn | undefined): ModuleStatement {
  const model = view.model.local;
  const imports = new ImportCollector().addFrom("sqlalchemy", "bindparam", "update").addFrom(view.model.module, view.model.importName);
  if (rows !== undefined) imports.addFrom(rows.module.dotted, rows.statement);
  const returning = rows === undefined ? `${model}.${view.pk}` : rows.returning;
  return {
    name: `_${handler.toUpperCase()}`,
    comment: "Built once, the changes its parameters: compiled once per set of fields sent.",
    value: `update(${model}).where(${model}.${view.pk} == bindparam("_pk")).returning(${returning}).execution_options(synchronize_session=False)`,
    imports,
  };
}
