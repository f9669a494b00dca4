// `action`: POST {prefix}/{pk}/{slug} (per instance) or POST {prefix}/{slug} (collection)
// calling the user's function by its dotted path. Calling convention: the instance first
// (instance actions), then the typed params as keywords, then `session=`, then
// `current_user=` with `pass_user` (the `auth` augmenter adds that dependency). Sync and
// async functions both work. The handler commits after the function returns.

import { type BuildContext, ImportCollector, Name, operation } from "../../../codegen/index.js";
import { ActionOptions, type ProjectConfig, type ScalarField } from "../config/schema.js";
import { type ResourceView, operationId, resourceView } from "../resource.js";
import { loaderContext, loaderImports, pkParam, routesModuleContext, sessionParam } from "./handlers.js";
import { readShapeOutputs } from "./read-outputs.js";
import { actionTests } from "../testing/cases.js";
import { RouteHandler, RouteParam, SchemaClass } from "./types.js";
import { bodyField } from "./write-schema.js";
import { wrapCall } from "../python/wrap.js";

@operation("action", { scope: "operation", dispatchOn: "type" })
export class Action {
  static Options = ActionOptions;

  build(ctx: BuildContext<ProjectConfig>, options: ActionOptions): unknown[] {
    const view = resourceView(ctx);
    const instance = options.target === "instance";
    const returnsInstance = options.response === "instance";
    const read = returnsInstance || instance ? readShapeOutputs(ctx, view) : undefined;
    const shape = read?.shape;
    const [fnModule, fnName] = Name.fromDotted(options.fn);
    const params = paramsSchema(view, options);
    const imports = new ImportCollector().addFrom(`${view.runtimePackage}.actions`, "call_action").add(fnModule);
    const routeParams: RouteParam[] = instance ? [pkParam(view)] : [];
    if (params) {
      routeParams.push(new RouteParam({ name: "params", annotation: params.name }));
      imports.addFrom(params.module, params.name);
    }
    let module: Record<string, unknown> = routesModuleContext(view);
    if (instance && shape) {
      module = { ...module, ...loaderContext(view, shape) };
      imports.update(loaderImports(view, shape));
    }
    if (returnsInstance && shape) imports.addFrom(shape.read.module, shape.read.name).addFrom(shape.serializer.module, shape.serializer.name);
    let responseModel: string | undefined;
    if (options.response === "instance") responseModel = shape!.read.name;
    else if (options.response === "json") {
      responseModel = "Any";
      imports.addFrom("typing", "Any");
    }
    if (options.status_code !== 200) imports.addFrom("fastapi", "status");
    const handler = new RouteHandler({
      file: view.routesFile,
      kind: "action",
      requireAuth: options.require_auth,
      passUser: options.pass_user,
      name: new Name(options.name).snake,
      operationId: operationId(view, new Name(options.name).snake),      method: "POST",
      path: instance ? `/{pk}/${options.slug}` : `/${options.slug}`,
      statusCode: options.status_code,
      summary: options.summary ?? `Run \`\`${options.fn}\`\`${instance ? ` on one ${view.label}` : ""}${options.response === "json" ? "; answer with its result" : ""}.`,
      responseModel,
      params: routeParams,
      dependencies: [sessionParam(view)],
      context: {
        module,
        instance,
        response: options.response,
        call: actionCall(view, options, `${fnModule}.${fnName.raw}`),
        variable: view.name,
        serializer: shape?.serializer.name,
        loader: `_load_${view.name}`,
      },
      imports,
    });
    return [...(read?.outputs ?? []), ...(params ? [params] : []), handler, ...actionTests(ctx, options, handler)];
  }
}

/** `await call_action(fn, instance, param=params.param, session=session[, current_user=current_user])`, laid out to fit. */
function actionCall(view: ResourceView, options: ActionOptions, fn: string): string {
  const args = [
    fn,
    ...(options.target === "instance" ? [view.name] : []),
    ...options.params.map((param) => `${param.name}=params.${param.name}`),
    "session=session",
    ...(options.pass_user ? ["current_user=current_user"] : []),
  ];
  return wrapCall(`${options.response === "json" ? "result = " : ""}await call_action`, args, "", "    ");
}

/** `{Action}Params`, the typed body of an action, or undefined when it takes no params. */
function paramsSchema(view: ResourceView, options: ActionOptions): SchemaClass | undefined {
  if (options.params.length === 0) return undefined;
  const imports = new ImportCollector().addFrom("pydantic", "BaseModel");
  const fields = options.params.map((param) => bodyField(param as ScalarField, imports));
  if (fields.some((field) => field.description)) imports.addFrom("pydantic", "Field");
  return new SchemaClass({
    file: view.schemaFile,
    module: view.schemaModule,
    name: `${new Name(options.name).pascal}Params`,
    doc: `Params of the \`\`${options.slug}\`\` action.`,
    fields,
    imports,
  });
}
