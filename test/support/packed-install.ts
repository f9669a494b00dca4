/**
 * codegen as a newcomer gets it from `npx codegen-kit`: this repository packed by `npm pack`
 * (dist/ rebuilt first when older than src/) and installed by `npm install` with only its
 * runtime dependencies, into `_npx/<name>` of a directory, as npx installs into its cache.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensureBuilt } from "../../bench/dist.js";
import { repoRoot } from "../helpers/user-project.js";

const run = promisify(execFile);

/** Packing reads about 900 files; installing resolves the dependencies, from npm's cache when it holds them. */
const PACK_TIMEOUT_MS = 120_000;
const INSTALL_TIMEOUT_MS = 300_000;

export interface PackedInstall {
  /** The installed package's directory (`node_modules/codegen-kit`). */
  packageDir: string;
  /** Its `codegen` command, as npx runs it (`node_modules/.bin/codegen`). */
  bin: string;
}

/** Packs this repository into `dir` and installs the tarball under `dir/_npx/`. */
export async function installPacked(dir: string): Promise<PackedInstall> {
  await ensureBuilt();
  // Without the test runner's loader options: npm is a user's npm.
  const env = { ...process.env, NODE_OPTIONS: "" };
  const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: repoRoot, env, timeout: PACK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const install = join(dir, "_npx", "codegen-kit");
  await mkdir(install, { recursive: true });
  await writeFile(join(install, "package.json"), "{}\n");
  try {
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--omit=dev", "--no-package-lock", join(dir, filename)], { cwd: install, env, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install of the packed codegen-kit failed in ${install}:\n${stderr}${stdout}`, { cause: error });
  }
  return { packageDir: join(install, "node_modules", "codegen-kit"), bin: join(install, "node_modules", ".bin", "codegen") };
}
