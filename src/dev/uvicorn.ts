// How `codegen dev` runs the backend: the one list of uvicorn's arguments.
//
// The reloader watches the application's own package only. Without `--reload-dir` it
// watches the working directory, and without `watchfiles` installed uvicorn polls: it
// stats every `.py` file under it four times a second, `.venv/` included (thousands of
// files, a quarter of a core or more while idle). `--reload-dir` is the one option both
// of uvicorn's reloaders obey (`--reload-exclude` needs watchfiles).

import { existsSync } from "node:fs";
import path from "node:path";
import type { DevProject } from "./project.js";

/** The arguments of `python -m uvicorn` serving `project` with reload on 127.0.0.1:`port`. */
export function uvicornArgs(project: DevProject, port: number): string[] {
  return [
    "-m",
    "uvicorn",
    project.app,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--reload",
    ...appSourceDirs(project).flatMap((dir) => ["--reload-dir", dir]),
  ];
}

/**
 * The directory of the application's top-level package (`shop/` for `shop.main:app`), at
 * the project's root or under `src/`; the project's root when there is none (a module
 * beside pyproject.toml).
 */
export function appSourceDirs(project: DevProject): string[] {
  const topLevel = project.app.split(":", 1)[0]!.split(".", 1)[0]!;
  const found = [project.root, path.join(project.root, "src")]
    .map((base) => path.join(base, topLevel))
    .find((dir) => existsSync(path.join(dir, "__init__.py")));
  return [found ?? project.root];
}
