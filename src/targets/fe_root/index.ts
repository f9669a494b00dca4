// The `fe_root` target: a new Vite + React + TypeScript front end for a `be` backend, with
// a dev proxy to it and a starter config for the `fe` target. Registered in the package
// manifest under `codegen.targets`; its one operation is in the `fe_root.operations` group.

import { fileURLToPath } from "node:url";
import type { Target } from "../../codegen/index.js";
import { RootConfig } from "./config.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const target: Target<RootConfig> = {
  name: "fe_root",
  language: "typescript",
  configClass: "fe_root.config.RootConfig",
  schema: RootConfig,
  templateDir: here("./templates"),
  operationsEntryPoint: "fe_root.operations",
  // The project root is the output directory: `--out` defaults to the current directory.
  packagePrefix: () => "",
  formatter: new URL("./format.js", import.meta.url).href,
};
