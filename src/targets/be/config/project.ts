// The root of a `be` config. A project lists `apps`, or uses the single-app shorthand
// (`module`, `resources`, `prefix` at the top). Either way the output has `apps`, every
// default resolved, and — for the shorthand — `sourcePath` marks so errors name the paths
// the user wrote (`resources[2]`, not `apps[0].config.resources[2]`).

import { z } from "zod";
import { checkAuthz } from "./authz.js";
import { UserTemplatesConfig, scoped, sourcePath } from "../../../codegen/index.js";
import { App, checkAppResources } from "./apps.js";
import { AuthConfig } from "./auth.js";
import { DatabaseConfig } from "./database.js";
import { findDuplicates } from "./duplicates.js";
import { KilnFramework, KilnVersion, ProjectRateLimit, callKilnsWay, inKilnFormat } from "./kiln.js";
import { DEFAULT_MAX_BODY_SIZE, MountPrefix, PackagePath, PythonName } from "./primitives.js";
import { TrustedProxy } from "./rate-limit.js";
import { TelemetryConfig } from "./telemetry.js";
import { ProjectComms, isKilnComms } from "./comms.js";
import { CorsConfig } from "./cors.js";
import { wasDefaulted } from "./provenance.js";
import { ResourceConfig } from "./resources.js";

/** The apps of a project: a scope, so app operations run once per app. */
export const AppList = scoped("app", z.array(App).min(1, "must list at least one app"));

const SHORTHAND_KEYS = ["module", "resources", "prefix"] as const;

const ProjectObject = z
  .strictObject({
    package_prefix: PackagePath.optional().meta({
      description:
        "Package the generated tree lives in; prefixes every generated import. Default: `\"\"` (the tree's modules are top-level " +
        "packages); in a project written in kiln's format (its `version: \"1\"`, or every app's), kiln's `\"_generated\"`.",
      examples: ["backend.api"],
    }),
    databases: z
      .array(DatabaseConfig)
      .optional()
      .meta({
        description:
          "The database connections; exactly one has `default: true`, and keys are unique. " +
          'Default: one database `{ key: "default", default: true }`, read from `DATABASE_URL`.',
      }),
    auth: AuthConfig.optional().meta({
      description: "Authentication (docs/auth.md). When set, an `auth/` package is generated and handlers get a `current_user` dependency.",
    }),
    generate_tests: z.boolean().default(false).meta({
      description:
        "Generate `{module}/tests/test_{name}.py` for every endpoint (docs/testing.md); apps, resources and operation entries may override it.",
    }),
    require_auth: z.boolean().default(true).meta({
      description:
        "Whether handlers require an authenticated user when `auth` is set; apps, resources and operation entries may override it.",
    }),
    resource_registry: z
      .strictObject({
        require_auth: z.boolean().optional().meta({
          description:
            "Whether the discovery routes (`/_filters`, `/_values`) require an authenticated user; `true` needs `auth`. Default: the project's `require_auth`.",
        }),
      })
      .optional()
      .meta({ description: "kiln's settings of the project-wide discovery routes (docs/be.md, Discovery)." }),
    max_body_size: z
      .int()
      .min(1, "must be a positive number of bytes")
      .default(DEFAULT_MAX_BODY_SIZE)
      .meta({
        description:
          "Largest request body, in bytes, of every endpoint that reads one (create, update, actions with params); a longer " +
          "one is answered 413 before it is read further. Apps, resources and operation entries may override it. Default: 1 MiB.",
        examples: [10_485_760],
      }),
    idempotency_expiry: z
      .int()
      .min(1, "must be a positive number of seconds")
      .default(86_400)
      .meta({
        description:
          "Seconds an `Idempotency-Key` is remembered: a `POST` (create or action) retried with the same key within this time " +
          "gets the first answer again and changes nothing. The keys live in the table `idempotency_keys` of " +
          "`runtime/idempotency.py`'s `metadata` (add it to your migrations). Default: one day.",
        examples: [3600],
      }),
    user_templates: UserTemplatesConfig.optional(),
    rate_limit: ProjectRateLimit.optional(),
    telemetry: TelemetryConfig.optional().meta({ description: "OpenTelemetry (docs/telemetry.md). Default: none, and no telemetry code." }),
    cors: CorsConfig.optional().meta({
      description: "Cross-origin requests from browsers (docs/auth.md, CORS). Default: none, and no CORS code.",
    }),
    comms: ProjectComms.optional(),
    trusted_proxies: z.array(TrustedProxy).default([]).meta({
      description:
        "Proxies whose `X-Forwarded-For` a rate limit keyed by `\"ip\"` believes: the client is the rightmost address no trusted " +
        "proxy holds. It alone decides the client address, whatever uvicorn's `--forwarded-allow-ips` says (docs/rate-limits.md). " +
        "Default: none (the peer's address is the client's).",
      examples: [["10.0.0.0/8"]],
    }),
    apps: AppList.optional().meta({
      description: "The apps of a multi-app project; app modules and app prefixes are unique. Not with `module`, `resources` or `prefix`.",
    }),
    module: PythonName.optional().meta({ description: "Single-app shorthand: the app's Python package. Requires `resources`.", examples: ["blog"] }),
    resources: z
      .array(ResourceConfig)
      .min(1, "must list at least one resource")
      .optional()
      .meta({ description: "Single-app shorthand: the app's resources. Requires `module`." }),
    prefix: MountPrefix.optional().meta({
      description: 'Single-app shorthand: the URL prefix of every route. Default: `""` (routes at the root, e.g. `/articles`).',
    }),
    version: KilnVersion,
    framework: KilnFramework,
  })
  .meta({
    description:
      "A `be` project: databases, optional auth, and its apps; give either `apps` or the single-app shorthand " +
      "`module` + `resources` (+ `prefix`), never both.",
    examples: [
      {
        package_prefix: "backend",
        module: "blog",
        resources: [{ model: "blog.models.Article", fields: [{ name: "id", type: "uuid" }], operations: ["get"] }],
      },
    ],
  });
type ProjectObject = z.output<typeof ProjectObject>;

/** A project-level check's view of one app's resources and the config path they sit at. */
interface ResourcesAt {
  resources: readonly ResourceConfig[];
  path: readonly PropertyKey[];
}

function resourceLists(project: ProjectObject): ResourcesAt[] {
  const lists: ResourcesAt[] = (project.apps ?? []).map((app, index) => ({
    resources: app.config.resources,
    path: ["apps", index, "config", "resources"],
  }));
  if (project.resources) lists.push({ resources: project.resources, path: ["resources"] });
  return lists;
}

function checkShape(project: ProjectObject, ctx: z.RefinementCtx): void {
  if (project.apps !== undefined) {
    for (const key of SHORTHAND_KEYS) {
      if (project[key] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "not allowed with apps: module, resources and prefix are the single-app shorthand; move them into an app",
        });
      }
    }
  } else if (project.module === undefined && project.resources === undefined) {
    ctx.addIssue({ code: "custom", path: ["apps"], message: "required: list apps, or give module and resources for a single app" });
  } else if (project.resources === undefined) {
    ctx.addIssue({ code: "custom", path: ["resources"], message: "required with module (single-app shorthand): the app's resources" });
  } else if (project.module === undefined) {
    ctx.addIssue({ code: "custom", path: ["module"], message: "required with resources (single-app shorthand): the app's Python package" });
  }
}

function checkDatabases(databases: readonly DatabaseConfig[], ctx: z.RefinementCtx): void {
  const defaults = databases.flatMap((database, index) => (database.default ? [index] : []));
  if (defaults.length === 0) {
    ctx.addIssue({ code: "custom", path: ["databases"], message: "no default database: mark one with default: true" });
  }
  for (const index of defaults.slice(1)) {
    ctx.addIssue({
      code: "custom",
      path: ["databases", index, "default"],
      message: `only one database may be the default; databases[${defaults[0]}] already is`,
    });
  }
  for (const duplicate of findDuplicates(databases, (database) => database.key)) {
    ctx.addIssue({
      code: "custom",
      path: ["databases", duplicate.index, "key"],
      message: `duplicate database key "${duplicate.key}" (already used by databases[${duplicate.first}])`,
    });
  }
}

function checkDbKeys(project: ProjectObject, ctx: z.RefinementCtx): void {
  const keys = (project.databases ?? [defaultDatabase()]).map((database) => database.key);
  const known = keys.map((key) => `"${key}"`).join(", ");
  for (const { resources, path } of resourceLists(project)) {
    resources.forEach((resource, index) => {
      if (resource.db_key !== undefined && !keys.includes(resource.db_key)) {
        ctx.addIssue({
          code: "custom",
          path: [...path, index, "db_key"],
          message: `unknown database "${resource.db_key}"; known databases: ${known}`,
        });
      }
    });
  }
  const comms = project.comms;
  if (comms !== undefined && isKilnComms(comms) && comms.db_key !== undefined && !keys.includes(comms.db_key)) {
    ctx.addIssue({ code: "custom", path: ["comms", "db_key"], message: `unknown database "${comms.db_key}"; known databases: ${known}` });
  }
}

function checkApps(apps: readonly App[], ctx: z.RefinementCtx): void {
  for (const duplicate of findDuplicates(apps, (app) => app.config.module)) {
    ctx.addIssue({
      code: "custom",
      path: ["apps", duplicate.index, "config", "module"],
      message: `duplicate app module "${duplicate.key}" (already used by apps[${duplicate.first}])`,
    });
  }
  for (const duplicate of findDuplicates(apps, (app) => app.prefix)) {
    const derived = wasDefaulted(duplicate.item, "prefix");
    ctx.addIssue({
      code: "custom",
      path: derived ? ["apps", duplicate.index, "config", "module"] : ["apps", duplicate.index, "prefix"],
      message: `app prefix "${duplicate.key}"${derived ? " (derived from the module)" : ""} is already used by apps[${duplicate.first}]; set prefix to tell them apart`,
    });
  }
}

function defaultDatabase(): DatabaseConfig {
  return DatabaseConfig.parse({ key: "default", default: true });
}

/** An object that may carry the config path it was normalised from. */
type Sourced<T> = T & { [sourcePath]?: string };

function withSource<T extends object>(value: T, path: string | undefined): Sourced<T> {
  return path === undefined ? value : Object.assign(value, { [sourcePath]: path });
}

// The shorthand's app and its config report the paths the user wrote (`resources[2]`).
function sourced(app: App, source: string | undefined): App {
  return withSource({ config: withSource({ ...app.config }, source), prefix: app.prefix }, source);
}

function shorthandApp(project: ProjectObject): App {
  if (project.module === undefined || project.resources === undefined) {
    throw new Error("bug: single-app shorthand passed its checks without module or resources");
  }
  // kiln's format marker, on the project when its one app is written at the top.
  if (inKilnFormat(project)) callKilnsWay(project.resources);
  return { config: { module: project.module, resources: project.resources }, prefix: project.prefix ?? "" };
}

/** kiln's default package of the generated tree, which kiln's projects import (`from _generated.routes import router`). */
const KILN_PACKAGE_PREFIX = "_generated";

/** Whether the project is written in kiln's format: its config, or each of its apps' configs. */
function projectInKilnFormat(project: ProjectObject): boolean {
  return inKilnFormat(project) || (project.apps !== undefined && project.apps.every((app) => inKilnFormat(app.config)));
}

/** A `be` project: databases, optional auth, and its apps (or one app in shorthand). */
export const ProjectConfig = ProjectObject.superRefine((project, ctx) => {
  checkShape(project, ctx);
  if (project.databases) checkDatabases(project.databases, ctx);
  checkDbKeys(project, ctx);
  if (project.resource_registry?.require_auth === true && project.auth === undefined) {
    ctx.addIssue({ code: "custom", path: ["resource_registry", "require_auth"], message: "the discovery routes can only require a user when the project sets auth" });
  }
  if (project.apps) checkApps(project.apps, ctx);
  if (project.resources) checkAppResources(project.resources, ctx, ["resources"]);
  if (project.apps) checkAuthz(project, project.apps, (index) => ["apps", index, "config"], ctx);
  else if (project.resources) checkAuthz(project, [{ config: { resources: project.resources } }], () => [], ctx);
}).transform((project) => {
  const singleApp = project.apps === undefined;
  const apps = project.apps ?? [shorthandApp(project)];
  return {
    package_prefix: project.package_prefix ?? (projectInKilnFormat(project) ? KILN_PACKAGE_PREFIX : ""),
    databases: project.databases ?? [defaultDatabase()],
    ...(project.auth !== undefined && { auth: project.auth }),
    ...(project.user_templates !== undefined && { user_templates: project.user_templates }),
    ...(project.rate_limit !== undefined && { rate_limit: project.rate_limit }),
    ...(project.telemetry !== undefined && { telemetry: project.telemetry }),
    ...(project.comms !== undefined && { comms: project.comms }),
    ...(project.cors !== undefined && { cors: project.cors }),
    trusted_proxies: project.trusted_proxies,
    generate_tests: project.generate_tests,
    require_auth: project.require_auth,
    ...(project.resource_registry !== undefined && { resource_registry: project.resource_registry }),
    max_body_size: project.max_body_size,
    idempotency_expiry: project.idempotency_expiry,
    /** The apps; for the shorthand, one app (and its config) marked with `[sourcePath]: ""`. */
    apps: apps.map((app) => sourced(app, singleApp ? "" : undefined)),
    /** Whether the config used the single-app shorthand (no project-level router is generated). */
    single_app: singleApp,
  };
});
export type ProjectConfig = z.output<typeof ProjectConfig>;
/** An app of a parsed project. */
export type ResolvedApp = ProjectConfig["apps"][number];
/** A resource of a parsed project. */
export type ResolvedResource = ResolvedApp["config"]["resources"][number];
