// What `codegen dev` needs to know about a project made by `be_root`: its `[tool.codegen]`
// table in pyproject.toml (the be config, the application, the database variable) and the
// front end beside it. Read once at start; a project without pyproject.toml is an error.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CLIError } from "../codegen/index.js";

/** A mistake in how `codegen dev` was run or in the project it was run in. */
export class DevError extends CLIError {
  override readonly prefix: string = "codegen dev";
  override name = "DevError";
}

/** A backend project as `codegen dev` runs it. */
export interface DevProject {
  /** Absolute project directory (where pyproject.toml is). */
  root: string;
  /** `[project] name`: names the embedded database. */
  name: string;
  /** The `be` config, absolute. */
  configFile: string;
  /** The ASGI application uvicorn serves (`shop.main:app`). */
  app: string;
  /** The environment variable holding the database URL. */
  databaseUrlEnv: string;
  /** The `fe_root` project served beside it, absolute, if any. */
  frontend: string | undefined;
}

/** Where a front end made by `fe_root` is looked for, relative to the backend project. */
const FRONTEND_DIRS = ["frontend", "../frontend"];

/**
 * Reads the project at `root`. `frontend`: a directory to serve (relative to `root`), `false`
 * for none, undefined to look in `frontend/` and `../frontend`.
 */
export async function readDevProject(root: string, frontend?: string | false): Promise<DevProject> {
  const pyproject = path.join(root, "pyproject.toml");
  let text: string;
  try {
    text = await readFile(pyproject, "utf8");
  } catch {
    throw new DevError(`no pyproject.toml in ${root}: run codegen dev in a backend project made by codegen generate --target be_root`);
  }
  const tool = tomlTable(text, "tool.codegen");
  const projectName = tomlTable(text, "project").name;
  if (projectName === undefined) throw new DevError(`${pyproject}: [project] has no name`);
  const configFile = path.resolve(root, tool.config ?? "config/project.jsonnet");
  if (!existsSync(configFile)) throw new DevError(`${pyproject}: [tool.codegen] config: ${configFile} does not exist`);
  const app = tool.app ?? `${projectName.toLowerCase().replace(/[-.]+/g, "_")}.main:app`;
  return {
    root,
    name: projectName,
    configFile,
    app,
    databaseUrlEnv: tool.database_url_env ?? "DATABASE_URL",
    frontend: frontendDir(root, frontend),
  };
}

function frontendDir(root: string, given: string | false | undefined): string | undefined {
  if (given === false) return undefined;
  if (given !== undefined) {
    const dir = path.resolve(root, given);
    if (!existsSync(path.join(dir, "package.json"))) throw new DevError(`--frontend ${given}: no package.json in ${dir}`);
    return dir;
  }
  return FRONTEND_DIRS.map((dir) => path.resolve(root, dir)).find((dir) => existsSync(path.join(dir, "vite.config.ts")));
}

/**
 * The `key = "string"` pairs of one TOML table: all `codegen dev` reads, so no TOML parser.
 * Other value types and other tables are skipped.
 */
function tomlTable(text: string, table: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  let inside = false;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      inside = header[1]!.trim() === table;
      continue;
    }
    const pair = inside ? /^\s*([A-Za-z0-9_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(line) : null;
    if (pair) pairs[pair[1]!] = JSON.parse(`"${pair[2]}"`) as string;
  }
  return pairs;
}
