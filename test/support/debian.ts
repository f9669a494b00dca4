/**
 * Programs from the Debian packages the machine's apt sources offer, for tests: `apt-get
 * download` and `dpkg -x`, cached outside the repository (test/support/cache.ts) as
 * `<package>-<hash of the package version>`. The program is run (`versionArgs`) before the
 * cache entry counts, and again in each process that asks for it: where it cannot load a
 * shared library (a fresh machine, or one that kept the cache but not the libraries), the
 * package's library dependencies are installed with `apt-get install`, which needs root, as
 * the browser tests' Chromium does.
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
  let shown: string;
  try {
    shown = (await runStep("apt-cache", ["show", "--no-all-versions", name])).stdout;
  } catch (error) {
    throw new Error(`these tests need Debian's ${name} package in the apt sources: ${String(error)}`);
  }
  const version = /^Version: (.+)$/m.exec(shown)?.[1];
  if (!version) throw new Error(`apt-cache shows no version of ${name}`);
  const libraries = libraryDependencies(shown);
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
      // It must run here, not only unpack.
      await runWithLibraries(join(target, binary), versionArgs, libraries);
    },
    (entry) => existsSync(join(entry, binary)),
  );
  await runWithLibraries(join(dir, binary), versionArgs, libraries);
  return join(dir, binary);
}

/** The `lib*` packages a package depends on, from its `apt-cache show`: the first of each alternative, without its version. */
function libraryDependencies(shown: string): string[] {
  // "libc-ares2 (>= 1.12), libevent-2.1-7 (>= 2.1.8-stable) | other"
  const depends = /^Depends: (.+)$/m.exec(shown)?.[1] ?? "";
  return depends
    .split(",")
    .map((dependency) => dependency.split("|")[0]!.trim().split(/\s/)[0]!)
    .filter((pkg) => pkg.startsWith("lib"));
}

/** Runs `path`; when it fails, installs `libraries` (its package's), then runs it again. */
async function runWithLibraries(path: string, args: string[], libraries: string[]): Promise<void> {
  try {
    await runStep(path, args);
    return;
  } catch {
    // Most often a shared library is missing: install them, then the second run says what is wrong if anything still is.
  }
  try {
    await runStep("apt-get", ["update", "-qq"]);
    await runStep("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...libraries]);
  } catch (error) {
    throw new Error(`${path} does not run, and installing its libraries (${libraries.join(" ")}) with apt-get failed (it needs root): ${String(error)}`);
  }
  await runStep(path, args);
}
