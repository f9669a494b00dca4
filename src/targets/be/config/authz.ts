// Authorization settings (docs/authorization.md): where a user's groups come from
// (`auth.groups`, `GroupConfig`), the groups a route admits (`groups`, cascading like
// `require_auth`), per-operation guards (`can`) and a resource's row visibility (`visible`).

import { z } from "zod";
import { DottedPath } from "./primitives.js";

/** The claim groups come from when `auth.groups` says nothing. */
export const DEFAULT_GROUP_CLAIM = "groups";

/** A group name, as the token claim or the membership function gives it. */
const GroupName = z.string().regex(/^[^\s]+$/, "must be a group name without spaces, like \"editors\"");

/** `groups` at an operation entry, a resource or an app: the groups whose members may call the routes. */
export const GroupList = z
  .array(GroupName)
  .min(1, "must name at least one group: to let every user in, leave groups out")
  .meta({
    id: "GroupList",
    description:
      "Only members of one of these groups may call the routes (403 for other users, 401 without credentials); the routes must " +
      "require a user. Cascades: an operation entry's own value wins, then its resource's, then its app's. Default: no group check.",
    examples: [["editors", "admin"]],
  });

/** `can`: a guard of the consumer's, `async (user, obj, session) -> bool`, or kiln's `async (resource, session) -> bool`. */
export const GuardPath = DottedPath.meta({
  description:
    "Dotted path of your guard `async def can(user, obj, session) -> bool`: instance operations pass the row (loaded, before " +
    "anything changes), collection operations (list, create, collection actions) pass `None`; `False` answers 403. The route " +
    "must require a user. With the entry's `convention: \"kiln\"`, kiln's signature: `async def can(resource, session) -> bool`, " +
    "the row or `None`, then the signed-in user (with kiln's login, its session model).",
  examples: ["blog.authz.can_change"],
});

/** `visible`: the rows of a resource a user may see. */
export const VisiblePath = DottedPath.meta({
  description:
    "Dotted path of your function `(user) -> ColumnElement[bool] | None`: a SQLAlchemy condition over the model that the rows a " +
    "user may see meet (`None`: every row). A rule of the model: the ORM adds it to every read of the model a request makes " +
    "(lists, search, get, update, delete, actions, nested loads in any resource, `/_values`), so hidden rows are missing " +
    "everywhere, a 404 by their key and `null` as a nested single object. Requests without a user pass `None` as the user. " +
    "Every resource of one model names the same function. Needs the project's `auth`.",
  examples: ["blog.authz.visible_articles"],
});

/** `auth.groups`: where a user's groups come from. */
export const GroupConfig = z
  .union([
    z.strictObject({
      claim: z.string().min(1).meta({ description: "The token claim holding the user's groups: a list of strings (or one string).", default: DEFAULT_GROUP_CLAIM, examples: ["roles"] }),
    }),
    z.strictObject({
      fn: DottedPath.meta({
        description: "Dotted path of your `async def groups(user) -> set[str]` (any iterable of strings), called once per request that checks groups.",
        examples: ["blog.authz.user_groups"],
      }),
    }),
  ])
  .meta({
    id: "GroupConfig",
    description:
      "Where a user's groups come from: a claim of the access token (`{ claim: \"roles\" }`) or your function " +
      "(`{ fn: \"blog.authz.user_groups\" }`). Default: the `groups` claim (the JWT flow only: with `get_current_user_fn`, give `fn`).",
    examples: [{ claim: "roles" }, { fn: "blog.authz.user_groups" }],
  });
export type GroupConfig = z.output<typeof GroupConfig>;

/** The authorization keys of one level, as the cascade and the `authz` operation read them. */
export interface AuthzLevel {
  groups?: string[];
  can?: string;
  visible?: string;
  opa?: boolean;
}

type Levels = readonly { config: AuthzLevel & { resources: readonly (AuthzLevel & { model: string; operations: readonly unknown[] })[] } }[];

const AUTHZ_KEYS = ["groups", "can", "visible", "opa"] as const;

/** Each authorization key set in the project, with its config path (`apps[0].config.resources[1].groups`). */
function* authzSettings(apps: Levels, pathOf: (app: number) => PropertyKey[]): Iterable<[keyof AuthzLevel, PropertyKey[]]> {
  // Index loops: `entries()` made an [index, item] pair for each of the project's operation entries.
  for (let a = 0; a < apps.length; a++) {
    const app = apps[a]!;
    for (const key of AUTHZ_KEYS) if (app.config[key] !== undefined) yield [key, [...pathOf(a), key]];
    const resources = app.config.resources;
    for (let r = 0; r < resources.length; r++) {
      const resource = resources[r]!;
      for (const key of AUTHZ_KEYS) if (resource[key] !== undefined) yield [key, [...pathOf(a), "resources", r, key]];
      const operations = resource.operations;
      for (let o = 0; o < operations.length; o++) {
        const entry = operations[o];
        if (typeof entry !== "object" || entry === null) continue;
        for (const key of AUTHZ_KEYS) if ((entry as AuthzLevel)[key] !== undefined) yield [key, [...pathOf(a), "resources", r, "operations", o, key]];
      }
    }
  }
}

/**
 * Every group some app, resource or operation entry of the project names, sorted.
 * @example groupsNamed(project.apps) // ["admin", "editor", "reader", "writer"] in the authz example
 */
export function groupsNamed(apps: Levels): string[] {
  const groups = new Set<string>();
  for (const app of apps) {
    for (const name of app.config.groups ?? []) groups.add(name);
    for (const resource of app.config.resources) {
      for (const name of resource.groups ?? []) groups.add(name);
      for (const entry of resource.operations) if (typeof entry === "object" && entry !== null) for (const name of (entry as AuthzLevel).groups ?? []) groups.add(name);
    }
  }
  return [...groups].sort();
}

/**
 * The authorization keys some app, resource or operation entry of the project sets.
 * @example authzKeysUsed(project.apps).has("groups") // the auth package gets groups.py
 */
export function authzKeysUsed(apps: Levels): Set<keyof AuthzLevel> {
  return new Set([...authzSettings(apps, () => [])].map(([key]) => key));
}

/**
 * Project-wide rules of authorization: every key needs `auth` (there is no user to check
 * otherwise), `groups` with `get_current_user_fn` needs `auth.groups.fn`, and `opa: true` needs `auth.opa`.
 */
export function checkAuthz(
  project: { auth?: { get_current_user_fn?: string; groups?: GroupConfig; opa?: unknown } },
  apps: Levels,
  pathOf: (app: number) => PropertyKey[],
  ctx: z.RefinementCtx,
): void {
  let groupsWithoutSource = false;
  // `visible` is a rule of the model, applied to every read of it: one function per model.
  const visibleRules = new Map<string, string>();
  apps.forEach((app, a) =>
    app.config.resources.forEach((resource, r) => {
      if (resource.visible === undefined) return;
      const first = visibleRules.get(resource.model);
      if (first === undefined) visibleRules.set(resource.model, resource.visible);
      else if (first !== resource.visible) {
        ctx.addIssue({ code: "custom", path: [...pathOf(a), "resources", r, "visible"], message: `another resource of ${resource.model} names ${first}: a model has one visibility rule, applied to every read of it` });
      }
    }),
  );
  for (const [key, path] of authzSettings(apps, pathOf)) {
    if (project.auth === undefined) {
      ctx.addIssue({ code: "custom", path, message: `needs the project's auth: without it no route knows its user (docs/authorization.md)` });
    } else if (key === "groups" && project.auth.get_current_user_fn !== undefined && project.auth.groups === undefined) {
      groupsWithoutSource = true;
    } else if (key === "opa" && project.auth.opa === undefined) {
      ctx.addIssue({ code: "custom", path, message: 'needs auth.opa: the OPA server to ask, like { decision: "blog/authz/allow" } (docs/authorization.md)' });
    }
  }
  if (groupsWithoutSource) {
    ctx.addIssue({
      code: "custom",
      path: ["auth", "groups"],
      message: 'required when routes set groups with get_current_user_fn: name your membership function, { fn: "pkg.mod.user_groups" }',
    });
  }
}
