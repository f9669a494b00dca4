/**
 * The Python virtual environment the end-to-end tests run generated code in.
 *
 * Built from test/e2e/requirements.txt and cached outside the repository (test/support/cache.ts)
 * as `venv-<hash>`, where <hash> keys the file's content: changing a pin builds a new venv.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { cachedBuild, hashOf, oncePerProcess } from "./cache.js";

const run = promisify(execFile);

/** How long building the venv may take: pip installs some fifty packages, minutes on a slow network; past it the build is stuck. */
const BUILD_TIMEOUT_MS = 30 * 60_000;

export const REQUIREMENTS = resolve(fileURLToPath(import.meta.url), "../../e2e/requirements.txt");

export interface Venv {
  /** The venv's interpreter. */
  python: string;
  /** The venv's `bin` directory (console scripts such as `ruff` and `pgq`). */
  bin: string;
}

/** The cached venv for the current requirements, built first if missing. */
export const ensureVenv = oncePerProcess(buildIfMissing);

function venvAt(dir: string): Venv {
  return { python: join(dir, "bin", "python"), bin: join(dir, "bin") };
}

async function buildIfMissing(): Promise<Venv> {
  const hash = hashOf(await readFile(REQUIREMENTS));
  const dir = await cachedBuild(
    "venv",
    hash,
    async (target) => {
      try {
        await run("python3", ["-m", "venv", target], { timeout: BUILD_TIMEOUT_MS });
        await run(join(target, "bin", "python"), ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r", REQUIREMENTS], {
          maxBuffer: 64 * 1024 * 1024,
          timeout: BUILD_TIMEOUT_MS,
        });
      } catch (error) {
        const { stderr, killed } = error as { stderr?: string; killed?: boolean };
        const detail = `${killed ? `killed after its timeout of ${BUILD_TIMEOUT_MS} ms; its output so far:\n` : ""}${stderr ?? String(error)}`;
        throw new Error(`could not build the test venv from ${REQUIREMENTS}:\n${detail}`);
      }
    },
    (entry) => existsSync(join(entry, "bin", "python")),
  );
  return venvAt(dir);
}
