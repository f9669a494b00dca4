// `scaffold` (project scope): the database package (one session module per database,
// SPEC's default-database rule) and the runtime helpers generated handlers import. With one
// database, `db/session.py` re-exports its names too, as `db/__init__.py` does: the module
// path of one-database trees before the session modules were named by key. The
// helpers are real Python modules in `src/targets/be/runtime/`, linted, type-checked and
// tested on their own, and copied into every generated tree as they are.

import { type BuildContext, ImportCollector, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import { type ProjectConfig, authzKeysUsed, hooksUsed } from "../../config/schema.js";
import { sessionModulePath } from "../../resource.js";
import { runtimeHelperFile } from "../../runtime-source.js";
import { visibilityRules } from "../../row-visibility.js";
import { visibilityModule } from "../visibility/visibility.js";

/** Runtime helpers copied into every generated tree, under `runtime/` (`authz` into those that authorize, `hooks` into those with hooks, `replicas` into those with read replicas). */
const RUNTIME_MODULES = ["actions", "database", "discovery", "errors", "filters", "idempotency", "indexes", "migrations", "ordering", "pagination", "pool_check", "pool_queue", "proxies", "queue", "responses", "search", "server", "shutdown", "statement_timeout", "values"] as const;

@operation("scaffold", { scope: "project" })
export class Scaffold {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const project = ctx.config;
    const defaultDatabase = project.databases.find((database) => database.default)!;
    const sessions = project.databases.map((database) => {
      const modulePath = sessionModulePath(project, database.key);
      return new StaticFile({
        path: `${modulePath.join("/")}.py`,
        template: "operations/scaffold/db/session.py.njk",
        context: {
          database,
          visibility: visibilityModule(project, ctx.store, ctx.packagePrefix),
          visibility_on_first_use: visibilityRules(project, ctx.store).some((rule) => rule.opa !== undefined),
          runtime: prefixImport(ctx.packagePrefix, "runtime"),
          // Behind PgBouncer in transaction pooling the statement timeout rides on each
          // transaction's BEGIN, so reads keep theirs; elsewhere they run in autocommit.
          read_transactions: database.transaction_pooling && database.statement_timeout > 0,
          timeout_ms: Math.round(database.statement_timeout * 1000),
        },
      });
    });
    const defaultModule = sessionModulePath(project, defaultDatabase.key);
    const reexports = (path: string) =>
      new StaticFile({
        path,
        template: "operations/scaffold/db/__init__.py.njk",
        context: {
          // Laid out by the Python import formatter: a long package prefix wraps the names.
          reexport: new ImportCollector()
            .addFrom(prefixImport(ctx.packagePrefix, ...defaultModule), "SessionDep", "get_engine", "get_session", "get_sessionmaker")
            .format("python"),
          databases: project.databases.map((database) => database.key),
        },
      });
    const dbInit = [reexports("db/__init__.py"), ...(project.databases.length === 1 ? [reexports("db/session.py")] : [])];
    // The authorization and hook helpers only where some route uses them, so other trees stay as they were.
    const modules: string[] = [...RUNTIME_MODULES];
    if (authzKeysUsed(project.apps).size > 0) modules.push("authz");
    if (hooksUsed(project.apps)) modules.push("hooks");
    if (project.databases.some((database) => database.replicas)) modules.push("replicas");
    const runtime = modules.map((name) => new StaticFile(runtimeHelperFile(name)));
    return [...dbInit, ...sessions, ...runtime];
  }
}
