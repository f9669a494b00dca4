// `auth_scaffold` (project scope, only with `auth`): the `auth/` package, for the generated
// JWT flow or for the user's own `get_current_user_fn` (see `package.ts`), and `groups.py`
// when some route admits only some groups or asks OPA (see `groups.ts`).

import { type BuildContext, operation } from "../../../../codegen/index.js";
import { type ProjectConfig, authzKeysUsed } from "../../config/schema.js";
import { opaUsed } from "../opa/opa.js";
import { groupsModule } from "./groups.js";
import { authPackage } from "./package.js";

@operation("auth_scaffold", { scope: "project" })
export class AuthScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.auth !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const modules = authPackage(ctx.config.auth!, ctx.packagePrefix);
    // OPA's input.subject carries the user's groups too.
    if (authzKeysUsed(ctx.config.apps).has("groups") || opaUsed(ctx.config)) modules.push(groupsModule(ctx.config.auth!, ctx.packagePrefix));
    return modules;
  }
}
