/**
 * The built CLI the benchmark and the tripwire test time (`dist/cli.js`, as users run it), and
 * a rebuild when it is missing or older than a file of src/.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");

/** The built CLI. */
export const CLI = join(ROOT, "dist", "cli.js");

/** Preloaded (`node --import`) to write the process's peak RSS to `$BENCH_RSS_FILE` on exit. */
export const PEAK_RSS_HOOK = join(ROOT, "bench", "peak-rss.mjs");

/** How long `npm run build` may take: about 30 s, several times that on a busy machine; past it the build is stuck. */
const BUILD_TIMEOUT_MS = 10 * 60_000;

/** The newest modification time of any file under `dir`, in ms. */
async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/** Rebuilds dist/ (`npm run build`, its output on stderr) when dist/cli.js is missing or older than src/. */
export async function ensureBuilt(): Promise<void> {
  const built = existsSync(CLI) ? (await stat(CLI)).mtimeMs : 0;
  if (built >= (await newestMtime(join(ROOT, "src")))) return;
  process.stderr.write("dist/ is missing or older than src/: running npm run build\n");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", 2, 2], timeout: BUILD_TIMEOUT_MS });
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  if (result.status !== 0) throw new Error(`npm run build ${timedOut ? `killed after its timeout of ${BUILD_TIMEOUT_MS} ms` : "failed"}; its output is above`);
}
