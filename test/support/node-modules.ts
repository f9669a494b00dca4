/**
 * The npm packages of a generated front end, installed once per package.json (and lockfile)
 * and cached outside the repository (test/support/cache.ts) as `fe-modules-<hash>`. A
 * project gets them as a `node_modules` symlink, so every test project with the same
 * manifest shares one install.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { cachedBuild, hashOf } from "./cache.js";

const run = promisify(execFile);
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** How long one `npm install` of a front end's packages may take: a minute or two from the network; past it the install is stuck. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

/** Links `projectDir/node_modules` to the cached install of its package.json, installing first if needed. */
export async function linkNodeModules(projectDir: string): Promise<void> {
  const manifests = ["package.json", "package-lock.json"].filter((name) => existsSync(join(projectDir, name)));
  const hash = hashOf(...(await Promise.all(manifests.map((name) => readFile(join(projectDir, name))))));
  const entry = await cachedBuild(
    "fe-modules",
    hash,
    async (target) => {
      await mkdir(target, { recursive: true });
      for (const name of manifests) await copyFile(join(projectDir, name), join(target, name));
      try {
        await run(NPM, ["install", "--no-audit", "--no-fund", "--prefer-offline"], {
          cwd: target,
          env: { ...process.env, NODE_OPTIONS: "" },
          maxBuffer: 64 * 1024 * 1024,
          timeout: INSTALL_TIMEOUT_MS,
        });
      } catch (error) {
        const { stderr, killed } = error as { stderr?: string; killed?: boolean };
        const detail = `${killed ? `killed after its timeout of ${INSTALL_TIMEOUT_MS} ms; its output so far:\n` : ""}${stderr ?? String(error)}`;
        throw new Error(`npm install of ${join(projectDir, "package.json")} failed:\n${detail}`);
      }
    },
    (candidate) => existsSync(join(candidate, "node_modules", ".package-lock.json")),
  );
  await symlink(join(entry, "node_modules"), join(projectDir, "node_modules"), "dir");
}
