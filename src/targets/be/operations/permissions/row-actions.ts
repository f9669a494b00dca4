// `_<name>_actions(row, session, …)`: the operations the current user may call on one row of
// a resource, as its routes module's helper. The row permissions route answers with it, and a
// resource with `include_actions_in_dump` lists it on every row its get and list answer, so the
// two can never disagree. Like the routes it asks about, it is not listed: when the module
// renders, it reads every handler of a row (get, update, delete, instance actions, a package's
// too) and asks the same checks they run, without raising.

import { ImportCollector, type RenderCtx, renderTemplate } from "../../../../codegen/index.js";
import type { CodeBlock, RouteHandler, RouteParam, RouteTarget, RowActionsHelper } from "../../modules/handler.js";
import { distinctParams, renderFunction } from "../../modules/handler.js";
import type { ModuleFunction, RoutesModule } from "../../modules/routes.js";
import { pythonString } from "../../python/literals.js";
import type { ReadSchema } from "../../modules/read-shape.js";
import type { ResourceView } from "../../resource.js";

/** The conditions of calling one handler: expressions all true when the user may, and what they import. */
export interface Conditions {
  expressions: string[];
  imports: ImportCollector;
}

/** kiln's names of what an operation addresses, as an `ActionRef`'s `scope` says it (Python literals). */
export const SCOPES: Record<RouteTarget, string> = { row: pythonString("object"), collection: pythonString("collection") };

/** One operation a permissions answer may name: its entry's name (a Python literal) and the conditions of calling it. */
export type AskedAction = { name: string } & Conditions;

/**
 * The operations of `handlers` that code running with `user` can ask about after the checks
 * `ran` held, in their order: what `operations/permissions/allowed.py.njk` lists as `actions`.
 */
export function askedActions(handlers: readonly RouteHandler[], row: string, user: "required" | "optional" | "none", ran: ReadonlySet<string>): AskedAction[] {
  return handlers.flatMap((handler) => {
    const asked = conditions(handler, row, user, ran);
    return asked === undefined ? [] : [{ name: pythonString(handler.entry.name), ...asked }];
  });
}

/**
 * The expressions, all true when the user may call `handler`, for code running with `user`
 * (the caller's `current_user`: required, optional, or none) after the checks `ran` (their
 * `require` forms) held; undefined when that code cannot know (it has no user, and `handler` requires one).
 */
function conditions(handler: RouteHandler, row: string, user: "required" | "optional" | "none", ran: ReadonlySet<string>): Conditions | undefined {
  const expressions: string[] = [];
  const imports = new ImportCollector();
  if (handler.user !== undefined && user !== "required") {
    if (user === "none") return undefined;
    expressions.push("current_user is not None");
  }
  for (const check of handler.authzChecks) {
    if (ran.has(check.require)) continue;
    expressions.push(check.allows);
    if (check.allowsImports) imports.update(check.allowsImports);
  }
  if (handler.policy !== undefined) expressions.push(`await policy.allows(${handler.policy}, ${row})`);
  if (handler.guard !== undefined) {
    expressions.push(`await ${handler.guard(row)}`);
    imports.update(handler.guardImports!);
  }
  return { expressions, imports };
}

/** Which user a handler's code has: `current_user` required, optional (`None` without credentials), or none. */
export function userOf(handler: RouteHandler): "required" | "optional" | "none" {
  return handler.user !== undefined ? "required" : handler.optionalUser !== undefined ? "optional" : "none";
}

/** Whether a route answering rows of `view` in `shape` lists their actions: the resource asks it, and the shape is a schema of ours, which has the field. */
export function listsActions(view: ResourceView, shape: ReadSchema): boolean {
  return view.config.include_actions_in_dump === true && shape.schema !== undefined;
}

const helpers = new WeakMap<RoutesModule, RowActions>();

/** The helper of one routes module; the handlers that call it pass it what it asks. */
export class RowActions implements ModuleFunction, RowActionsHelper {
  readonly #module: RoutesModule;
  readonly #callers: RouteHandler[] = [];

  private constructor(module: RoutesModule) {
    this.#module = module;
  }

  /** The module's helper, added to it the first time it is asked for. */
  static of(module: RoutesModule): RowActions {
    let helper = helpers.get(module);
    if (helper === undefined) {
      helper = new RowActions(module);
      helpers.set(module, helper);
      module.nameOperations();
      module.addFunction(helper);
    }
    return helper;
  }

  get name(): string {
    return `_${this.#module.view.name}_actions`;
  }

  /** `handler` calls the helper: its user and checks decide what the helper may take as given. */
  calledBy(handler: RouteHandler): void {
    this.#callers.push(handler);
  }

  /** The handlers it asks about: every route on one row but those answering with it. */
  get #asked(): RouteHandler[] {
    return this.#module.handlers.filter((handler) => handler.target === "row" && handler.entry.type !== "permissions");
  }

  /** The weakest user among its callers': the helper knows no more of the user than each of them. */
  get #user(): "required" | "optional" | "none" {
    const users = this.#callers.map(userOf);
    return users.includes("none") ? "none" : users.includes("optional") ? "optional" : "required";
  }

  /** The checks every caller ran before calling: they hold already. */
  get #ran(): Set<string> {
    const [first, ...rest] = this.#callers.map((caller) => new Set(caller.authzChecks.map((check) => check.require)));
    return new Set([...(first ?? [])].filter((check) => rest.every((ran) => ran.has(check))));
  }

  /** What it takes after the row: the session, the user (the weakest caller's parameter), what the asked checks need (the request's `policy`). */
  get params(): RouteParam[] {
    const user = this.#user;
    const userParam = user === "none" ? undefined : this.#callers.map((caller) => (user === "optional" ? caller.optionalUser : caller.user)).find((param) => param !== undefined);
    return distinctParams([...(userParam ? [userParam] : []), ...this.#asked.flatMap((handler) => handler.authzParams)]);
  }

  /** The call of the helper on `row` from a caller's body. */
  call(row: string): string {
    return `await ${this.name}(${[row, "session", ...this.params.map((param) => param.name)].join(", ")})`;
  }

  blocks(ctx: RenderCtx): CodeBlock[] {
    const view = this.#module.view;
    const row = view.variable;
    const actions = askedActions(this.#asked, row, this.#user, this.#ran);
    const imports = new ImportCollector()
      .addFrom(`${view.runtimePackage}.actions`, "ActionRef")
      .addFrom("sqlalchemy.ext.asyncio", "AsyncSession")
      .addFrom(view.model.module, view.model.importName);
    for (const param of this.params) imports.update(param.imports);
    for (const action of actions) imports.update(action.imports);
    const params = [`${row}: ${view.model.local}`, "session: AsyncSession", ...this.params.map((param) => param.declaration)];
    return [
      {
        code: renderFunction(ctx, {
          decorator: "",
          signature: `async def ${this.name}(${params.join(", ")}) -> list[ActionRef]:`,
          doc: `What the current user may call on *${row}*, asked as each route asks.`,
          body: renderTemplate(ctx.env, "operations/permissions/allowed.py.njk", { actions, scope: SCOPES.row }).trimEnd(),
        }),
        imports,
      },
    ];
  }
}
