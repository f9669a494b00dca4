// `router` (app scope) gathers the routes of the app's resource routers into
// `{module}/routes/__init__.py`; `project_router` (project scope, multi-app projects only)
// mounts every app's router at the app's prefix in the top-level `routes/__init__.py`. A
// single app's prefix is in its resource routers' own prefixes (modules/routes.ts).
// The top-level router (the single app's, or the project's) is the whole API, as kiln's
// project router is: it also includes the auth package's router and the error handlers'
// (runtime/errors.py), so `app.include_router(router)` alone serves login and answers
// database errors with their statuses.

import { type BuildContext, prefixImport, operation } from "../../../../codegen/index.js";
import type { App, ProjectConfig } from "../../config/schema.js";
import { DatabaseModule } from "../database/database.js";
import { Discovery } from "../discovery/discovery.js";
import { PolicyRouter } from "../opa/opa.js";
import { AggregateRouter, type ProjectRouterSource, type RouterMount } from "./aggregate.js";

@operation("router", { scope: "app" })
export class Router {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const app = ctx.instance as App;
    return [
      new AggregateRouter({
        path: `${app.config.module}/routes/__init__.py`,
        doc: `All routes of the \`\`${app.config.module}\`\` app, under one router.`,
        merged: app.config.resources.map((resource) => ({
          module: prefixImport(ctx.packagePrefix, app.config.module, "routes", resource.name),
          alias: `${resource.name}_router`,
        })),
        mounts: ctx.config.single_app ? rootMounts(ctx) : [],
        projectRouters: ctx.config.single_app ? projectRouters(ctx) : [],
        projectPrefix: ctx.config.single_app ? app.prefix : "",
      }),
    ];
  }
}

@operation("project_router", { scope: "project" })
export class ProjectRouter {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return !ctx.config.single_app;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [
      new AggregateRouter({
        path: "routes/__init__.py",
        doc: "Every app's routes, each under its prefix.",
        mounts: [
          ...ctx.config.apps.map((app) => ({
            module: prefixImport(ctx.packagePrefix, app.config.module, "routes"),
            alias: `${app.config.module}_router`,
            prefix: app.prefix,
          })),
          ...rootMounts(ctx),
        ],
        projectRouters: projectRouters(ctx),
      }),
    ];
  }
}

/** The routers the top-level router includes whatever the apps' prefixes: the auth package's (its paths are the config's own), the error handlers'. */
function rootMounts(ctx: BuildContext<ProjectConfig>): RouterMount[] {
  const auth = ctx.config.auth === undefined ? [] : [{ module: prefixImport(ctx.packagePrefix, "auth", "router"), alias: "auth_router", prefix: "" }];
  return [...auth, { module: prefixImport(ctx.packagePrefix, "runtime", "errors"), alias: "errors_router", prefix: "" }];
}

/** The project's own routers the top-level router includes: filter discovery, the OPA policy's, then the database check's. */
function projectRouters(ctx: BuildContext<ProjectConfig>): ProjectRouterSource[] {
  return [
    ctx.store.outputUnderAncestor(ctx.instanceId, "project", Discovery),
    ...ctx.store.outputsUnderAncestor(ctx.instanceId, "project", PolicyRouter),
    ...ctx.store.outputsUnderAncestor(ctx.instanceId, "project", DatabaseModule),
  ];
}
