// The Python environment `codegen dev` runs the backend in: the active virtual environment,
// else the project's `.venv/`, created and installed from pyproject.toml on first use.

import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "./processes.js";
import { DevError } from "./project.js";

/** The interpreter of a virtual environment directory. */
const interpreter = (venv: string) => path.join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");

/** The project's Python: `VIRTUAL_ENV`'s, else `.venv/`'s, creating and installing `.venv/` when there is none. */
export async function projectPython(root: string, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<string> {
  if (env.VIRTUAL_ENV) {
    const python = interpreter(env.VIRTUAL_ENV);
    if (!existsSync(python)) throw new DevError(`VIRTUAL_ENV is ${env.VIRTUAL_ENV}, which has no ${python}`);
    return python;
  }
  const venv = path.join(root, ".venv");
  const python = interpreter(venv);
  // Written once the install succeeded: a venv whose install failed is installed again.
  const installed = path.join(venv, ".codegen-installed");
  if (existsSync(installed)) return python;
  say(`creating ${venv} and installing the project (pip install -e .)`);
  const system = env.PYTHON ?? "python3";
  if (!existsSync(python) && (await runCommand(system, ["-m", "venv", venv], { cwd: root, env })) !== 0) {
    throw new DevError(`${system} -m venv ${venv} failed: codegen dev needs Python 3.11 or later (set PYTHON to pick the interpreter)`);
  }
  if ((await runCommand(python, ["-m", "pip", "install", "--quiet", "-e", "."], { cwd: root, env })) !== 0) {
    throw new DevError(`installing the project into ${venv} failed (pip install -e .); fix the error above and run codegen dev again`);
  }
  await writeFile(installed, "pip install -e . succeeded\n");
  return python;
}
