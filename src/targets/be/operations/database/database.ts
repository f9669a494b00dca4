// `database` (project scope): `database.py`, everything the generated code queries, in one
// place. Per database, the `MetaData` of its tables (the models its resources serve, the
// runtime's `idempotency_keys`; in the default database, the rate-limit counters, revoked
// tokens, comms outbox and saved views the build uses) with the lists' indexes attached (importing `indexes.py` attaches them) and, first, the extensions they
// use. Alembic's env compares a database with it; its router's lifespan checks the
// databases at startup; readiness asks the same `DATABASES`.

import { type BuildContext, FileFragment, type Fragment, ImportCollector, PROJECT, type RenderCtx, StaticFile, operation, prefixImport } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { ProjectNames } from "../../modules/project-names.js";
import { docstringText, pythonString } from "../../python/literals.js";
import { sessionModulePath } from "../../resource.js";
import { Indexes } from "../indexes/indexes.js";
import { RateLimitsModule } from "../rate_limit/rate-limits.js";

/** The module's doc: what it holds and who reads it. */
const DOC =
  "Everything the generated routes query, per database: tables, indexes, extensions.\n\n" +
  "``METADATA`` (the default database's) lists the extensions the queries use, then the\n" +
  "tables of the models and of the runtime (``idempotency_keys``…), with the indexes the\n" +
  "lists rely on. Alembic's ``env.py`` compares the database with it, so\n" +
  "``alembic revision --autogenerate`` writes all of it; ``create_all`` of each creates it.\n" +
  "Including ``router`` in the application checks ``DATABASES`` at startup: it refuses to\n" +
  "start while one lacks something, saying what and which command creates it.";

/** `database.py`; included by the top-level router (its lifespan checks the databases). */
export class DatabaseModule {
  readonly path = "database.py";
  readonly alias = "database_router";
  readonly #project: ProjectConfig;
  readonly #packagePrefix: string;

  constructor(project: ProjectConfig, packagePrefix: string) {
    this.#project = project;
    this.#packagePrefix = packagePrefix;
  }

  /** The module's dotted path. */
  get dotted(): string {
    return prefixImport(this.#packagePrefix, "database");
  }

  /** Always: every tree has its database module. */
  usedIn(): boolean {
    return true;
  }

  render(ctx: RenderCtx): Fragment[] {
    const project = this.#project;
    const runtime = prefixImport(this.#packagePrefix, "runtime");
    const imports = new ImportCollector()
      .addFrom("fastapi", "APIRouter")
      .addFrom(`${runtime}.database`, "DatabaseNeeds", "check_at_startup")
      .addFrom(runtime, "idempotency");
    const names = new ProjectNames(project, this.#packagePrefix, imports);
    // One EXTENSIONS for the project: a database without a trigram search gets pg_trgm too.
    const indexes = ctx.store.outputsUnder(PROJECT.name, Indexes)[0];
    const extensions = indexes?.usedIn(ctx.store) ?? false;
    if (extensions) imports.addFrom(indexes!.dotted, "EXTENSIONS").addFrom(`${runtime}.database`, "extensions_metadata");
    const single = project.databases.length === 1;
    const databases = project.databases.map((database) => {
      const resources = project.apps.flatMap((app) => app.config.resources).filter((resource) => (resource.db_key ?? defaultKey(project)) === database.key);
      const models = [...new Map(resources.map((resource) => [resource.model, resource])).values()].map((resource) => `${names.model(resource)}.metadata`);
      const tables = ["idempotency.metadata"];
      // The project-wide runtime tables live in the default database, where their helpers look.
      if (database.default) {
        for (const helper of projectRuntimeTables(ctx)) {
          imports.addFrom(runtime, helper);
          tables.push(`${helper}.metadata`);
        }
      }
      const module = prefixImport(this.#packagePrefix, ...sessionModulePath(project, database.key));
      const engine = single ? "get_engine" : `get_${database.key}_engine`;
      imports.addFrom(module, single ? "get_engine" : `get_engine as ${engine}`);
      // Closed with the primary's pool at shutdown.
      const replicas = single ? "REPLICAS" : `${database.key.toUpperCase()}_REPLICAS`;
      if (database.replicas) imports.addFrom(module, single ? "REPLICAS" : `REPLICAS as ${replicas}`);
      const parts = [...(extensions ? ["extensions_metadata(EXTENSIONS)"] : []), ...(models.length > 0 ? [`*dict.fromkeys([${models.join(", ")}])`] : []), ...tables];
      return {
        name: database.default ? "METADATA" : `${database.key.toUpperCase()}_METADATA`,
        key: database.key,
        value: `(${parts.join(", ")})`,
        engine,
        url_env: pythonString(database.url_env),
        replica_engines: database.replicas ? `${replicas}.engines` : undefined,
      };
    });
    return [new FileFragment({ path: this.path, template: "operations/database/database.py.njk", context: { doc: docstringText(DOC), databases }, imports })];
  }
}

/** The runtime helpers with tables of their own in the tree: rate-limit counters, revoked tokens, the comms outbox, saved views. */
function projectRuntimeTables(ctx: RenderCtx): string[] {
  const copied = new Set(ctx.store.outputsUnder(PROJECT.name, StaticFile).map((file) => file.path));
  // The rate-limits module copies its helper when it renders; other operations copy theirs when they build.
  const limited = ctx.store.outputsUnder(PROJECT.name, RateLimitsModule).some((module) => module.usedIn(ctx.store));
  return ["rate_limit", "revocation", "comms", "saved_views"].filter((helper) => copied.has(`runtime/${helper}.py`) || (helper === "rate_limit" && limited));
}

function defaultKey(project: ProjectConfig): string {
  return project.databases.find((database) => database.default)!.key;
}

@operation("database", { scope: "project" })
export class DatabaseOperation {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [new DatabaseModule(ctx.config, ctx.packagePrefix)];
  }
}
