// Temp directories set up as a user's project: `node_modules/codegen-kit` links to this
// repository, `node_modules/zod` to its zod, and plugins are installed beside them. Under
// `--conditions=codegen-source` a plugin's `import … from "codegen-kit"` then loads the very
// engine modules (src/) the tests import, so classes are shared and `instanceof` holds.
// Plugins are written in TypeScript and installed as published, compiled to JavaScript, so
// the built CLI loads them with plain `node`, as it loads a user's.
import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Real path of this repository. */
export const repoRoot = await realpath(fileURLToPath(new URL("../../", import.meta.url)));

/** The fixture plugin package (two targets, plus an operation for another target's group). */
export const fixtureDir = path.join(repoRoot, "test", "fixtures", "plugin");

/** Name the fixture package is installed under. */
export const FIXTURE_PACKAGE = "codegen-fixture-plugin";

/** URL of tsx's loader, for `node --import` in a cwd that has no tsx of its own. */
export const tsxLoader = import.meta.resolve("tsx");

const temps: string[] = [];

/** A fresh temp directory (real path), removed by {@link removeTempDirs}. */
export async function makeTempDir(prefix = "codegen-test-"): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

/** Removes every directory {@link makeTempDir} made. */
export async function removeTempDirs(): Promise<void> {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
}

/**
 * Fails with a clear message unless node runs with `--conditions=codegen-source`, which makes
 * a plugin's `"codegen-kit"` resolve to this repository's TypeScript sources (see package.json
 * "exports"), as it must for plugins to share the engine with the tests.
 */
export function assertSourceCondition(): void {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].join(" ");
  assert.match(
    flags,
    /(?:--conditions|-C)[= ]codegen-source\b/,
    "run the tests with `node --conditions=codegen-source --import tsx --test`, so that plugins' \"codegen-kit\" is src/",
  );
}

/**
 * A temp project whose `node_modules` holds `codegen-kit` (a link to this repository), `zod`
 * (a link to its zod) and, unless `fixture` is false, a copy of the fixture plugin.
 */
export async function createUserProject(options: { fixture?: boolean } = {}): Promise<string> {
  assertSourceCondition();
  const project = await makeTempDir("codegen-project-");
  const modules = path.join(project, "node_modules");
  await mkdir(modules);
  await symlink(repoRoot, path.join(modules, "codegen-kit"), "dir");
  await symlink(path.join(repoRoot, "node_modules", "zod"), path.join(modules, "zod"), "dir");
  if (options.fixture !== false) {
    const plugin = path.join(modules, FIXTURE_PACKAGE);
    await cp(fixtureDir, plugin, { recursive: true });
    await compilePackage(plugin);
  }
  return project;
}

/**
 * Compiles the TypeScript modules of the installed package `dir` to JavaScript beside them, as
 * its publisher would, and points its manifest's `codegen` entries at the `.js` modules.
 * Templates (`*.ts.njk`) are not modules and stay as they are.
 */
async function compilePackage(dir: string): Promise<void> {
  const modules = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  if (modules.length === 0) return;
  await build({ entryPoints: modules.map((file) => path.join(dir, file)), outdir: dir, outbase: dir, format: "esm", platform: "node", target: "node20", logLevel: "error" });
  const manifestFile = path.join(dir, "package.json");
  const manifest = await readFile(manifestFile, "utf8");
  await writeFile(manifestFile, manifest.replace(/\.ts#/g, ".js#"));
}

/** Writes a package `name` into `<project>/node_modules`: its package.json and other files. */
export async function installPackage(
  project: string,
  name: string,
  packageJson: Record<string, unknown>,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = path.join(project, "node_modules", name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name, type: "module", ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await compilePackage(dir);
  return dir;
}

/** Every file (with its text) and directory under `dir`, `node_modules` left out; {} when `dir` is absent. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return result;
  }
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const key = path.relative(dir, full);
    if (key.split(path.sep).includes("node_modules")) continue;
    result[key] = entry.isFile() ? await readFile(full, "utf8") : entry.isSymbolicLink() ? "<link>" : "<dir>";
  }
  return result;
}
