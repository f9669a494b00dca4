// The project's row visibility rules as the generator reads them: one per model, from the
// resources' `visible` (config validation refuses two different ones for a model). The
// `row_visibility` operation writes them; sessions, auth, discovery and read shapes adapt.

import type { ProjectConfig } from "./config/schema.js";

/** One model's rule: the model's dotted path and the function that says which rows a user sees. */
export interface VisibilityRule {
  model: string;
  fn: string;
}

/**
 * The visibility rules of the project, one per model, in config order.
 * @example visibilityRules(project) // [{ model: "blog.models.Article", fn: "blog.authz.visible_articles" }]
 */
export function visibilityRules(project: ProjectConfig): VisibilityRule[] {
  const rules = new Map<string, string>();
  for (const app of project.apps) for (const resource of app.config.resources) if (resource.visible !== undefined && !rules.has(resource.model)) rules.set(resource.model, resource.visible);
  return [...rules].map(([model, fn]) => ({ model, fn }));
}

/**
 * Whether rows of `model` may be hidden from a user: a single object of it nested in another
 * resource is then `null` for whoever may not see it.
 * @example mayBeHidden(project, "blog.models.Article") // true in the authz example
 */
export function mayBeHidden(project: ProjectConfig, model: string): boolean {
  return visibilityRules(project).some((rule) => rule.model === model);
}
