// The `pre` and `post` hooks of a create, update or delete entry (docs/hooks.md), as its body
// template calls them: `before_write(<pre>, values, …)` before the write, `after_commit(<post>,
// row, …)` after the commit. Every call passes `session=`, and `current_user=` in projects
// with `auth` (`None` on a public route that does not see the user), so one hook serves
// routes with and without a user. With `convention: "kiln"`, kiln's signatures:
// `body_from_hook(<pre>, body, db=session)` returns the body to store, `after_commit(<post>,
// row, body, db=session)`.

import { ImportCollector, Name } from "../../../codegen/index.js";
import type { HookKeys } from "../config/hooks.js";
import type { ResourceView } from "../resource.js";
import type { RouteHandler } from "./handler.js";

/** The hooks of one entry, and what calling them imports. */
export class HookCalls {
  /** The `pre` hook's dotted path, called as written (its module is imported). */
  readonly pre: string | undefined;
  readonly post: string | undefined;
  readonly imports = new ImportCollector();
  /** Whether the project has `auth`: then every call passes `current_user=`. */
  readonly #passUser: boolean;
  readonly #kiln: boolean;

  constructor(view: ResourceView, entry: Pick<HookKeys, "pre" | "post" | "convention">) {
    this.pre = entry.pre;
    this.post = entry.post;
    this.#passUser = view.project.auth !== undefined;
    this.#kiln = entry.convention === "kiln";
    for (const [hook, runner] of [
      [entry.pre, this.#kiln ? "body_from_hook" : "before_write"],
      [entry.post, "after_commit"],
    ] as const) {
      if (hook === undefined) continue;
      this.imports.add(Name.fromDotted(hook)[0]).addFrom(`${view.runtimePackage}.hooks`, runner);
    }
  }

  /** `, session=session, current_user=…`: the keywords each call ends with, once `auth` and `authz` have decided whether `handler` has a user. */
  keywords(handler: RouteHandler): string {
    return this.#passUser ? `, session=session, current_user=${handler.currentUser}` : ", session=session";
  }

  /** The values the `pre` hook says to store: `body.model_dump(<dump>)` through it (update: `row` is the loaded row). */
  values(handler: RouteHandler, dump: string, row?: string): string {
    if (this.#kiln) return `(await body_from_hook(${this.pre}, body, db=session)).model_dump(${dump})`;
    return `await before_write(${this.pre}, body.model_dump(${dump})${row === undefined ? "" : `, row=${row}`}${this.keywords(handler)})`;
  }

  /** The `post` hook's call with the committed `row` (and, kiln's, the request body when the route has one). */
  afterCommit(handler: RouteHandler, row: string, hasBody: boolean): string {
    if (this.#kiln) return `await after_commit(${this.post}, ${row}${hasBody ? ", body" : ""}, db=session)`;
    return `await after_commit(${this.post}, ${row}${this.keywords(handler)})`;
  }
}
