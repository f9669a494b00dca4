// The `be_root` target: the files around a `be` backend that a new project starts with
// (pyproject.toml, main.py, models, Alembic, a starter config). Registered in the package
// manifest under `codegen.targets`; its one operation is in the `be_root.operations` group.

import { fileURLToPath } from "node:url";
import type { Target } from "../../codegen/index.js";
import { RootConfig } from "./config.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const target: Target<RootConfig> = {
  name: "be_root",
  language: "python",
  configClass: "be_root.config.RootConfig",
  schema: RootConfig,
  templateDir: here("./templates"),
  operationsEntryPoint: "be_root.operations",
  // The project root is the output directory: `--out` defaults to the current directory,
  // never to the generated API's package (the config's `package_prefix`).
  packagePrefix: () => "",
  formatter: new URL("./format.js", import.meta.url).href,
};
