// `auth_scaffold` (project scope, only with `auth`, after the routes are built): the `auth/`
// package, for the generated JWT flow or for the user's own `get_current_user_fn` (see
// `package.ts`), `groups.py` when some route admits only some groups or asks OPA (see
// `groups.ts`), and the runtime helpers of cookie sessions and logout when the config asks
// for them. It runs after the routes so it knows whether a public route reads the optional user.
// Its router's routes are `ProjectRoute`s (role `ENDPOINT`): the project's rate limit reaches them.

import { type BuildContext, StaticFile, operation } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { visibilityRules } from "../../row-visibility.js";
import { groupsModule, groupsRead, tokenGroupClaim } from "./groups.js";
import { authPackage } from "./package.js";

@operation("auth_scaffold", { scope: "project", afterChildren: true, role: ENDPOINT })
export class AuthScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.auth !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const auth = ctx.config.auth!;
    const cors = ctx.config.cors;
    const groupClaim = tokenGroupClaim(ctx.config);
    const readsGroups = groupsRead(ctx.config);
    const { modules, routes } = authPackage(auth, {
      packagePrefix: ctx.packagePrefix,
      trustedOrigins: cors?.allow_credentials ? cors.allow_origins : [],
      optionalUser: ctx.store.outputsUnder(ctx.instanceId, RouteHandler).some((handler) => handler.optionalUser !== undefined),
      groupClaim,
      readsGroups,
      recordsUser: visibilityRules(ctx.config, ctx.store).length > 0,
      trustedProxies: ctx.config.trusted_proxies,
    });
    const outputs: unknown[] = [...modules, ...routes];
    if (readsGroups) outputs.push(groupsModule(auth, ctx.packagePrefix, groupClaim !== undefined));
    if (auth.get_current_user_fn === undefined) {
      if (auth.cookie !== undefined) outputs.push(new StaticFile(runtimeHelperFile("sessions")));
      if (auth.logout_url !== undefined) outputs.push(new StaticFile(runtimeHelperFile("revocation")), new StaticFile(runtimeHelperFile("autocommit")));
      const { username, address } = auth.token_rate_limit;
      if (username !== undefined || address !== undefined) outputs.push(new StaticFile(runtimeHelperFile("rate_limit")), new StaticFile(runtimeHelperFile("autocommit")));
    }
    return outputs;
  }
}
