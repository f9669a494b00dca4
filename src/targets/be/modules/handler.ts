// A FastAPI path operation of a resource's routes module, and its parameters. Endpoint
// operations (role `ENDPOINT`: get, list, create, update, delete, action, and a package's)
// build one each, saying what kind of route it is, and add it to the routes module; the
// handler is also their typed handle: the operations that attach to every endpoint run
// after them (`requiresRoles: [ENDPOINT]`), find it in the store and amend it through its
// methods (`auth` calls `decideUser`). A handler `auth` never saw cannot render.
// Subclasses (the list's `ListHandler`) derive their parameters and body at render time.

import { GenerationError, Handle, ImportCollector, type RenderCtx, renderTemplate } from "../../../codegen/index.js";
import { docstringText, pythonInt, pythonString } from "../python/literals.js";
import type { ResourceView } from "../resource.js";
import type { Route } from "./endpoint.js";
import type { ReadSchema } from "./read-shape.js";
import type { RoutesModule } from "./routes.js";

/**
 * The role of an operation that serves a route (`@operation(name, { role: ENDPOINT, … })`):
 * auth, authorization, rate limits, telemetry and generated tests run after every such
 * operation of an entry (`requiresRoles: [ENDPOINT]`), a package's too, and amend its handler.
 */
export const ENDPOINT = "endpoint";

/**
 * What a route does, as the operation that builds it declares it: `read` answers rows and
 * changes nothing, `write` stores or deletes rows, `action` runs the user's function.
 */
export type RouteKind = "read" | "write" | "action";

/** What a route addresses: one existing `row`, found by the key in its path, or the `collection`. */
export type RouteTarget = "row" | "collection";

/**
 * What the route at `path` (below the resource's prefix) addresses: a row when the path holds its key.
 * @example targetOf("/{pk}/publish-article") // "row"
 */
export function targetOf(path: string): RouteTarget {
  return path.includes("{pk}") ? "row" : "collection";
}

/**
 * The error statuses a route answers because of what it is: a key no row has (404) on a
 * route that addresses a row, a constraint the write violates (409) on a route that writes
 * or runs the user's function (which may write), whoever built the route.
 */
function impliedErrors(kind: RouteKind, target: RouteTarget): ErrorStatus[] {
  return [...(target === "row" ? [404 as const] : []), ...(kind === "read" ? [] : [409 as const])];
}

/** A parameter of a route handler: path, query, body or dependency. */
export class RouteParam {
  readonly name: string;
  /** Full Python annotation, e.g. `uuid.UUID` or `Annotated[int, Query(ge=1, le=100)]`. */
  readonly annotation: string;
  /** Python default expression, if any. */
  readonly default: string | undefined;
  readonly imports: ImportCollector;
  /** Starlette's path converter of a path parameter, e.g. `path` for a text key that may hold `/`. */
  readonly converter: string | undefined;

  constructor(options: { name: string; annotation: string; default?: string; imports?: ImportCollector; converter?: string }) {
    this.name = options.name;
    this.annotation = options.annotation;
    this.default = options.default;
    this.imports = options.imports ?? new ImportCollector();
    this.converter = options.converter;
  }

  /** `name: annotation[ = default]`. */
  get declaration(): string {
    return this.default === undefined ? `${this.name}: ${this.annotation}` : `${this.name}: ${this.annotation} = ${this.default}`;
  }
}

/** `params` without repeats: the first of each name, in order (a dependency two checks need is taken once). */
export function distinctParams(params: readonly RouteParam[]): RouteParam[] {
  const names = new Set<string>();
  return params.filter((param) => !names.has(param.name) && names.add(param.name));
}

/**
 * `session: ReadSessionDep`: the session of a route that only reads, in autocommit (no
 * `BEGIN` and `ROLLBACK` around its statements) and from a replica of its database while
 * one keeps up (runtime/replicas.py). A `RouteHandler` gives it to every `read` route
 * (here, so no read route can miss it).
 */
function readSessionParam(view: ResourceView): RouteParam {
  return new RouteParam({ name: "session", annotation: "ReadSessionDep", imports: new ImportCollector().addFrom(view.sessionModule, "ReadSessionDep") });
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * Error statuses a route may document (beyond FastAPI's own 422 for invalid input): 400 a
 * body that is not text, 401 no credentials, 403 not allowed, 404 no such row, 409 a constraint, 413 a body over the
 * limit, 429 rate limited, 503 database busy or down. See `runtime/responses.py`.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

const STATUS_NAMES: Record<number, string> = { 201: "HTTP_201_CREATED", 202: "HTTP_202_ACCEPTED", 204: "HTTP_204_NO_CONTENT" };

/** A route-level dependency that limits the rate of requests (its 429 is documented through `answers`): its name and imports. */
export interface RouteLimiter {
  name: string;
  imports: ImportCollector;
}

/** A decorator running the handler inside a telemetry span, and its imports. */
export interface HandlerSpan {
  decorator: string;
  imports: ImportCollector;
}

/**
 * The body of a handler: a template beside the operation that made it, and that template's
 * values; or, for a package's operation (whose templates are not in the target's directory),
 * its Python lines as they are (indented, user text already escaped), or a function making
 * them when the module renders, once the augmenters decided the handler (its user, for the
 * keywords of a hook call).
 */
export type HandlerBody = { template: string; context: Record<string, unknown> } | { code: string | ((handler: RouteHandler) => string) };

/** The parsed options of the operation entry a handler serves, whichever operation parsed them: its name and type at least. */
export type EndpointEntry = { name: string; type: string; summary?: string };

/** Python code a handler puts into its routes module, and what that code imports. */
export interface CodeBlock {
  code: string;
  imports: ImportCollector;
}

/** A statement built once when the module is imported, written just above the handler that runs it. */
export interface ModuleStatement {
  /** The constant's name, e.g. `_CREATE_ARTICLE`. */
  name: string;
  /** Why it is built once, a comment line above it. */
  comment: string;
  /** The Python expression. */
  value: string;
  imports: ImportCollector;
}

/**
 * One check of a handler that needs no row, in its two forms: `require`, the lines (indented)
 * that answer 403 when it fails, which open the handler's body; `allows`, an expression true
 * when it passes, which the permissions routes ask instead of calling the route.
 * @example { require: '    await require_groups(current_user, "admin")', allows: 'await in_groups(current_user, "admin")' }
 */
export interface AuthzCheck {
  require: string;
  allows: string;
  /** What `allows` imports beyond the handler's imports. @default none */
  allowsImports?: ImportCollector;
}

/** The routes module's helper answering which operations the current user may call on a row (operations/permissions/row-actions.ts). */
export interface RowActionsHelper {
  /** What it takes after the row and the session, which its callers pass on. */
  readonly params: readonly RouteParam[];
  /** Its awaited call on `row` (a variable), from a caller's body. */
  call(row: string): string;
  calledBy(handler: RouteHandler): void;
}

/**
 * What the `authz` operation asks of a handler: `checks` run first in its body (a group
 * check, a collection guard, a policy decision without a row); `policy` (the action and
 * resource OPA is asked about) and then `guard` (the guard's call on the row's variable) run on the row
 * once it is loaded; `params` are dependencies the checks need (the request's `policy`).
 * Row visibility is not here: the ORM applies it to every read (operations/visibility).
 * The permissions routes (operations/permissions) read the same values.
 */
export interface HandlerAuthz {
  checks: readonly AuthzCheck[];
  policy?: string;
  guard?: (row: string) => string;
  /** What the guard's call imports (also in `imports`): the permissions routes call it too. */
  guardImports?: ImportCollector;
  params?: readonly RouteParam[];
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
  readonly kind: RouteKind;
  /** Path below the resource's router prefix, e.g. `/{pk}` or `/{pk}/publish-article`. */
  readonly path: string;
  readonly statusCode: number;
  /** `session: SessionDep`; `session: ReadSessionDep` on a `read` route. */
  readonly session: RouteParam;
  /** The representation the route answers with, if it answers with a row. */
  readonly representation: ReadSchema | undefined;
  readonly #summary: string;
  readonly #responseModel: string | undefined;
  readonly #params: readonly RouteParam[];
  readonly #body: HandlerBody | undefined;
  readonly #imports: ImportCollector;
  readonly #rowCheckImports: ImportCollector;
  readonly #directImports: ImportCollector;
  readonly #directStatement: ModuleStatement | undefined;
  readonly #constant: ModuleStatement | undefined;
  readonly #answerFrom: string | undefined;
  /** Largest request body in bytes, for handlers that read one (`max_body_size`). */
  readonly maxBodySize: number | undefined;
  /** A `POST` that stores its answer under the request's `Idempotency-Key` (its body calls `Idempotency.of(request)`). */
  readonly idempotent: boolean;
  /** Its answer depends on who asks: on a route that requires no user, it takes the user when a request carries one (`authz`). */
  readonly asksWhoIsSignedIn: boolean;
  readonly #errors = new Set<ErrorStatus>();
  #rowActions: RowActionsHelper | undefined;
  #user: RouteParam | undefined;
  #userDecided = false;
  #optionalUser: RouteParam | undefined;
  #rateLimit: RouteLimiter | undefined;
  #span: HandlerSpan | undefined;
  #authz: HandlerAuthz | undefined;
  #groups: readonly string[] | undefined;

  constructor(options: {
    module: RoutesModule;
    entry: EndpointEntry;
    name: string;
    operationId: string;
    method: HttpMethod;
    /** What the route is, as its operation declares it (`static route(options)`). */
    route: Route;
    statusCode: number;
    summary: string;
    responseModel?: string;
    representation?: ReadSchema;
    params?: readonly RouteParam[];
    session: RouteParam;
    body?: HandlerBody;
    imports?: ImportCollector;
    /** What the body imports only when it loads the row to check it (`checksRow`), e.g. `select` for a delete. */
    rowCheckImports?: ImportCollector;
    /** What the body imports only when it does not load the row to check it, e.g. `update` for an update's one statement. */
    directImports?: ImportCollector;
    /** The statement the body runs only when it does not load the row to check it, e.g. an update's one `UPDATE`. */
    directStatement?: ModuleStatement;
    /** A value the handler uses, built when the module is imported, e.g. a kiln action's `KilnSignature`. */
    constant?: ModuleStatement;
    /**
     * A Python object whose `status_code` and `response_model` the decorator gives FastAPI, in place of
     * `statusCode` and the return annotation: an answer known only when the module is imported.
     */
    answerFrom?: string;
    maxBodySize?: number;
    idempotent?: boolean;
    /** Its answer depends on who asks, signed in or not. @default false */
    asksWhoIsSignedIn?: boolean;
    /** Error statuses the handler's own code answers beyond those its kind and target imply (more are added by `answers`). */
    errors?: readonly ErrorStatus[];
  }) {
    super();
    this.module = options.module;
    this.entry = options.entry;
    this.name = options.name;
    this.operationId = options.operationId;
    this.method = options.method;
    this.kind = options.route.kind;
    this.path = options.route.path;
    this.statusCode = options.statusCode;
    this.#summary = options.summary;
    this.#responseModel = options.responseModel;
    this.#params = options.params ?? [];
    // A route that only reads takes the read session (autocommit, a replica when its
    // database has some), whoever built it: its operation need not know.
    this.session = this.kind === "read" ? readSessionParam(this.module.view) : options.session;
    this.representation = options.representation;
    this.#body = options.body;
    this.#imports = options.imports ?? new ImportCollector();
    this.#rowCheckImports = options.rowCheckImports ?? new ImportCollector();
    this.#directImports = options.directImports ?? new ImportCollector();
    this.#directStatement = options.directStatement;
    this.#constant = options.constant;
    this.#answerFrom = options.answerFrom;
    this.maxBodySize = options.maxBodySize;
    this.idempotent = options.idempotent ?? false;
    this.asksWhoIsSignedIn = options.asksWhoIsSignedIn ?? false;
    // Every handler uses the database, which may be busy or down; what a route is implies more (impliedErrors).
    this.answers(503, ...impliedErrors(this.kind, this.target), ...(options.errors ?? []));
  }

  /**
   * Augmentation point: the route can answer `statuses` too (the `auth` operation adds 401).
   * Each is documented in the route's OpenAPI operation with its body.
   */
  answers(...statuses: ErrorStatus[]): void {
    for (const status of statuses) this.#errors.add(status);
  }

  /**
   * Augmentation point: only members of `groups` may call the route (the `authz` operation).
   * OpenAPI says so in the operation's `x-groups`, which front ends read to hide what a user cannot use.
   */
  admitsGroups(groups: readonly string[]): void {
    this.#groups = [...groups].sort();
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

  /** Whether the route addresses one row by its key (its path holds `{pk}`) or the collection. */
  get target(): RouteTarget {
    return targetOf(this.path);
  }

  /** A custom action rather than one of the CRUD routes. */
  get action(): boolean {
    return this.kind === "action";
  }

  /**
   * Augmentation point of the `auth` operation, which decides for every handler: it takes
   * the authenticated `user` (and may answer 401), or none is required (`undefined`).
   */
  decideUser(user: RouteParam | undefined): void {
    if (this.#userDecided) throw new Error(`bug: ${this.name}'s user is already decided`);
    this.#userDecided = true;
    if (user === undefined) return;
    this.#user = user;
    this.answers(401);
  }

  /**
   * Augmentation point of the `authz` operation on a route without a required user: the
   * handler takes the user when the request carries valid credentials, else `None`.
   */
  acceptUser(user: RouteParam): void {
    if (this.#user !== undefined || this.#optionalUser !== undefined) throw new Error(`bug: ${this.name} already takes a user`);
    this.#optionalUser = user;
  }

  /** The optional `current_user` dependency of a public route, once `authz` asked for it. */
  get optionalUser(): RouteParam | undefined {
    return this.#optionalUser;
  }

  /** What the body passes on as the user: `current_user` when the handler takes one (required or optional), else `None`. */
  get currentUser(): "current_user" | "None" {
    return this.#user === undefined && this.#optionalUser === undefined ? "None" : "current_user";
  }

  /**
   * Augmentation point of the `authz` operation: the checks, policy decision and guard the
   * handler applies; a check, the policy or the guard may answer 403.
   */
  authorize(authz: HandlerAuthz): void {
    if (this.#authz !== undefined) throw new Error(`bug: ${this.name} is already authorized`);
    this.#authz = authz;
    if (authz.checks.length > 0 || authz.guard !== undefined || authz.policy !== undefined) this.answers(403);
  }

  /** The guard's call on the loaded row, given the row's variable: `handler.guard(row)` in the body templates. */
  get guard(): ((row: string) => string) | undefined {
    return this.#authz?.guard;
  }

  /** The policy decision about the loaded row: `"get", "article"`, the arguments of `policy.require` before the row. */
  get policy(): string | undefined {
    return this.#authz?.policy;
  }

  /** Whether a check runs on the loaded row (a policy decision, a guard): the body templates load it first. */
  get checksRow(): boolean {
    return this.#authz?.guard !== undefined || this.#authz?.policy !== undefined;
  }

  /** Lines that open the handler's body (each indented, ending in a newline). */
  protected get checks(): string {
    return this.authzChecks.map((check) => `${check.require}\n`).join("");
  }

  /** The checks `authz` gave the handler that need no row, in both their forms. */
  get authzChecks(): readonly AuthzCheck[] {
    return this.#authz?.checks ?? [];
  }

  /** The dependencies the handler's authorization needs (the request's `policy`). */
  get authzParams(): readonly RouteParam[] {
    return this.#authz?.params ?? [];
  }

  /** What the guard's call imports, when the handler has a guard. */
  get guardImports(): ImportCollector | undefined {
    return this.#authz?.guardImports;
  }

  /** The `current_user` dependency, once `auth` decided the route needs one. */
  get user(): RouteParam | undefined {
    return this.#user;
  }

  /** Augmentation point of the `rate_limit` operation: the route runs `limiter` before its handler, and documents its 429. */
  limitRate(limiter: RouteLimiter): void {
    if (this.#rateLimit !== undefined) throw new Error(`bug: ${this.name} already has a rate limit`);
    this.#rateLimit = limiter;
    this.answers(429);
  }

  /** Augmentation point of the `telemetry` operation: the handler runs inside a span. */
  traceAs(span: HandlerSpan): void {
    if (this.#span !== undefined) throw new Error(`bug: ${this.name} is already traced`);
    this.#span = span;
  }

  /** The handler lists on each row it answers the operations the current user may call on it, as `helper` says (`include_actions_in_dump`). */
  listActions(helper: RowActionsHelper): void {
    this.#rowActions = helper;
    helper.calledBy(this);
  }

  /** The helper whose answer each row carries, when the handler lists actions. */
  get rowActions(): RowActionsHelper | undefined {
    return this.#rowActions;
  }

  /** Dependencies after the parameters: the session, then the user (required or optional), then what authorization needs, then what the actions helper takes. */
  get dependencies(): RouteParam[] {
    const user = this.#user ?? this.#optionalUser;
    return distinctParams([this.session, ...(user === undefined ? [] : [user]), ...(this.#authz?.params ?? []), ...(this.#rowActions?.params ?? [])]);
  }

  /** `@router.get("/{pk:uuid}", operation_id="getArticle", responses=error_responses(404, 503))`. */
  get decorator(): string {
    let path = this.path;
    for (const param of this.params) if (param.converter) path = path.replace(`{${param.name}}`, `{${param.name}:${param.converter}}`);
    return this.decoratorOf({ method: this.method, path, statusCode: this.statusCode, operationId: this.operationId, maxBodySize: this.maxBodySize, idempotent: this.idempotent });
  }

  /**
   * The decorator of a route of this handler: its own, or another route of the same entry
   * (a list's `POST …/search`), which runs behind the same rate limit and in the same span,
   * and answers the same errors (and 400 and 413 when it reads a body).
   */
  protected decoratorOf(route: { method: HttpMethod; path: string; statusCode: number; operationId: string; maxBodySize: number | undefined; idempotent?: boolean }): string {
    const args = [pythonString(route.path)];
    if (this.#answerFrom !== undefined) {
      args.push(`status_code=${this.#answerFrom}.status_code`, `response_model=${this.#answerFrom}.response_model`);
    } else if (route.statusCode !== 200) {
      const name = STATUS_NAMES[route.statusCode];
      args.push(`status_code=${name ? `status.${name}` : route.statusCode}`);
    }
    args.push(`operation_id=${pythonString(route.operationId)}`);
    if (route.maxBodySize !== undefined) args.push(`max_body_size=${pythonInt(route.maxBodySize)}`);
    if (this.#rateLimit) args.push(`dependencies=[Depends(${this.#rateLimit.name})]`);
    // A body may be unreadable (not UTF-8) or too large.
    const errors = new Set<ErrorStatus>(route.maxBodySize === undefined ? this.#errors : [...this.#errors, 400, 413]);
    args.push(`responses=error_responses(${[...errors].sort((a, b) => a - b).join(", ")})`);
    // The `Idempotency-Key` header is read by hand (runtime/idempotency.py), so documented here.
    const extras = [
      // The user is read when a request carries one: OpenAPI's empty requirement says anonymous requests are served too.
      ...(this.#optionalUser ? ['"security": [{}]'] : []),
      ...(this.#groups ? [`"x-groups": [${this.#groups.map(pythonString).join(", ")}]`] : []),
      // The name the permissions answers give this operation (routes.ts, nameOperations).
      ...(this.module.namesOperations ? [`"x-name": ${pythonString(this.entry.name)}`] : []),
    ];
    if (route.idempotent && extras.length === 0) args.push("openapi_extra=IDEMPOTENCY_KEY");
    else if (route.idempotent) args.push(`openapi_extra={**IDEMPOTENCY_KEY, ${extras.join(", ")}}`);
    else if (extras.length > 0) args.push(`openapi_extra={${extras.join(", ")}}`);
    const decorator = `@router.${route.method.toLowerCase()}(${args.join(", ")})`;
    // Below the route decorator: FastAPI registers the traced function, which keeps the signature.
    return this.#span ? `${decorator}\n${this.#span.decorator}` : decorator;
  }

  /** `async def name(...) -> Response:`; parameters with defaults after those without, as Python requires. */
  get signature(): string {
    return this.signatureOf(this.name, this.params);
  }

  /** The signature of a route of this handler (its own, or a list's search) taking `params`, then the dependencies. */
  protected signatureOf(name: string, params: readonly RouteParam[]): string {
    const all = [...params, ...this.dependencies];
    const ordered = [...all.filter((param) => param.default === undefined), ...all.filter((param) => param.default !== undefined)];
    return `async def ${name}(${ordered.map((param) => param.declaration).join(", ")}) -> ${this.responseModel ?? "None"}:`;
  }

  /** Everything the handler's code imports. */
  get allImports(): ImportCollector {
    const imports = this.imports.copy();
    imports.update(this.checksRow ? this.#rowCheckImports : this.#directImports);
    for (const param of this.params) imports.update(param.imports);
    for (const param of this.dependencies) imports.update(param.imports);
    if (this.statusCode !== 200 && this.#answerFrom === undefined) imports.addFrom("fastapi", "status");
    imports.addFrom(`${this.module.view.runtimePackage}.responses`, "error_responses");
    if (this.idempotent) imports.addFrom(`${this.module.view.runtimePackage}.idempotency`, "IDEMPOTENCY_KEY", "Idempotency");
    if (this.#rateLimit) imports.addFrom("fastapi", "Depends").update(this.#rateLimit.imports);
    if (this.#span) imports.update(this.#span.imports);
    if (this.#authz) imports.update(this.#authz.imports);
    return imports;
  }

  /**
   * Refuses a handler that `auth` never decided: its operation ran after the operations that
   * attach to every endpoint, so it would ship with no user, no limit and no tests.
   */
  protected checkAugmented(): void {
    if (!this.#userDecided) {
      throw new GenerationError(
        `the route handler ${this.name} (entry "${this.entry.name}", type "${this.entry.type}") was built after the operations that attach to every endpoint: ` +
          `its operation must declare role "${ENDPOINT}" (@operation(name, { role: "${ENDPOINT}", … }))`,
      );
    }
  }

  /** The handler's code in its routes module: the decorated function. */
  blocks(ctx: RenderCtx): CodeBlock[] {
    this.checkAugmented();
    const code = "code" in this.body ? (typeof this.body.code === "string" ? this.body.code : this.body.code(this)) : renderTemplate(ctx.env, this.body.template, { ...this.body.context, handler: this });
    const body = this.checks + code.trimEnd();
    const handler = { code: renderFunction(ctx, { decorator: this.decorator, signature: this.signature, doc: this.summary, body }), imports: this.allImports };
    const statements = [this.#constant, this.checksRow ? undefined : this.#directStatement].filter((statement) => statement !== undefined);
    return [...statements.map((statement) => ({ code: `# ${statement.comment}\n${statement.name} = ${statement.value}`, imports: statement.imports })), handler];
  }
}

/** A Python function from its parts; `decorator` may be empty (a module helper). */
export function renderFunction(ctx: RenderCtx, parts: { decorator: string; signature: string; doc: string; body: string }): string {
  return renderTemplate(ctx.env, "modules/handler.py.njk", { ...parts, doc: docstringText(parts.doc, "    ") }).trimEnd();
}
