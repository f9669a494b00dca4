// `Scaffold` (project scope): the database package (one session module per database,
// SPEC's default-database rule) and the runtime helpers generated handlers import.

import { type BuildContext, StaticFile, operation } from "../../../codegen/index.js";
import type { ProjectConfig } from "../config/schema.js";
import { sessionModulePath } from "../resource.js";

/** Runtime helpers copied into every generated tree, under `runtime/`. */
const RUNTIME_MODULES = ["actions", "errors", "pagination", "queue"] as const;

@operation("scaffold", { scope: "project" })
export class Scaffold {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const project = ctx.config;
    const defaultDatabase = project.databases.find((database) => database.default)!;
    const sessions = project.databases.map((database) => {
      const modulePath = sessionModulePath(project, database.key);
      return new StaticFile({
        path: `${modulePath.join("/")}.py`,
        template: "db/session.py.njk",
        context: { database, single: project.databases.length === 1 },
      });
    });
    const defaultModule = sessionModulePath(project, defaultDatabase.key);
    const dbInit = new StaticFile({
      path: "db/__init__.py",
      template: "db/__init__.py.njk",
      context: {
        default_module: [ctx.packagePrefix, ...defaultModule].filter(Boolean).join("."),
        databases: project.databases.map((database) => database.key),
      },
    });
    const runtime = RUNTIME_MODULES.map((name) => new StaticFile({ path: `runtime/${name}.py`, template: `runtime/${name}.py.njk` }));
    return [dbInit, ...sessions, ...runtime];
  }
}
