// The project's row visibility rules as the generator reads them: one per model, from the
// resources' `visible` (config validation refuses two different ones for a model) and OPA's
// rows when a route of a resource that reads asks OPA (the rows the policy lets a user read). The
// `row_visibility` operation writes them; sessions, auth, discovery, OPA's handlers and read
// shapes adapt.

import type { BuildStore } from "../../codegen/index.js";
import { cascadedFrom } from "./cascade.js";
import type { ProjectConfig, ResolvedApp, ResourceConfig } from "./config/schema.js";
import { resourceRoutes } from "./modules/endpoint.js";

// The id of the build's root instance: the project's scope.
const PROJECT = "project";

/** What OPA is asked about a model's rows: its resource's name and the name of its get entry. */
export interface OpaRows {
  resource: string;
  action: string;
}

/** One model's rule: the model's dotted path, your function (`visible`), OPA's rows, or both. */
export interface VisibilityRule {
  model: string;
  fn?: string;
  opa?: OpaRows;
}

// The rules of one build, asked for by every read shape that nests a model.
const rulesOfBuild = new WeakMap<BuildStore, VisibilityRule[]>();

/**
 * The visibility rules of the project, one per model, in config order.
 * @example visibilityRules(project, store) // [{ model: "blog.models.Article", fn: "blog.authz.visible_articles" }]
 */
export function visibilityRules(project: ProjectConfig, store: BuildStore): VisibilityRule[] {
  let found = rulesOfBuild.get(store);
  if (found !== undefined) return found;
  const rules = new Map<string, VisibilityRule>();
  for (const [appId, app] of store.children(PROJECT, { childScope: "app" })) {
    for (const [resourceId, resource] of store.children(appId, { childScope: "resource" })) {
      const { model, visible } = resource as ResourceConfig;
      const rule = rules.get(model) ?? { model };
      rule.fn ??= visible;
      rule.opa ??= opaRows(project, app as ResolvedApp, resource as ResourceConfig, resourceRoutes(store, resourceId));
      if (rule.fn !== undefined || rule.opa !== undefined) rules.set(model, rule);
    }
  }
  found = [...rules.values()];
  rulesOfBuild.set(store, found);
  return found;
}

/**
 * OPA's rows of `resource`'s model, when a route of it that reads (a row or the collection)
 * asks OPA (`opa` cascading to true on a route with a user): the rows the policy lets a user
 * read, under the name of the entry that reads one row (`get` when none does).
 * @example opaRows(project, app, article, routes) // { resource: "article", action: "get" } in the OPA example
 */
export function opaRows(project: ProjectConfig, app: ResolvedApp, resource: ResourceConfig, routes: ReturnType<typeof resourceRoutes>): OpaRows | undefined {
  if (project.auth?.opa === undefined) return undefined;
  const reads = routes.filter(({ routes }) => routes.some((route) => route.kind === "read"));
  const asks = reads.some(({ entry }) => {
    const levels = [entry, resource, app.config];
    return cascadedFrom(levels, project, "opa") === true && cascadedFrom(levels, project, "require_auth") !== false;
  });
  if (!asks) return undefined;
  const rowRead = reads.find(({ routes }) => routes.some((route) => route.target === "row"));
  return { resource: resource.name, action: rowRead?.entry.name ?? "get" };
}

/**
 * Whether rows of `model` may be hidden from a user: a single object of it nested in another
 * resource is then `null` for whoever may not see it.
 * @example mayBeHidden(project, store, "blog.models.Article") // true in the authz example
 */
export function mayBeHidden(project: ProjectConfig, store: BuildStore, model: string): boolean {
  return visibilityRules(project, store).some((rule) => rule.model === model);
}
