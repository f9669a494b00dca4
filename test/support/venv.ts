/**
 * The Python virtual environment the end-to-end tests run generated code in.
 *
 * Built from test/e2e/requirements.txt and cached outside the repository under
 * `${XDG_CACHE_HOME:-~/.cache}/codegen/venv-<hash>`, where <hash> is the first 12
 * hex digits of the file's SHA-256: changing a pin builds a new venv. The cache
 * entry is a symlink, created atomically once `pip install` has succeeded, to a
 * directory with a unique name; an interrupted build leaves only an orphan
 * directory that is never used (and is removed by a later build). The venv is
 * built where it stays, because venv scripts hard-code their interpreter's path.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, readdir, rename, rm, stat, symlink, mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const REQUIREMENTS = resolve(fileURLToPath(import.meta.url), "../../e2e/requirements.txt");

export interface Venv {
  /** The venv's interpreter. */
  python: string;
  /** The venv's `bin` directory (console scripts such as `ruff` and `pgq`). */
  bin: string;
}

/** Orphans of interrupted builds older than this are removed. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

let pending: Promise<Venv> | undefined;

/** The cached venv for the current requirements, built first if missing. */
export function ensureVenv(): Promise<Venv> {
  pending ??= buildIfMissing().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

function cacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "codegen");
}

function venvAt(dir: string): Venv {
  return { python: join(dir, "bin", "python"), bin: join(dir, "bin") };
}

async function buildIfMissing(): Promise<Venv> {
  const hash = createHash("sha256")
    .update(await readFile(REQUIREMENTS))
    .digest("hex")
    .slice(0, 12);
  const root = cacheRoot();
  const link = join(root, `venv-${hash}`);
  if (existsSync(join(link, "bin", "python"))) return venvAt(link);

  await mkdir(root, { recursive: true });
  await removeOrphans(root, `venv-${hash}-`);
  const target = join(root, `venv-${hash}-${randomBytes(4).toString("hex")}`);
  try {
    await run("python3", ["-m", "venv", target]);
    const python = join(target, "bin", "python");
    await run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r", REQUIREMENTS], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`could not build the test venv from ${REQUIREMENTS}:\n${detail}`);
  }
  // Publish atomically: a symlink under a temporary name, renamed over the final name.
  const temporaryLink = `${target}.link`;
  await symlink(target, temporaryLink);
  await rename(temporaryLink, link);
  return venvAt(link);
}

async function removeOrphans(root: string, prefix: string): Promise<void> {
  for (const name of await readdir(root)) {
    if (!name.startsWith(prefix)) continue;
    const path = join(root, name);
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > ORPHAN_AGE_MS) {
      await rm(path, { recursive: true, force: true });
    }
  }
}
