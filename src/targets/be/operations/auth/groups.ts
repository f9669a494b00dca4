// `auth/groups.py`: a user's groups (from a token claim, or the consumer's function named
// by `auth.groups.fn`) and `require_groups`, the check handlers of routes with `groups` run.
// Written only when the project reads groups: some app, resource or entry sets `groups`,
// or asks OPA (whose input carries the user's groups).

import { ImportCollector, prefixImport } from "../../../../codegen/index.js";
import { type AuthConfig, DEFAULT_GROUP_CLAIM, type ProjectConfig, authzKeysUsed } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonString } from "../../python/literals.js";
import { opaUsed } from "../opa/opa.js";
import { userType } from "./augment.js";

/**
 * Whether the project reads a user's groups: some route sets `groups`, or asks OPA.
 * @example groupsRead(ctx.config) // then auth/groups.py is written
 */
export function groupsRead(project: ProjectConfig): boolean {
  return authzKeysUsed(project.apps).has("groups") || opaUsed(project);
}

/**
 * The claim the token endpoint writes a user's groups into (when `verify_credentials`
 * gives them): the JWT flow's group claim, once the project reads groups from it (see
 * `groupsRead`, or `auth.groups` names the claim). Undefined otherwise.
 */
export function tokenGroupClaim(project: ProjectConfig): string | undefined {
  const auth = project.auth;
  if (auth === undefined || auth.get_current_user_fn !== undefined) return undefined;
  if (auth.groups !== undefined) return "claim" in auth.groups ? auth.groups.claim : undefined;
  return groupsRead(project) ? DEFAULT_GROUP_CLAIM : undefined;
}

/** The groups module for `auth`; its imports go through `packagePrefix`. */
export function groupsModule(auth: AuthConfig, packagePrefix: string, tokenGroups: boolean): PythonModule {
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
    // The token endpoint writes the claim too: one constant, in dependencies.py.
    if (tokenGroups) imports.addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "GROUP_CLAIM");
    context = { claim: source.claim, claim_literal: pythonString(source.claim), claim_imported: tokenGroups };
  }
  return new PythonModule({
    path: "auth/groups.py",
    template: "operations/auth/package/groups.py.njk",
    context: { ...context, user: user.name },
    imports,
  });
}
