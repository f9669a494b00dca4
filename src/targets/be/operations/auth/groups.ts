// `auth/groups.py`: a user's groups (from a token claim, or the consumer's function named
// by `auth.groups.fn`) and `require_groups`, the check handlers of routes with `groups` run.
// Written only when some app, resource or entry sets `groups`.

import { ImportCollector, prefixImport } from "../../../../codegen/index.js";
import { type AuthConfig, DEFAULT_GROUP_CLAIM } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonString } from "../../python/literals.js";
import { userType } from "./augment.js";

/** The groups module for `auth`; its imports go through `packagePrefix`. */
export function groupsModule(auth: AuthConfig, packagePrefix: string): PythonModule {
  const runtime = prefixImport(packagePrefix, "runtime", "authz");
  const user = userType(auth, packagePrefix);
  const imports = new ImportCollector().addFrom(runtime, "require_membership").update(user.imports);
  if (auth.get_current_user_fn !== undefined && auth.groups === undefined) throw new Error("bug: groups with get_current_user_fn and no groups.fn passed validation");
  const source = auth.groups ?? { claim: DEFAULT_GROUP_CLAIM };
  let context: Record<string, unknown>;
  if ("fn" in source) {
    imports.add(source.fn.slice(0, source.fn.lastIndexOf(".")));
    context = { fn: source.fn };
  } else {
    imports.addFrom(runtime, "groups_in_claim");
    context = { claim: source.claim, claim_literal: pythonString(source.claim) };
  }
  return new PythonModule({
    path: "auth/groups.py",
    template: "operations/auth/package/groups.py.njk",
    context: { ...context, user: user.name },
    imports,
  });
}
