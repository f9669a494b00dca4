// What the generated tests of one resource share: the app's conftest (`TestSuite`), the
// test file, the resource's URL, and how to find the key of a referenced resource. The
// conftest serves the app's own router with the error handlers on a fresh FastAPI app,
// reads the test database from `TEST_DATABASE_URL`, and binds every database's
// `get_session` to the test's connection.

import { type BuildContext, ImportCollector, Name, prefixImport } from "../../../codegen/index.js";
import type { ProjectConfig, ResolvedApp, ResolvedResource } from "../config/schema.js";
import { createBodyFields, createEntry } from "../config/references.js";
import { type ResourceView, resourceView, sessionModulePath } from "../resource.js";
import { TestSuite } from "../operations/types.js";
import { authSuite } from "./auth.js";
import type { ReferenceKeys } from "./samples.js";

/** The environment variable holding the test database's URL. */
export const TEST_DATABASE_URL_ENV = "TEST_DATABASE_URL";

/** Everything a resource's test builders need. */
export interface TestScope {
  view: ResourceView;
  app: ResolvedApp;
  project: ProjectConfig;
  suite: TestSuite;
  /** `{module}/tests/test_{name}.py`. */
  file: string;
  /** The resource's URL path: the app's prefix, then its route prefix. */
  path: string;
  /** Whether the conftest has `make_{name}` for this resource (it can be created through the API). */
  canCreate: boolean;
  keys: ReferenceKeys;
}

/** Whether any resource of `app` generates tests. */
export function appHasTests(app: ResolvedApp): boolean {
  return app.config.resources.some((resource) => resource.generate_tests);
}

/** Whether tests can create rows of `resource`: it has a create operation and its read shape shows its key. */
export function creatable(resource: ResolvedResource): boolean {
  return createEntry(resource) !== undefined && createBodyFields(resource) !== undefined && resource.fields.some((field) => field.name === resource.pk);
}

/** The test scope of the resource at or above `ctx`'s instance. */
export function testScope(ctx: BuildContext<ProjectConfig>): TestScope {
  const view = resourceView(ctx);
  const app = ctx.store.ancestorOf(view.id, "app") as ResolvedApp;
  const resources = app.config.resources;
  const keys: ReferenceKeys = (name) => {
    const target = resources.find((resource) => resource.name === name);
    if (target === undefined) throw new Error(`bug: references "${name}" passed the config checks but names no resource`);
    return { pk: target.pk, pkType: target.pk_type };
  };
  return {
    view,
    app,
    project: ctx.config,
    suite: testSuite(ctx.config, app, ctx.packagePrefix),
    file: `${app.config.module}/tests/test_${view.name}.py`,
    path: `${app.prefix}${view.routePrefix}`,
    canCreate: creatable(view.config as ResolvedResource),
    keys,
  };
}

// Every operation of an app asks for its suite: build it once per app (and prefix).
const suites = new WeakMap<ResolvedApp, Map<string, TestSuite>>();

/** The conftest of `app`. */
export function testSuite(project: ProjectConfig, app: ResolvedApp, packagePrefix: string): TestSuite {
  let byPrefix = suites.get(app);
  if (byPrefix === undefined) suites.set(app, (byPrefix = new Map()));
  let suite = byPrefix.get(packagePrefix);
  if (suite === undefined) byPrefix.set(packagePrefix, (suite = buildSuite(project, app, packagePrefix)));
  return suite;
}

function buildSuite(project: ProjectConfig, app: ResolvedApp, packagePrefix: string): TestSuite {
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
    .addFrom(prefixImport(packagePrefix, module, "routes"), "router")
    .addFrom(prefixImport(packagePrefix, "runtime", "errors"), "register_error_handlers");
  const context: Record<string, unknown> = {
    module,
    url_env: TEST_DATABASE_URL_ENV,
    metadata: metadataAssignment(app.config.resources, imports),
    overrides: sessionOverrides(project, app.config.resources, packagePrefix, imports),
    mount: project.single_app || app.prefix === "" ? "app.include_router(router)" : `app.include_router(router, prefix=${JSON.stringify(app.prefix)})`,
  };
  const auth = authSuite(project, packagePrefix, imports);
  if (auth !== undefined) context.auth = auth;
  return new TestSuite({ file: `${module}/tests/conftest.py`, context, imports });
}

// `METADATA = tuple(dict.fromkeys([Author.metadata, ...]))`: each distinct MetaData once,
// in config order. Class names that two model modules share are spelled with their module.
function metadataAssignment(resources: readonly ResolvedResource[], imports: ImportCollector): string {
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
  const keys = `dict.fromkeys([${expressions.join(", ")}])`;
  const flat = `METADATA = tuple(${keys})`;
  if (flat.length <= 88) return flat;
  if (`    ${keys}`.length <= 88) return `METADATA = tuple(\n    ${keys}\n)`;
  return ["METADATA = tuple(", "    dict.fromkeys(", "        [", ...expressions.map((expression) => `            ${expression},`), "        ]", "    )", ")"].join("\n");
}

// The `get_session` dependency of every database the app's resources use, imported under
// a name of its own when there are several.
function sessionOverrides(project: ProjectConfig, resources: readonly ResolvedResource[], packagePrefix: string, imports: ImportCollector): string[] {
  const modules = [...new Set(resources.map((resource) => sessionModulePath(project, resource.db_key).join(".")))];
  return modules.map((modulePath) => {
    const module = prefixImport(packagePrefix, modulePath);
    if (modules.length === 1) {
      imports.addFrom(module, "get_session");
      return "get_session";
    }
    const alias = `get_${modulePath.split(".").pop()}`;
    imports.addFrom(module, `get_session as ${alias}`);
    return alias;
  });
}
