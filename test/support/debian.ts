/**
 * Programs from the Debian packages the machine's apt sources offer, for tests: `apt-get
 * download` and `dpkg -x`, no root needed, cached outside the repository (test/support/cache.ts)
 * as `<package>-<hash of the package version>`. The package's shared libraries must be installed;
 * the program is run once (`versionArgs`) before the cache entry counts.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { cachedBuild, hashOf } from "./cache.js";

/** The longest any one step may take: apt's lookup and download, unpacking, the version check. */
const STEP_TIMEOUT_MS = 120_000;

const execFileAsync = promisify(execFile);
export const runStep = (command: string, args: string[], options: { cwd?: string } = {}) => execFileAsync(command, args, { ...options, timeout: STEP_TIMEOUT_MS });

/**
 * The path of `program` (relative to the package's root, `usr/sbin/pgbouncer`) from Debian's
 * package `name`, downloaded and unpacked first if missing.
 */
export async function debianProgram(name: string, program: string, versionArgs: string[]): Promise<string> {
  let version: string;
  try {
    const { stdout } = await runStep("apt-cache", ["show", "--no-all-versions", name]);
    version = /^Version: (.+)$/m.exec(stdout)?.[1] ?? "";
  } catch (error) {
    throw new Error(`these tests need Debian's ${name} package in the apt sources: ${String(error)}`);
  }
  if (!version) throw new Error(`apt-cache shows no version of ${name}`);
  const binary = join("root", program);
  const dir = await cachedBuild(
    name,
    hashOf(version),
    async (target) => {
      await mkdir(target, { recursive: true });
      await runStep("apt-get", ["download", `${name}=${version}`], { cwd: target });
      const deb = (await readdir(target)).find((file) => file.endsWith(".deb"));
      if (!deb) throw new Error(`apt-get download ${name}=${version} wrote no .deb`);
      await runStep("dpkg", ["-x", join(target, deb), join(target, "root")]);
      await rm(join(target, deb));
      // It must run here (its libraries installed), not only unpack.
      await runStep(join(target, binary), versionArgs);
    },
    (entry) => existsSync(join(entry, binary)),
  );
  return join(dir, binary);
}
