// The `be` target: an async FastAPI + SQLAlchemy 2 + Pydantic 2 backend from a jsonnet
// config. Registered in the package manifest under `codegen.targets`; its operations are
// in the `be.operations` group.

import { fileURLToPath } from "node:url";
import type { Target } from "../../codegen/index.js";
import { projectJsonSchema } from "./config/json-schema.js";
import { type CommsConfig, type KilnCommsConfig, isKilnComms, readTemplateFiles } from "./config/comms.js";
import { kilnWarnings } from "./config/kiln.js";
import { ProjectConfig } from "./config/schema.js";
import { registerRenderers } from "./render.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const target: Target<ProjectConfig> = {
  name: "be",
  language: "python",
  configClass: "be.config.schema.ProjectConfig",
  schema: ProjectConfig,
  jsonSchema: projectJsonSchema,
  // Templates sit beside the code that uses them; names are paths from the target's root.
  templateDir: here("."),
  operationsEntryPoint: "be.operations",
  jsonnetStdlibDir: here("./jsonnet/be"),
  registerRenderers,
  // Generated modules go through ruff's formatter (format.ts): templates need not lay out long lines.
  formatter: new URL("./format.js", import.meta.url).href,
  packagePrefix: (config) => config.package_prefix,
  // Generated modules and the user's own (models, actions) share the top-level package.
  importOptions: (config) => ({ firstParty: firstPartyPackages(config) }),
  // A package's __init__ imports its modules (routers aggregate routers): written after them.
  aggregates: (path) => path === "__init__.py" || path.endsWith("/__init__.py"),
  // kiln's keys that mean nothing here are accepted (config/kiln.ts) and named in warnings.
  configWarnings: kilnWarnings,
  // Message templates kept in files are read now: `{ file }` relative to the config, kiln's `{ path }` to the current directory.
  readConfigFiles: (config, configFile) => {
    if (config.comms === undefined) return { config, issues: [], files: [] };
    const { comms, issues, files } = readTemplateFiles(config.comms, configFile);
    return { config: { ...config, comms }, issues, files };
  },
};

function firstPartyPackages(config: ProjectConfig): string[] {
  const roots = new Set<string>();
  if (config.package_prefix) roots.add(config.package_prefix.split(".")[0]!);
  for (const app of config.apps) {
    if (!config.package_prefix) roots.add(app.config.module);
    for (const resource of app.config.resources) roots.add(resource.model.split(".")[0]!);
  }
  const auth = config.auth;
  const login = auth?.get_current_user_fn === undefined ? auth?.login : undefined;
  const authPaths = [auth?.get_current_user_fn ?? auth?.verify_credentials_fn, login?.credentials_schema, login?.session_schema, login?.validate_fn];
  for (const path of [...authPaths, ...commsPaths(config.comms)]) if (path !== undefined) roots.add(path.split(".")[0]!);
  return [...roots].sort();
}

/** The dotted paths of the user's objects that `comms` names. */
function commsPaths(comms: CommsConfig | KilnCommsConfig | undefined): string[] {
  if (comms === undefined) return [];
  if (!isKilnComms(comms)) return comms.types.map((type) => type.context);
  const optional = [comms.renderer, comms.preferences].filter((path) => path !== undefined);
  return [comms.message_model, comms.recipient_model, ...comms.types.map((type) => type.context_schema), ...Object.values(comms.transports), ...optional];
}
