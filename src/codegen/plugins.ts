// Plugin discovery through package manifests: a package.json `"codegen"` field maps groups
// (`codegen.targets`, `be.operations`, …) to `{ entryName: "module/path.js#exportName" }`.
// This package's manifest comes first, then installed packages by name; scans are cached per
// cwd. Package files are small and many, so they are read synchronously.
import { existsSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { isRecord } from "./records.js";

/** One entry of a package manifest. */
export interface EntryPoint {
  /** Group the entry is declared under, e.g. `"be.operations"`. */
  group: string;
  /** Entry name (the manifest key). */
  name: string;
  /** `name` of the declaring package. */
  packageName: string;
  /** Real path of the declaring package's directory. */
  packageDir: string;
  /** `"module/path.js#exportName"` as written, relative to `packageDir`; `#exportName` defaults to `default`. */
  specifier: string;
}

/** The `"codegen"` field of one package. */
interface Manifest {
  packageName: string;
  packageDir: string;
  file: string;
  groups: Record<string, unknown>;
}

/** Name of this package, whose own manifest is always read first. */
const OWN_PACKAGE = "codegen-kit";

const moduleFile = fileURLToPath(import.meta.url);
// Under tsx this file is `src/codegen/plugins.ts`; the manifest names `dist/` files, which
// would load a second copy of every engine class.
const runningFromSource = moduleFile.endsWith(".ts");

let ownManifest: Manifest | undefined;
const scans = new Map<string, Manifest[]>();

/**
 * Every entry declared under `group`, in discovery order: this package's own manifest,
 * then packages in the `node_modules` directories from `cwd` upward (including `@scope/name`
 * and symlinked packages) sorted by package name. A package is read once: the same real
 * path, or a package name already seen nearer to `cwd`, is skipped.
 * @param options.cwd where to start looking for `node_modules`. @default process.cwd()
 * @throws Error naming the package.json when a manifest is malformed.
 * @example
 * for (const entry of await entryPoints("codegen.targets")) console.log(entry.name);
 */
export async function entryPoints(group: string, options: { cwd?: string } = {}): Promise<EntryPoint[]> {
  const entries: EntryPoint[] = [];
  for (const manifest of manifests(path.resolve(options.cwd ?? process.cwd()))) {
    const declared = manifest.groups[group];
    if (declared === undefined) continue;
    if (!isRecord(declared)) {
      throw new Error(`${manifest.file}: "codegen"."${group}" must map entry names to "module#export" strings`);
    }
    for (const [name, specifier] of Object.entries(declared)) {
      if (typeof specifier !== "string" || specifier.split("#")[0] === "") {
        throw new Error(`${manifest.file}: "codegen"."${group}"."${name}" must be a "module#export" string`);
      }
      entries.push({ group, name, packageName: manifest.packageName, packageDir: manifest.packageDir, specifier });
    }
  }
  return entries;
}

/**
 * Imports an entry's module and returns its named export. When this engine runs from its
 * TypeScript sources, its own `./dist/X.js` entries load `./src/X.ts` instead (if present),
 * so the engine's classes exist once.
 * @throws Error naming the entry when the module lacks the export.
 */
export async function loadEntryPoint(entry: EntryPoint): Promise<unknown> {
  const hash = entry.specifier.indexOf("#");
  const modulePath = hash === -1 ? entry.specifier : entry.specifier.slice(0, hash);
  const exportName = hash === -1 ? "default" : entry.specifier.slice(hash + 1);
  let file = path.resolve(entry.packageDir, modulePath);
  if (runningFromSource && entry.packageDir === findOwnManifest().packageDir) {
    const built = /^(?:\.\/)?dist\/(.+)\.js$/.exec(modulePath);
    const source = built && path.join(entry.packageDir, "src", `${built[1]}.ts`);
    if (source && existsSync(source)) file = source;
  }
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (!(exportName in module)) {
    throw new Error(
      `entry "${entry.name}" of group "${entry.group}" (package ${entry.packageName}): ` +
        `module "${modulePath}" has no export "${exportName}"`,
    );
  }
  return module[exportName];
}

/**
 * The directories of every package visible from `cwd` that declares codegen entry points,
 * this package first (`own`): the code a run may load, for the up-to-date check's fingerprint.
 */
export async function codegenPackageDirs(cwd: string): Promise<{ dir: string; own: boolean }[]> {
  const found = manifests(path.resolve(cwd));
  return found.map((manifest, index) => ({ dir: manifest.packageDir, own: index === 0 }));
}

/** Manifests visible from `cwd`, own package first; scanned once per cwd (a failed scan, a malformed manifest, is tried again next time). */
function manifests(cwd: string): Manifest[] {
  let scan = scans.get(cwd);
  if (!scan) {
    scan = scanManifests(cwd);
    scans.set(cwd, scan);
  }
  return scan;
}

function scanManifests(cwd: string): Manifest[] {
  const own = findOwnManifest();
  const seenDirs = new Set([own.packageDir]);
  const seenNames = new Set([OWN_PACKAGE]);
  const found: Manifest[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    for (const candidate of packageDirs(path.join(dir, "node_modules"))) {
      const real = realPathOf(candidate);
      if (real === undefined || seenDirs.has(real)) continue;
      seenDirs.add(real);
      const manifest = readManifest(real);
      // Like Node's resolution, the package nearest to cwd shadows farther ones of the same name.
      if (!manifest || seenNames.has(manifest.packageName)) continue;
      seenNames.add(manifest.packageName);
      if (Object.keys(manifest.groups).length > 0) found.push(manifest);
    }
    if (path.dirname(dir) === dir) break;
  }
  found.sort((a, b) => (a.packageName < b.packageName ? -1 : a.packageName > b.packageName ? 1 : 0));
  return [own, ...found];
}

/** Package directories directly inside a `node_modules` directory, `@scope/name` included. */
function packageDirs(nodeModules: string): string[] {
  const dirs: string[] = [];
  for (const name of listDir(nodeModules)) {
    if (name.startsWith("@")) {
      for (const inner of listDir(path.join(nodeModules, name))) dirs.push(path.join(nodeModules, name, inner));
    } else {
      dirs.push(path.join(nodeModules, name));
    }
  }
  return dirs;
}

/** Visible entries of a directory; none when it does not exist. */
function listDir(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => !name.startsWith(".")).sort();
}

/** `dir` with its links resolved, or undefined when it is gone (a dangling link). */
function realPathOf(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

/** The parsed package.json in `dir`, or undefined when there is none readable. */
function readPackageJson(dir: string): Record<string, unknown> | undefined {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    return isRecord(pkg) ? pkg : undefined;
  } catch {
    // Missing or broken package.json: an unrelated package is not ours to judge.
    return undefined;
  }
}

/** The `"codegen"` field of the package at `dir` (empty groups when absent), if it is a package. */
function readManifest(dir: string): Manifest | undefined {
  const pkg = readPackageJson(dir);
  if (!pkg) return undefined;
  const file = path.join(dir, "package.json");
  const groups = pkg.codegen ?? {};
  if (!isRecord(groups)) throw new Error(`${file}: "codegen" must be an object mapping groups to entries`);
  const packageName = typeof pkg.name === "string" ? pkg.name : path.basename(dir);
  return { packageName, packageDir: dir, file, groups };
}

/** This package's manifest: the nearest package.json above this module named "codegen-kit". */
function findOwnManifest(): Manifest {
  if (ownManifest) return ownManifest;
  for (let dir = path.dirname(moduleFile); ; dir = path.dirname(dir)) {
    if (readPackageJson(dir)?.name === OWN_PACKAGE) return (ownManifest = readManifest(realpathSync(dir))!);
    if (path.dirname(dir) === dir) throw new Error(`no package.json named "${OWN_PACKAGE}" above ${moduleFile}`);
  }
}
