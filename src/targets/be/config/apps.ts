// An app: one Python package of the generated backend (`{module}/`), holding resources and
// mounted at a URL prefix. `AppConfig` is what the package contains; `App` adds where it
// is mounted.

import { z } from "zod";
import { GroupList } from "./authz.js";
import { OpaSetting } from "./opa.js";
import { scoped } from "../../../codegen/index.js";
import { findDuplicates } from "./duplicates.js";
import { KilnVersion, callKilnsWay, inKilnFormat } from "./kiln.js";
import { MountPrefix, PythonName, maxBodySizeAt } from "./primitives.js";
import { recordDefaulted, wasDefaulted } from "./provenance.js";
import { checkReferences } from "./references.js";
import { ResourceConfig } from "./resources.js";
import { RateLimitSetting } from "./rate-limit.js";

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

/** The contents of an app package. */
export const AppConfig = z
  .strictObject({
    module: PythonName.meta({
      description: "The app's Python package in the generated tree (`{module}/schemas`, `{module}/routes`, …); unique within the project.",
      examples: ["blog"],
    }),
    resources: ResourceList.meta({ description: "The app's resources. Within an app, resource names and route prefixes are unique." }),
    generate_tests: z.boolean().optional().meta({
      description: "Generate tests for this app's endpoints (a resource's or operation entry's own value wins). Default: the project's `generate_tests`.",
    }),
    rate_limit: RateLimitSetting.optional(),
    require_auth: z.boolean().optional().meta({
      description:
        "Whether this app's handlers require an authenticated user, with `auth` only (a resource's or operation entry's own value wins). " +
        "Default: the project's `require_auth`.",
    }),
    max_body_size: maxBodySizeAt("this app's endpoints", "the project's"),
    groups: GroupList.optional(),
    opa: OpaSetting.optional(),
    version: KilnVersion,
  })
  .superRefine((app, ctx) => checkAppResources(app.resources, ctx, ["resources"]))
  .transform((app) => {
    if (inKilnFormat(app)) callKilnsWay(app.resources);
    return app;
  })
  .meta({ id: "AppConfig", description: "The contents of an app: one Python package of the generated backend." });

export type AppConfig = z.output<typeof AppConfig>;

/** An app and where it is mounted. */
export const App = z
  .strictObject({
    config: AppConfig.meta({ description: "The app's contents." }),
    prefix: MountPrefix.optional().meta({ description: "URL prefix of all the app's routes; unique within the project. Default: `/` and `config.module`." }),
  })
  .meta({
    id: "App",
    description: "An entry of `apps`: an app's contents (`config`) and where it is mounted.",
    examples: [
      {
        config: { module: "blog", resources: [{ model: "blog.models.Tag", fields: [{ name: "id", type: "uuid" }], operations: ["get"] }] },
        prefix: "/api/blog",
      },
    ],
  })
  .transform((app) =>
    recordDefaulted({ config: app.config, prefix: app.prefix ?? `/${app.config.module}` }, app.prefix === undefined ? ["prefix"] : []),
  );
export type App = z.output<typeof App>;
