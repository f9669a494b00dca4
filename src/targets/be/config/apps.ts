// An app: one Python package of the generated backend (`{module}/`), holding resources and
// mounted at a URL prefix. `AppConfig` is what the package contains; `App` adds where it
// is mounted.

import { z } from "zod";
import { scoped } from "../../../codegen/index.js";
import { findDuplicates } from "./duplicates.js";
import { MountPrefix, PythonName } from "./primitives.js";
import { recordDefaulted, wasDefaulted } from "./provenance.js";
import { checkReferences } from "./references.js";
import { ResourceConfig } from "./resources.js";

/**
 * Adds an issue for each resource of one app whose name or route prefix an earlier one
 * already uses, and for each bad `references` (see `checkReferences`). `path` leads to the
 * resources list; a clash of derived values is reported at `model`, the key they were
 * derived from.
 */
export function checkAppResources(resources: readonly ResourceConfig[], ctx: z.RefinementCtx, path: readonly PropertyKey[]): void {
  const listName = String(path[path.length - 1] ?? "resources");
  for (const key of ["name", "route_prefix"] as const) {
    for (const duplicate of findDuplicates(resources, (resource) => resource[key])) {
      const derived = wasDefaulted(duplicate.item, key);
      const what = key === "name" ? "resource name" : "route prefix";
      ctx.addIssue({
        code: "custom",
        path: [...path, duplicate.index, derived ? "model" : key],
        message:
          `${what} "${duplicate.key}"${derived ? " (derived from the model)" : ""} is already used by ` +
          `${listName}[${duplicate.first}]; set ${key} to tell them apart`,
      });
    }
  }
  checkReferences(resources, ctx, path);
}

/** The resources of an app: a scope, so resource operations run once per resource. */
export const ResourceList = scoped("resource", z.array(ResourceConfig).min(1, "must list at least one resource"));

/**
 * The contents of an app package.
 * @example { module: "blog", resources: [{ model: "blog.models.Article", fields: [...], operations: ["get"] }] }
 */
export const AppConfig = z
  .strictObject({
    /** Python package of the app in the generated tree (`{module}/schemas`, `{module}/routes`, …). @example "blog" */
    module: PythonName,
    /** The app's resources. Non-empty. */
    resources: ResourceList,
    /** Emit tests for the app's resources (a resource's or operation's own value wins). @default the project's `generate_tests` */
    generate_tests: z.boolean().optional(),
    /** Whether the app's handlers require an authenticated user (a resource's or operation's own value wins). @default the project's `require_auth` */
    require_auth: z.boolean().optional(),
  })
  .superRefine((app, ctx) => checkAppResources(app.resources, ctx, ["resources"]));
export type AppConfig = z.output<typeof AppConfig>;

/**
 * An app and where it is mounted.
 * @example { config: { module: "blog", resources: [...] }, prefix: "/blog" }
 */
export const App = z
  .strictObject({
    /** The app's contents. */
    config: AppConfig,
    /** URL prefix the app's routes are mounted at: `""` or a path without a trailing `/`. @default "/" + config.module */
    prefix: MountPrefix.optional(),
  })
  .transform((app) =>
    recordDefaulted({ config: app.config, prefix: app.prefix ?? `/${app.config.module}` }, app.prefix === undefined ? ["prefix"] : []),
  );
export type App = z.output<typeof App>;
