// What a run's output depends on, as two hashes the manifest keeps (manifest.ts, `RunRecord`):
// the inputs (the evaluated config, the files the target read for it, the config's template
// overrides, the target and the options that change output) and the code that generates (this
// package with its templates, its dependencies' versions, every plugin package). Both count by
// content, so a rebuild that changes nothing changes no hash, and the manifest reads the same
// on every machine.

import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { codegenPackageDirs } from "./plugins.js";

/** What determines a run's output besides the code. */
export interface RunInputs {
  targetName: string;
  /** The config as evaluated (plain JSON data). */
  config: unknown;
  /** The config file's directory, absolute: paths count relative to it, as the config names them. */
  configDir: string;
  /** Files and directories the run read besides the config (template overrides, files the config names), absolute. */
  files: readonly string[];
  force: boolean;
  forcePaths: readonly string[];
  /** {@link codeHash} of the code running. */
  code: string;
}

/** Root of the running engine's code: `dist/` (or `src/` under tsx), with the targets' templates and stdlibs. */
const codeRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The hash of a run's inputs (hex sha256). @throws the file-system error when a file named cannot be read. */
export function inputsHash(inputs: RunInputs): string {
  const hash = createHash("sha256");
  const add = (part: string | Buffer) => hash.update(part).update("\0");
  add("codegen inputs 1");
  add(JSON.stringify([inputs.targetName, inputs.force, inputs.forcePaths, inputs.code]));
  add(JSON.stringify(inputs.config));
  for (const file of inputs.files) {
    add(path.relative(inputs.configDir, file));
    addTree(add, file);
  }
  return hash.digest("hex");
}

/**
 * The hash of the code that generates, as seen from `cwd` (hex sha256): this package's code
 * root with its templates, its package.json and its dependencies' package.json, and every
 * plugin package. Paths count relative to each package, so moving a checkout changes nothing.
 */
export async function codeHash(cwd: string): Promise<string> {
  const hash = createHash("sha256");
  const add = (part: string | Buffer) => hash.update(part).update("\0");
  for (const { dir, own } of await codegenPackageDirs(cwd)) {
    if (!own) {
      addTree(add, dir, { code: true });
      continue;
    }
    add(codeTreeHash(codeRoot));
    add(readOrMissing(path.join(dir, "package.json")));
    addDependencies(add, dir);
  }
  return hash.digest("hex");
}

/**
 * The file `npm run build` writes in `dist/` last: the {@link codeTreeHash} of everything built
 * before it, so a run need not read and hash the 3 MB of code it runs (about 20 ms).
 */
export const CODE_HASH_FILE = "code-hash.txt";

/**
 * The hash of a tree of code by content (hex sha256): every file under `root` but TypeScript
 * declarations, by path and content. Read from `root`'s {@link CODE_HASH_FILE} when the build
 * wrote one (dist/ is never changed after the build); from sources, computed.
 */
export function codeTreeHash(root: string): string {
  try {
    return readFileSync(path.join(root, CODE_HASH_FILE), "utf8").trim();
  } catch {
    return computeCodeTreeHash(root);
  }
}

/** {@link codeTreeHash} computed from the files (but a {@link CODE_HASH_FILE}), as `npm run build` does to write it. */
export function computeCodeTreeHash(root: string): string {
  const hash = createHash("sha256");
  const add = (part: string | Buffer) => hash.update(part).update("\0");
  walk(root, (entry, isFile) => {
    const relative = path.relative(root, entry);
    if (relative === CODE_HASH_FILE) return;
    add(relative || ".");
    if (isFile) add(readFileSync(entry));
  }, { code: true });
  return hash.digest("hex");
}

/** Every file under `root` (or `root` itself), by path relative to `root` and content. */
function addTree(add: (part: string | Buffer) => void, root: string, options: { code?: boolean } = {}): void {
  walk(root, (entry, isFile) => {
    add(path.relative(root, entry) || ".");
    if (isFile) add(readFileSync(entry));
  }, options);
}

function readOrMissing(file: string): Buffer | string {
  try {
    return readFileSync(file);
  } catch {
    return "missing";
  }
}

/**
 * Visits `root` and every entry under it in a stable order (`node_modules` and dot entries
 * skipped, and in a tree of code its TypeScript declarations, which no run executes).
 */
function walk(root: string, visit: (entry: string, isFile: boolean) => void, options: { code?: boolean } = {}): void {
  const info = lstatSync(root, { throwIfNoEntry: false });
  if (!info?.isDirectory()) {
    visit(root, info?.isFile() ?? false);
    return;
  }
  visit(root, false);
  for (const name of readdirSync(root).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (options.code && name.endsWith(".d.ts")) continue;
    walk(path.join(root, name), visit, options);
  }
}

/** The version of each dependency of the package at `dir`, found as Node resolves it. */
function addDependencies(add: (part: string) => void, dir: string): void {
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {}).sort()) {
    let version = "missing";
    for (let from = dir; ; from = path.dirname(from)) {
      const found = readOrMissing(path.join(from, "node_modules", name, "package.json"));
      if (found !== "missing") {
        version = String((JSON.parse(found.toString()) as { version?: unknown }).version);
        break;
      }
      if (path.dirname(from) === from) break;
    }
    add(`${name}@${version}`);
  }
}
