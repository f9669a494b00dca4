// The project's row visibility rules as the generator reads them: one per model, from the
// resources' `visible` (config validation refuses two different ones for a model) and OPA's
// rows when a route of a resource that reads asks OPA (the rows the policy lets a user read). The
// `row_visibility` operation writes them; sessions, auth, discovery, OPA's handlers and read
// shapes adapt.

import type { BuildStore } from "../../codegen/index.js";
import { cascaded } from "./cascade.js";
import type { ProjectConfig, ResourceConfig } from "./config/schema.js";
import { routesAt } from "./modules/endpoint.js";
import { targetOf } from "./modules/handler.js";
import { decideAuth } from "./operations/auth/decide.js";

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
  for (const [appId] of store.children(PROJECT, { childScope: "app" })) {
    for (const [resourceId, resource] of store.children(appId, { childScope: "resource" })) {
      const { name, model, visible } = resource as ResourceConfig;
      const rule = rules.get(model) ?? { model };
      rule.fn ??= visible;
      rule.opa ??= opaRows(project, store, resourceId, name);
      if (rule.fn !== undefined || rule.opa !== undefined) rules.set(model, rule);
    }
  }
  found = [...rules.values()];
  rulesOfBuild.set(store, found);
  return found;
}

/**
 * OPA's rows of the model of the resource at `resourceId` (named `resource`), when a route of
 * it that reads (a row or the collection) asks OPA as `authz` decides (`opa` cascading to true
 * on a route with a user): the rows the policy lets a user read, under the name of the entry
 * that reads one row, or, when none does, of the first entry that reads the collection.
 * @example opaRows(project, store, "project.apps.0.resources.0", "article") // { resource: "article", action: "get" } in the OPA example
 */
function opaRows(project: ProjectConfig, store: BuildStore, resourceId: string, resource: string): OpaRows | undefined {
  if (project.auth?.opa === undefined) return undefined;
  const reads = store.children(resourceId, { childScope: "operation" }).flatMap(([entryId, entry]) => {
    const routes = routesAt(store, entryId).filter((route) => route.kind === "read");
    return routes.length > 0 ? [{ entryId, name: (entry as { name: string }).name, routes }] : [];
  });
  const asks = reads.some(
    ({ entryId, routes }) => cascaded(store, entryId, project, "opa") === true && routes.some((route) => decideAuth(project, store, entryId, route.path).required),
  );
  if (!asks) return undefined;
  // `asks` found a reading entry, so `reads` has one.
  const named = reads.find(({ routes }) => routes.some((route) => targetOf(route.path) === "row")) ?? reads[0]!;
  return { resource, action: named.name };
}

/**
 * Whether rows of `model` may be hidden from a user: a single object of it nested in another
 * resource is then `null` for whoever may not see it.
 * @example mayBeHidden(project, store, "blog.models.Article") // true in the authz example
 */
export function mayBeHidden(project: ProjectConfig, store: BuildStore, model: string): boolean {
  return visibilityRules(project, store).some((rule) => rule.model === model);
}
