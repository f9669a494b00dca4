// A FastAPI path operation of a resource's routes module, and its parameters. Endpoint
// operations (get, list, create, update, delete, action) build one each and add it to the
// routes module; the handler is also their typed handle: later operations of the same
// entry find it in the store and amend it through its methods (`auth` calls `requireUser`).
// Subclasses (the list's `ListHandler`) derive their parameters and body at render time.

import { Handle, ImportCollector, type RenderCtx, renderTemplate } from "../../../codegen/index.js";
import type { ActionOptions, CrudOptions, ListOptions } from "../config/schema.js";
import { docstringText, pythonString } from "../python/literals.js";
import type { ReadSchema } from "./read-shape.js";
import type { RoutesModule } from "./routes.js";

/** A parameter of a route handler: path, query, body or dependency. */
export class RouteParam {
  readonly name: string;
  /** Full Python annotation, e.g. `uuid.UUID` or `Annotated[int, Query(ge=1, le=100)]`. */
  readonly annotation: string;
  /** Python default expression, if any. */
  readonly default: string | undefined;
  readonly imports: ImportCollector;

  constructor(options: { name: string; annotation: string; default?: string; imports?: ImportCollector }) {
    this.name = options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.imports = options.imports ?? new ImportCollector();
  }

  /** `name: annotation[ = default]`. */
  get declaration(): string {
    return this.default === undefined ? `${this.name}: ${this.annotation}` : `${this.name}: ${this.annotation} = ${this.default}`;
  }
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

const STATUS_NAMES: Record<number, string> = { 201: "HTTP_201_CREATED", 202: "HTTP_202_ACCEPTED", 204: "HTTP_204_NO_CONTENT" };

/** A route-level dependency that limits the rate of requests: its name, its OpenAPI responses, and their imports. */
export interface RouteLimiter {
  name: string;
  /** Python expression of the `responses` the limit adds (the 429). */
  responses: string;
  imports: ImportCollector;
}

/** A decorator running the handler inside a telemetry span, and its imports. */
export interface HandlerSpan {
  decorator: string;
  imports: ImportCollector;
}

/** The body of a handler: a template beside the operation that made it, and that template's values. */
export interface HandlerBody {
  /** Template name under the target's directory, e.g. `operations/get/get.py.njk`. */
  template: string;
  context: Record<string, unknown>;
}

/** The parsed options of the operation entry a handler serves. */
export type EndpointEntry = CrudOptions | ListOptions | ActionOptions;

/** Python code a handler puts into its routes module, and what that code imports. */
export interface CodeBlock {
  code: string;
  imports: ImportCollector;
}

/** One path operation. */
export class RouteHandler extends Handle {
  readonly module: RoutesModule;
  /** The entry it serves, its options parsed by its operation (for later operations of the entry, such as `tests`). */
  readonly entry: EndpointEntry;
  /** Function name, e.g. `get_article`. */
  readonly name: string;
  /** OpenAPI operation id, e.g. `getArticle`. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path below the resource's router prefix, e.g. `/{pk}` or `/{pk}/publish-article`. */
  readonly path: string;
  readonly statusCode: number;
  /** `session: SessionDep`. */
  readonly session: RouteParam;
  /** The representation the route answers with, if it answers with a row. */
  readonly representation: ReadSchema | undefined;
  readonly #summary: string;
  readonly #responseModel: string | undefined;
  readonly #params: readonly RouteParam[];
  readonly #body: HandlerBody | undefined;
  readonly #imports: ImportCollector;
  #user: RouteParam | undefined;
  #rateLimit: RouteLimiter | undefined;
  #span: HandlerSpan | undefined;

  constructor(options: {
    module: RoutesModule;
    entry: EndpointEntry;
    name: string;
    operationId: string;
    method: HttpMethod;
    path: string;
    statusCode: number;
    summary: string;
    responseModel?: string;
    representation?: ReadSchema;
    params?: readonly RouteParam[];
    session: RouteParam;
    body?: HandlerBody;
    imports?: ImportCollector;
  }) {
    super();
    this.module = options.module;
    this.entry = options.entry;
    this.name = options.name;
    this.operationId = options.operationId;
    this.method = options.method;
    this.path = options.path;
    this.statusCode = options.statusCode;
    this.#summary = options.summary;
    this.#responseModel = options.responseModel;
    this.#params = options.params ?? [];
    this.session = options.session;
    this.representation = options.representation;
    this.#body = options.body;
    this.#imports = options.imports ?? new ImportCollector();
  }

  /** Docstring (and OpenAPI summary) text, as written or derived. */
  get summary(): string {
    return this.#summary;
  }

  /** Python annotation of the response, or undefined for handlers that answer without a body. */
  get responseModel(): string | undefined {
    return this.#responseModel;
  }

  /** Path, query and body parameters, in signature order. */
  get params(): readonly RouteParam[] {
    return this.#params;
  }

  /** The body's template and values. */
  get body(): HandlerBody {
    if (this.#body === undefined) throw new Error(`bug: ${this.name} has no body`);
    return this.#body;
  }

  /** What the body imports (parameters' imports come on top). */
  get imports(): ImportCollector {
    return this.#imports;
  }

  /** A custom action rather than one of the CRUD routes. */
  get action(): boolean {
    return this.entry.type === "action";
  }

  /** Augmentation point of the `auth` operation: the handler takes the authenticated user. */
  requireUser(user: RouteParam): void {
    if (this.#user !== undefined) throw new Error(`bug: ${this.name} already requires a user`);
    this.#user = user;
  }

  /** The `current_user` dependency, once `auth` decided the route needs one. */
  get user(): RouteParam | undefined {
    return this.#user;
  }

  /** Augmentation point of the `rate_limit` operation: the route runs `limiter` before its handler, and documents its 429. */
  limitRate(limiter: RouteLimiter): void {
    if (this.#rateLimit !== undefined) throw new Error(`bug: ${this.name} already has a rate limit`);
    this.#rateLimit = limiter;
  }

  /** Augmentation point of the `telemetry` operation: the handler runs inside a span. */
  traceAs(span: HandlerSpan): void {
    if (this.#span !== undefined) throw new Error(`bug: ${this.name} is already traced`);
    this.#span = span;
  }

  /** Dependencies after the parameters: the session, then the user. */
  get dependencies(): RouteParam[] {
    return this.#user === undefined ? [this.session] : [this.session, this.#user];
  }

  /** `@router.get("/{pk}", operation_id="getArticle")`. */
  get decorator(): string {
    const args = [pythonString(this.path)];
    if (this.statusCode !== 200) {
      const name = STATUS_NAMES[this.statusCode];
      args.push(`status_code=${name ? `status.${name}` : this.statusCode}`);
    }
    args.push(`operation_id=${pythonString(this.operationId)}`);
    if (this.#rateLimit) args.push(`dependencies=[Depends(${this.#rateLimit.name})]`, `responses=${this.#rateLimit.responses}`);
    const route = `@router.${this.method.toLowerCase()}(${args.join(", ")})`;
    // Below the route decorator: FastAPI registers the traced function, which keeps the signature.
    return this.#span ? `${route}\n${this.#span.decorator}` : route;
  }

  /** `async def name(...) -> Response:`; parameters with defaults after those without, as Python requires. */
  get signature(): string {
    const all = [...this.params, ...this.dependencies];
    const ordered = [...all.filter((param) => param.default === undefined), ...all.filter((param) => param.default !== undefined)];
    return `async def ${this.name}(${ordered.map((param) => param.declaration).join(", ")}) -> ${this.responseModel ?? "None"}:`;
  }

  /** Everything the handler's code imports. */
  get allImports(): ImportCollector {
    const imports = new ImportCollector().update(this.imports);
    for (const param of [...this.params, ...this.dependencies]) imports.update(param.imports);
    if (this.statusCode !== 200) imports.addFrom("fastapi", "status");
    if (this.#rateLimit) imports.addFrom("fastapi", "Depends").update(this.#rateLimit.imports);
    if (this.#span) imports.update(this.#span.imports);
    return imports;
  }

  /** The handler's code in its routes module: the decorated function. */
  blocks(ctx: RenderCtx): CodeBlock[] {
    const body = renderTemplate(ctx.env, this.body.template, { ...this.body.context, handler: this }).replace(/\s+$/, "");
    return [{ code: renderFunction(ctx, { decorator: this.decorator, signature: this.signature, doc: this.summary, body }), imports: this.allImports }];
  }
}

/** A Python function from its parts; `decorator` may be empty (a module helper). */
export function renderFunction(ctx: RenderCtx, parts: { decorator: string; signature: string; doc: string; body: string }): string {
  return renderTemplate(ctx.env, "modules/handler.py.njk", { ...parts, doc: docstringText(parts.doc, "    ") }).replace(/\s+$/, "");
}
