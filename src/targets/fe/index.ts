// The `fe` target: the front end's `openapi-ts.config.ts`, so @hey-api/openapi-ts can write a
// typed client for a `be` backend, and (with `pages`) the React pages of every resource.
// Registered in the package manifest under `codegen.targets`; its operations are in the
// `fe.operations` group. Every TypeScript file it writes is printed by prettier.

import { fileURLToPath } from "node:url";
import type { Target } from "../../codegen/index.js";
import { ProjectConfig } from "./config.js";
import { registerPageRenderers } from "./pages/output.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const target: Target<ProjectConfig> = {
  name: "fe",
  language: "typescript",
  configClass: "fe.config.ProjectConfig",
  schema: ProjectConfig,
  templateDir: here("./templates"),
  operationsEntryPoint: "fe.operations",
  // Files go to the front end's root: `--out` defaults to the current directory.
  packagePrefix: () => "",
  registerRenderers: registerPageRenderers,
  formatter: new URL("./format.js", import.meta.url).href,
};
