// The project's row visibility rules as the generator reads them: one per model, from the
// resources' `visible` (config validation refuses two different ones for a model) and OPA's
// rows when a resource's get or list asks OPA (the rows the policy lets a user get). The
// `row_visibility` operation writes them; sessions, auth, discovery, OPA's handlers and read
// shapes adapt.

import { cascadedFrom } from "./cascade.js";
import type { ProjectConfig, ResolvedApp, ResourceConfig } from "./config/schema.js";

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

/**
 * The visibility rules of the project, one per model, in config order.
 * @example visibilityRules(project) // [{ model: "blog.models.Article", fn: "blog.authz.visible_articles" }]
 */
export function visibilityRules(project: ProjectConfig): VisibilityRule[] {
  const rules = new Map<string, VisibilityRule>();
  for (const app of project.apps) {
    for (const resource of app.config.resources) {
      const rule = rules.get(resource.model) ?? { model: resource.model };
      rule.fn ??= resource.visible;
      rule.opa ??= opaRows(project, app, resource);
      if (rule.fn !== undefined || rule.opa !== undefined) rules.set(resource.model, rule);
    }
  }
  return [...rules.values()];
}

/**
 * OPA's rows of `resource`'s model, when its get or a list of it asks OPA (`opa` cascading to
 * true on a route with a user): the rows the policy lets a user `get`.
 * @example opaRows(project, app, article) // { resource: "article", action: "get" } in the OPA example
 */
export function opaRows(project: ProjectConfig, app: ResolvedApp, resource: ResourceConfig): OpaRows | undefined {
  if (project.auth?.opa === undefined) return undefined;
  const reads = resource.operations.filter((entry) => entry.type === "get" || entry.type === "list");
  const asks = reads.some((entry) => {
    const levels = [entry, resource, app.config];
    return cascadedFrom(levels, project, "opa") === true && cascadedFrom(levels, project, "require_auth") !== false;
  });
  if (!asks) return undefined;
  return { resource: resource.name, action: resource.operations.find((entry) => entry.type === "get")?.name ?? "get" };
}

/**
 * Whether rows of `model` may be hidden from a user: a single object of it nested in another
 * resource is then `null` for whoever may not see it.
 * @example mayBeHidden(project, "blog.models.Article") // true in the authz example
 */
export function mayBeHidden(project: ProjectConfig, model: string): boolean {
  return visibilityRules(project).some((rule) => rule.model === model);
}
