// What every instance of a build asks of the whole project (which names several apps or
// resources share) is derived once per project config, not once per asking instance: over
// 1,000 resources, a scan of the project per resource is quadratic.

import type { ProjectConfig } from "./config/schema.js";

/** `derive`, run on a project config once and remembered as long as the config lives. */
export function perProject<T>(derive: (project: ProjectConfig) => T): (project: ProjectConfig) => T {
  const derived = new WeakMap<ProjectConfig, T>();
  return (project) => {
    if (!derived.has(project)) derived.set(project, derive(project));
    return derived.get(project)!;
  };
}
