// `Scaffold` (project scope): the database package (one session module per database,
// SPEC's default-database rule) and the runtime helpers generated handlers import.
// `AuthScaffold` (project scope, only with `auth`): the `auth/` package, for the generated
// JWT flow or for the user's own `get_current_user_fn` (see `auth-package.ts`).

import { type BuildContext, ImportCollector, StaticFile, operation } from "../../../codegen/index.js";
import type { ProjectConfig } from "../config/schema.js";
import { sessionModulePath } from "../resource.js";
import { authPackage } from "./auth-package.js";

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
        // Laid out by the Python import formatter: a long package prefix wraps the names.
        reexport: new ImportCollector()
          .addFrom([ctx.packagePrefix, ...defaultModule].filter(Boolean).join("."), "SessionDep", "get_engine", "get_session", "get_sessionmaker")
          .format("python"),
        databases: project.databases.map((database) => database.key),
      },
    });
    const runtime = RUNTIME_MODULES.map((name) => new StaticFile({ path: `runtime/${name}.py`, template: `runtime/${name}.py.njk` }));
    return [dbInit, ...sessions, ...runtime];
  }
}

@operation("auth_scaffold", { scope: "project" })
export class AuthScaffold {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.auth !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return authPackage(ctx.config.auth!, ctx.packagePrefix);
  }
}
