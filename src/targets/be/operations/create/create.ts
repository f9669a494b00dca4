// `create`: POST {prefix} → 201 with the created object, and a `Location` header when the
// resource also has a `get` route to point at. The answer is built before the commit, so
// nothing can fail once the row is committed; 409 on a constraint, 413 on a large body.

import { type BuildContext, ImportCollector, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { CrudOptions, type ProjectConfig, withArticle } from "../../config/schema.js";
import { bodyFieldIssues, bodyWrites, createSchema, writeFields } from "../../modules/bodies.js";
import { resourceFiles } from "../../modules/files.js";
import { HookCalls } from "../../modules/hooks.js";
import { type Route, readsRowAtItsUrl } from "../../modules/endpoint.js";
import { ENDPOINT, type ModuleStatement, RouteHandler, RouteParam } from "../../modules/handler.js";
import { requestParam, sessionParam } from "../../modules/params.js";
import { pythonInt } from "../../python/literals.js";
import { cascaded } from "../../cascade.js";
import { operationId } from "../../resource.js";
import { createTests } from "./tests.js";

@operation("create", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Create {
  static Options = CrudOptions;

  static route(): Route {
    return { kind: "write", path: "", hooks: ["pre", "post", "serializer"], creates: true };
  }

  /** The generated tests of its route (tests.ts). */
  static readonly tests = createTests;

  /** Its own `fields` are the request body's: scalar fields, and links with `many` (docs/be.md, Many-to-many writes). */
  validate(_ctx: BuildContext, options: CrudOptions): Iterable<ValidationIssue> {
    return bodyFieldIssues(options.fields);
  }

  build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
    const { view, routes, read, schemas } = resourceFiles(ctx);
    const shape = read.of(options);
    const fields = writeFields(view, options.fields);
    const body = createSchema(schemas, view, fields);
    // Built from the request's own URL, not a route name: two apps may both have a `get_<name>`.
    const located = readsRowAtItsUrl(ctx.store, view.id);
    const params = [new RouteParam({ name: "body", annotation: body.name })];
    const hooks = new HookCalls(view, options);
    const { imports, relations, dump, files } = bodyWrites(view, body, fields, hooks.imports);
    // No code of the user's takes the new row as an object (a hook), and the ORM writes no related rows:
    // one INSERT … RETURNING, and the answer read as columns.
    const rows = relations.length === 0 && hooks.pre === undefined && hooks.post === undefined ? read.rows(shape) : undefined;
    const name = `create_${view.name}`;
    let insert: { statement: string; from_row?: string; reader?: string } | undefined;
    let statement: ModuleStatement | undefined;
    if (rows === undefined) {
      imports.update(shape.imports);
    } else {
      imports.addFrom(rows.schemaModule, rows.schema);
      const model = view.model.local;
      const statementImports = new ImportCollector().addFrom("sqlalchemy", "insert").addFrom(view.model.module, view.model.importName);
      let returning = `${model}.${view.pk}`;
      insert = { statement: `_${name.toUpperCase()}` };
      if (shape.loaders.length === 0) {
        // Only the row's own columns: the INSERT returns them all, the key last.
        statementImports.addFrom(rows.module.dotted, rows.statement);
        imports.addFrom(rows.module.dotted, rows.name);
        returning = `${rows.returning}, ${returning}`;
        insert.from_row = rows.name;
      } else {
        insert.reader = routes.rowReader(shape, rows).name;
      }
      statement = {
        name: insert.statement,
        comment: "Built once, the body its parameters: compiled once, run with Core's INSERT semantics.",
        value: `insert(${model}).returning(${returning}).execution_options(dml_strategy="raw")`,
        imports: statementImports,
      };
    }
    params.push(requestParam());
    if (located) {
      params.push(new RouteParam({ name: "response", annotation: "Response", imports: new ImportCollector().addFrom("fastapi", "Response") }));
      imports.addFrom(`${view.runtimePackage}.responses`, "location");
    }
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, name),
      method: "POST",
      route: Create.route(),
      statusCode: 201,
      summary: options.summary ?? (located ? `Create ${withArticle(view.label)}; the \`\`Location\`\` header gives its URL.` : `Create ${withArticle(view.label)}.`),
      responseModel: shape.responseModel,
      representation: shape,
      params,
      session: sessionParam(view),
      maxBodySize: cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size"),
      idempotent: true,
      body: {
        template: "operations/create/create.py.njk",
        context: {
          row: view.variable,
          model: view.model.local,
          pk: view.pk,
          insert,
          serializer: rows === undefined ? shape.serializer : undefined,
          // The INSERT returns every column (server defaults included): only related rows need a second read.
          loader: rows === undefined && shape.loaders.length > 0 ? routes.loader(shape) : undefined,
          located,
          relations,
          dump,
          expiry: pythonInt(ctx.config.idempotency_expiry),
          hooks,
        },
      },
      imports,
      directStatement: statement,
    });
    return [routes.add(handler), ...files];
  }
}
