// What the generated tests of one app share: its `conftest.py` (`Conftest`), which serves
// the app's own router with the error handlers on a fresh FastAPI app, reads the test
// database from `TEST_DATABASE_URL`, and binds every database's `get_session` to the
// test's connection. Whether an entry, resource or app has tests follows the cascade.

import { type BuildContext, type BuildStore, ImportCollector, Name, prefixImport } from "../../../../codegen/index.js";
import { cascaded } from "../../cascade.js";
import { createBodyFields } from "../../config/references.js";
import type { OperationConfig, ProjectConfig, ResolvedApp, ResourceConfig } from "../../config/schema.js";
import { pythonString } from "../../python/literals.js";
import { databaseOf, sessionModulePath } from "../../resource.js";
import { Indexes } from "../indexes/indexes.js";
import { RateLimitsModule } from "../rate_limit/rate-limits.js";
import { authSuite } from "./auth.js";
import { visibilitySuite } from "./visibility.js";
import { Conftest } from "./outputs.js";

/** The environment variable holding the test database's URL. */
export const TEST_DATABASE_URL_ENV = "TEST_DATABASE_URL";

// Asked at every instance of an app: answered once per app and build.
const appsWithTests = new WeakMap<BuildStore, Map<string, boolean>>();

/** Whether any entry of the app at or above `instanceId` generates tests. */
export function appHasTests(store: BuildStore, instanceId: string, project: ProjectConfig): boolean {
  const appId = store.ancestorIdOf(instanceId, "app")!;
  let known = appsWithTests.get(store);
  if (!known) appsWithTests.set(store, (known = new Map()));
  let has = known.get(appId);
  if (has === undefined) {
    has = store.children(appId, { childScope: "resource" }).some(([resourceId]) =>
      store.children(resourceId, { childScope: "operation" }).some(([entryId]) => cascaded(store, entryId, project, "generate_tests")),
    );
    known.set(appId, has);
  }
  return has;
}

/** Whether tests can create rows of `resource` through `entry`, its entry whose route creates rows (if any): its body parses and its read shape shows the key. */
export function creatable(resource: ResourceConfig, entry: OperationConfig | undefined): boolean {
  return createBodyFields(resource, entry) !== undefined && resource.fields.some((field) => field.name === resource.pk);
}

/** The conftest of the app at `ctx`'s instance. */
export function buildConftest(ctx: BuildContext<ProjectConfig>): Conftest {
  const project = ctx.config;
  const app = ctx.instance as ResolvedApp;
  const module = app.config.module;
  const imports = new ImportCollector()
    .add("os")
    .add("uuid")
    .addFrom("collections.abc", "AsyncIterator", "Awaitable", "Callable")
    .addFrom("typing", "Any")
    .add("pytest")
    .add("pytest_asyncio")
    .addFrom("contextlib", "asynccontextmanager")
    .addFrom("fastapi", "FastAPI")
    .addFrom("httpx", "ASGITransport", "AsyncClient")
    .addFrom("sqlalchemy.ext.asyncio", "AsyncConnection", "AsyncEngine", "AsyncSession", "create_async_engine")
    .addFrom(prefixImport(ctx.packagePrefix, module, "routes"), "router")
    .addFrom(prefixImport(ctx.packagePrefix, "runtime", "errors"), "register_error_handlers");
  const context: Record<string, unknown> = {
    module,
    url_env: pythonString(TEST_DATABASE_URL_ENV),
    url_env_name: TEST_DATABASE_URL_ENV,
    metadata: metadataAssignment(app.config.resources, imports),
    overrides: sessionOverrides(project, app.config.resources, ctx.packagePrefix, imports),
    mount: project.single_app || app.prefix === "" ? "app.include_router(router)" : `app.include_router(router, prefix=${pythonString(app.prefix)})`,
    auth: authSuite(project, ctx.packagePrefix, imports) ?? false,
    visibility: visibilitySuite(project, ctx.store, ctx.packagePrefix, imports) ?? false,
  };
  const indexes = ctx.store.outputUnderAncestor(ctx.instanceId, "project", Indexes);
  const rateLimits = ctx.store.outputUnderAncestor(ctx.instanceId, "project", RateLimitsModule);
  return new Conftest({ path: `${module}/tests/conftest.py`, context, imports, indexes, rateLimits });
}

// `METADATA = tuple(dict.fromkeys([Author.metadata, ...]))`: each distinct MetaData once,
// in config order. Class names that two model modules share are spelled with their module.
function metadataAssignment(resources: readonly ResourceConfig[], imports: ImportCollector): string {
  const models = [...new Set(resources.map((resource) => resource.model))];
  const parsed = models.map((model) => Name.fromDotted(model));
  const classes = parsed.map(([, name]) => name.pascal);
  const clash = new Set(classes).size !== classes.length;
  const expressions = parsed.map(([modelModule, name]) => {
    if (clash) {
      imports.add(modelModule);
      return `${modelModule}.${name.pascal}.metadata`;
    }
    imports.addFrom(modelModule, name.pascal);
    return `${name.pascal}.metadata`;
  });
  return `METADATA = tuple(dict.fromkeys([${expressions.join(", ")}]))`;
}

// The session dependencies of every database the app's resources use (`get_session`, and
// `get_read_session`, which its read routes take), imported under names of their own when
// there are several databases.
function sessionOverrides(project: ProjectConfig, resources: readonly ResourceConfig[], packagePrefix: string, imports: ImportCollector): string[] {
  const keys = [...new Set(resources.map((resource) => databaseOf(project, resource.db_key).key))];
  return keys.flatMap((key) => {
    const module = prefixImport(packagePrefix, ...sessionModulePath(project, key));
    return ["get_session", "get_read_session"].map((dependency) => {
      if (keys.length === 1) {
        imports.addFrom(module, dependency);
        return dependency;
      }
      // `get_analytics_session`, `get_analytics_read_session`
      const alias = dependency.replace(/^get_/, `get_${key}_`);
      imports.addFrom(module, `${dependency} as ${alias}`);
      return alias;
    });
  });
}
