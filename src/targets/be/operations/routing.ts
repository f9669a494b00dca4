// `router` (app scope) aggregates the app's resource routers into `{module}/routes/__init__.py`;
// `project_router` (project scope, multi-app projects only) mounts every app's router at
// the app's prefix in the top-level `routes/__init__.py`. A single app applies its prefix
// to its own router.

import { type BuildContext, prefixImport, operation } from "../../../codegen/index.js";
import type { App, ProjectConfig } from "../config/schema.js";
import { RouterMount } from "./types.js";

@operation("router", { scope: "app" })
export class Router {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const app = ctx.instance as App;
    const file = `${app.config.module}/routes/__init__.py`;
    const prefix = ctx.config.single_app ? app.prefix : "";
    return app.config.resources.map(
      (resource) =>
        new RouterMount({
          file,
          module: prefixImport(ctx.packagePrefix, app.config.module, "routes", resource.name),
          alias: `${resource.name}_router`,
          routerPrefix: prefix,
          doc: `All routes of the \`\`${app.config.module}\`\` app, under one router.`,
        }),
    );
  }
}

@operation("project_router", { scope: "project" })
export class ProjectRouter {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return !ctx.config.single_app;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return ctx.config.apps.map(
      (app) =>
        new RouterMount({
          file: "routes/__init__.py",
          module: prefixImport(ctx.packagePrefix, app.config.module, "routes"),
          alias: `${app.config.module}_router`,
          prefix: app.prefix,
          doc: "Every app's routes, each under its prefix.",
        }),
    );
  }
}
