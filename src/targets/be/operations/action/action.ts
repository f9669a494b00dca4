// `action`: POST {prefix}/{pk}/{slug} (per instance) or POST {prefix}/{slug} (collection)
// calling the user's function by its dotted path. Calling convention: the instance first
// (instance actions), then the typed params as keywords, then `session=`, then
// `current_user=` with `pass_user` (which needs the route to require a user). With
// `convention: "kiln"`, kiln's: the instance first, then `db=`, `body=` (the `body` model)
// and the model class as `model_param`. Sync and async functions both work. The handler
// commits after the function returns. When every param has a default, the request body is
// optional.

import { type BuildContext, ImportCollector, Name, type ValidationIssue, isRecord, operation } from "../../../../codegen/index.js";
import { type OperationConfig, type ProjectConfig, type ScalarField } from "../../config/schema.js";
import { wasDefaulted } from "../../config/provenance.js";
import { paramsSchema } from "../../modules/bodies.js";
import { resourceFiles } from "../../modules/files.js";
import type { Route } from "../../modules/endpoint.js";
import { ENDPOINT, type ModuleStatement, RouteHandler, RouteParam } from "../../modules/handler.js";
import { pkParam, requestParam, sessionParam } from "../../modules/params.js";
import { pythonInt, pythonLiteral } from "../../python/literals.js";
import { cascaded } from "../../cascade.js";
import { perProject } from "../../per-project.js";
import { type ResourceView, modelRef, operationId } from "../../resource.js";
import { whyNoUser } from "../auth/decide.js";
import { ActionOptions } from "./options.js";
import { actionTests } from "./tests.js";

@operation("action", { scope: "operation", dispatchOn: "type", role: ENDPOINT })
export class Action {
  static Options = ActionOptions;

  /** POST `/{pk}/{slug}` on one row, or `/{slug}` on the collection. */
  static route(options: ActionOptions): Route {
    return { kind: "action", path: options.target === "instance" ? `/{pk}/${options.slug}` : `/${options.slug}` };
  }

  /** The generated tests of its route (tests.ts). */
  static readonly tests = actionTests;

  *validate(ctx: BuildContext<ProjectConfig>, options: ActionOptions): Iterable<ValidationIssue> {
    yield* slugClash(ctx, options);
    yield* conventionKeys(options, wasDefaulted(ctx.instance as object, "convention"));
    if (options.fn.startsWith("ingot.files.")) {
      // kiln's file actions live in its runtime package, which a codegen project does not depend on.
      yield { path: ["fn"], message: "kiln's ingot.files functions are not a codegen project's: write the resource's operations as resource.files() (docs/be.md#files-file_upload-file_complete-file_download-file_delete)" };
    }
    if (!options.pass_user) return;
    const reason = whyNoUser(ctx);
    if (reason !== undefined) {
      yield { path: ["pass_user"], message: `passes current_user to the function, but this endpoint is not authenticated: ${reason}` };
    }
  }

  build(ctx: BuildContext<ProjectConfig>, options: ActionOptions): unknown[] {
    const { view, routes, read, schemas } = resourceFiles(ctx);
    const instance = options.target === "instance";
    const shape = instance || options.response === "instance" ? read.use(options.representation) : undefined;
    const [fnModule, fnName] = Name.fromDotted(options.fn);
    const kiln = options.convention === "kiln";
    const params = options.params.length > 0 ? paramsSchema(schemas, view, options, options.params as ScalarField[]) : undefined;
    if (params) schemas.alsoHolds("the params of their actions");
    const imports = new ImportCollector().add(fnModule);
    const routeParams: RouteParam[] = instance ? [pkParam(view)] : [];
    if (params) {
      // Params that all have defaults make the body optional: no body (or `{}`) calls with the defaults.
      const optional = params.fields.every((field) => field.default !== undefined);
      const annotation = optional ? `Annotated[${params.name}, Body(default_factory=${params.name})]` : params.name;
      if (optional) imports.addFrom("typing", "Annotated").addFrom("fastapi", "Body");
      routeParams.push(new RouteParam({ name: "params", annotation }));
      imports.addFrom(params.module.dotted, params.name);
    }
    const body = options.body === undefined ? undefined : userModel(options.body, imports);
    if (body) routeParams.push(new RouteParam({ name: "body", annotation: body }));
    const signature = options.reads_signature ? kilnSignature(options, view) : undefined;
    if (signature) {
      const dependency = new ImportCollector().addFrom("typing", "Annotated", "Any").addFrom("fastapi", "Depends");
      routeParams.push(new RouteParam({ name: "body", annotation: `Annotated[Any, Depends(${signature.name}.body)]`, imports: dependency }));
    } else imports.addFrom(`${view.runtimePackage}.actions`, "call_action");
    routeParams.push(requestParam());
    let responseModel: string | undefined;
    if (signature) {
      // The decorator gives FastAPI the function's model (answerFrom).
      responseModel = "Any";
      imports.addFrom("typing", "Any");
    } else if (options.response === "instance") {
      responseModel = shape!.responseModel;
      imports.update(shape!.imports);
    } else if (options.response === "json") {
      responseModel = "Any";
      imports.addFrom("typing", "Any");
    } else if (options.response !== "none") {
      responseModel = userModel(options.response, imports);
    }
    if (options.model_param !== undefined) imports.addFrom(view.model.module, view.model.importName);
    const args = [
      ...(signature ? [] : [`${fnModule}.${fnName.raw}`]),
      ...(instance ? [view.variable] : []),
      ...options.params.map((param) => `${param.name}=params.${params!.attributeOf(param.name)}`),
      kiln ? "db=session" : "session=session",
      ...(body || signature ? ["body=body"] : []),
      ...(options.model_param !== undefined ? [`${options.model_param}=${view.model.local}`] : []),
      ...(options.pass_user ? ["current_user=current_user"] : []),
    ];
    const returnsResult = options.response !== "instance" && options.response !== "none";
    const name = new Name(options.name).snake;
    const handler = new RouteHandler({
      module: routes,
      entry: options,
      name,
      operationId: operationId(view, actionSharedByResources(ctx.config, name) ? `${name}_${view.name}` : name),
      method: "POST",
      route: Action.route(options),
      statusCode: options.status_code,
      answerFrom: signature?.name,
      constant: signature,
      summary: options.summary ?? `Run \`\`${options.fn}\`\`${instance ? ` on one ${view.label}` : ""}${returnsResult ? "; answer with its result" : ""}.`,
      responseModel,
      representation: options.response === "instance" ? shape : undefined,
      params: routeParams,
      session: sessionParam(view),
      maxBodySize: params || body || signature ? cascaded(ctx.store, ctx.instanceId, ctx.config, "max_body_size") : undefined,
      idempotent: true,
      body: {
        template: "operations/action/action.py.njk",
        context: {
          instance,
          row: view.variable,
          response: options.response,
          call: `${returnsResult ? "result = " : ""}await ${signature ? `${signature.name}.call` : "call_action"}(${args.join(", ")})`,
          loader: shape ? routes.loader(shape) : undefined,
          serializer: options.response === "instance" ? shape?.serializer : undefined,
          status: signature ? `${signature.name}.status_code` : options.status_code,
          expiry: pythonInt(ctx.config.idempotency_expiry),
        },
      },
      imports,
    });
    return [routes.add(handler)];
  }
}

/**
 * `_<NAME>_SIGNATURE = KilnSignature(fn, Model, instance=…)`: what kiln reads off the function's
 * annotations (its body, its answer, what it takes), read when the routes module is imported,
 * since codegen does not import your code (runtime/actions.py).
 */
function kilnSignature(options: ActionOptions, view: ResourceView): ModuleStatement {
  const [fnModule, fnName] = Name.fromDotted(options.fn);
  return {
    name: `_${new Name(options.name).snake.toUpperCase()}_SIGNATURE`,
    comment: `What kiln reads off ${fnName.raw}'s annotations, read as this module is imported.`,
    value: `KilnSignature(${options.fn}, ${view.model.local}, instance=${pythonLiteral(options.target === "instance")})`,
    imports: new ImportCollector().addFrom(`${view.runtimePackage}.actions`, "KilnSignature").addFrom(view.model.module, view.model.importName).add(fnModule),
  };
}

/** The user's Pydantic model at `dotted`, spelled with its module, which goes into `imports`. */
function userModel(dotted: string, imports: ImportCollector): string {
  // Spelled with its module: a user's class may share a name with a model or a generated import.
  const model = modelRef(dotted);
  imports.add(model.module);
  return `${model.module}.${model.name}`;
}

/** Issues for keys of one convention on an action of the other: kiln's function takes one body model, codegen's its params by name. */
function* conventionKeys(options: ActionOptions, kilnsByFormat: boolean): Iterable<ValidationIssue> {
  if (options.convention === "kiln") {
    const why = kilnsByFormat ? ' (the app is written in kiln\'s format, version: "1"; convention: "codegen" passes params by name)' : "";
    if (options.params.length > 0) yield { path: ["params"], message: `kiln's convention passes the request body as one model: name it in body, not params${why}` };
    return;
  }
  for (const key of ["body", "model_param"] as const) {
    if (options[key] !== undefined) yield { path: [key], message: `only with convention: "kiln" (kiln's fn(instance, db=..., body=...)); codegen's convention passes params by name` };
  }
}

/**
 * An issue when an earlier action entry of the same resource has this entry's slug: both
 * would answer at one URL segment. Reported once, at the later entry: at its `slug` when it
 * wrote one, else at its name, the slug's source.
 */
function* slugClash(ctx: BuildContext, options: ActionOptions): Iterable<ValidationIssue> {
  const resourceId = ctx.store.ancestorIdOf(ctx.instanceId, "resource")!;
  for (const [index, [id, entry]] of ctx.store.children(resourceId, { childScope: "operation" }).entries()) {
    if (id === ctx.instanceId) return;
    const earlier = ctx.store.operationsAt(id).find(({ cls }) => cls === Action);
    if ((earlier?.options as ActionOptions | undefined)?.slug !== options.slug) continue;
    const written = ctx.instance as OperationConfig;
    const path = typeof written.slug === "string" ? ["slug"] : wasDefaulted(written, "name") ? [] : ["name"];
    yield { path, message: `action slug "${options.slug}" collides with operations[${index}] ("${(entry as OperationConfig).name}"); rename one or set its slug` };
    return;
  }
}

/**
 * Whether resources of the project besides one have an action called `name` (snake case):
 * OpenAPI operation ids are unique across the project, so each of theirs then names its
 * resource (`ping_product`, `ping_order`).
 */
function actionSharedByResources(project: ProjectConfig, name: string): boolean {
  return (resourcesPerActionName(project).get(name) ?? 0) > 1;
}

/** How many resources have an action of each name (snake case), counted once per project: every action asks. */
const resourcesPerActionName = perProject((project): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>();
  for (const app of project.apps) {
    for (const resource of app.config.resources) {
      const operations: readonly unknown[] = resource.operations;
      const names = new Set(operations.filter(isAction).map((entry) => new Name(entry.name).snake));
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
});

function isAction(entry: unknown): entry is { name: string } {
  return isRecord(entry) && entry.type === "action" && typeof entry.name === "string";
}
