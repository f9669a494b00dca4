/**
 * Build products the tests reuse across runs, cached outside the repository under
 * `${XDG_CACHE_HOME:-~/.cache}/codegen/<name>-<hash>`, where <hash> keys the inputs.
 *
 * An entry is a symlink, created atomically once the build has succeeded, to a directory
 * with a unique name; an interrupted build leaves only an orphan directory that is never
 * used (and is removed by a later build). Builds happen where they stay, because what
 * they make may record its own path (venv scripts hard-code their interpreter's).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, symlink } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** Orphans of interrupted builds older than this are removed. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

export function cacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "codegen");
}

/** The first 12 hex digits of the SHA-256 of `inputs`, in order. */
export function hashOf(...inputs: (string | Buffer)[]): string {
  const hash = createHash("sha256");
  for (const input of inputs) hash.update(input);
  return hash.digest("hex").slice(0, 12);
}

/**
 * The cache entry `<name>-<hash>`, built by `build(dir)` first unless `ready(entry)` says it
 * is complete. A failed build leaves nothing behind.
 */
export async function cachedBuild(
  name: string,
  hash: string,
  build: (dir: string) => Promise<void>,
  ready: (entry: string) => boolean,
): Promise<string> {
  const root = cacheRoot();
  const link = join(root, `${name}-${hash}`);
  if (ready(link)) return link;

  await mkdir(root, { recursive: true });
  await removeOrphans(root, `${name}-${hash}-`);
  const target = join(root, `${name}-${hash}-${randomBytes(4).toString("hex")}`);
  try {
    await build(target);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  }
  // Publish atomically: a symlink under a temporary name, renamed over the final name.
  const temporaryLink = `${target}.link`;
  await symlink(target, temporaryLink);
  await rename(temporaryLink, link);
  return link;
}

/**
 * `lookup` (a tool's `cachedBuild` entry, keyed by its version) run once per process:
 * concurrent and later callers share its promise; a failed lookup is not remembered, the
 * next caller tries again.
 */
export function oncePerProcess<T>(lookup: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= lookup().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
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

