// What determines a run's output, as one hash: the config's bytes (a jsonnet config's and every
// file it imports), the target, the options that change output, and the code that generates
// (this package's code root with its templates, every plugin package, the engine's
// dependencies' package.json). Code and extra inputs count by their identity on disk (inode,
// size, mode, mtime, ctime), as make does: any reinstall or rebuild changes it.

import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { identityOf } from "./file-identity.js";
import { jsonnetInputs } from "./jsonnet-imports.js";
import { codegenPackageDirs } from "./plugins.js";

/** Everything besides the disk that the fingerprint depends on. */
export interface FingerprintInputs {
  targetName: string;
  /** Absolute path of the config file. */
  configFile: string;
  /** The jsonnet library paths the config is evaluated with. */
  libraryDirs: readonly string[];
  force: boolean;
  forcePaths: readonly string[];
  /** Where plugins are discovered from (absolute). */
  cwd: string;
  /** Other files and directories the run read (user templates, files the config names), absolute. */
  extraInputs: readonly string[];
}

/** Root of the running engine's code: `dist/` (or `src/` under tsx), with the targets' templates and stdlibs. */
const codeRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The fingerprint of a run's inputs (hex sha256). Reads the config and stats the code, unless
 * given the code's fingerprint (`codeFingerprint`) just taken.
 * @throws the file-system error when the config cannot be read.
 */
export async function inputFingerprint(inputs: FingerprintInputs, code?: string): Promise<string> {
  const hash = createHash("sha256");
  const add = (part: string | Buffer) => hash.update(part).update("\0");
  add("codegen input fingerprint 2");
  add(JSON.stringify([inputs.targetName, inputs.force, [...inputs.forcePaths], inputs.libraryDirs]));
  if (inputs.configFile.endsWith(".jsonnet")) {
    // The lexer finds every import exactly (jsonnet-imports.ts): the files an evaluation reads.
    const { files, missing } = jsonnetInputs(inputs.configFile, inputs.libraryDirs);
    if (!files.has(inputs.configFile)) readFileSync(inputs.configFile); // throws the reason
    for (const [file, content] of files) add(`${file}\n${content}`);
    add(missing.join("\n"));
  } else {
    add(inputs.configFile);
    add(readFileSync(inputs.configFile));
  }
  add(code ?? (await codeFingerprint(inputs.cwd)));
  for (const extra of inputs.extraInputs) addTree(add, extra);
  return hash.digest("hex");
}

/**
 * The fingerprint of the code that generates, as seen from `cwd` (hex sha256): this package's
 * code root with its templates, its dependencies' package.json, and every plugin package, by
 * identity on disk. What the formatter's remembered answers are valid for (format-record.ts).
 */
export async function codeFingerprint(cwd: string): Promise<string> {
  const hash = createHash("sha256");
  const add = (part: string) => hash.update(part).update("\0");
  for (const { dir, own } of await codegenPackageDirs(cwd)) {
    if (own) {
      addTree(add, codeRoot, { code: true });
      add(identityOfPath(path.join(dir, "package.json")));
      addDependencies(add, dir);
    } else {
      addTree(add, dir, { code: true });
    }
  }
  return hash.digest("hex");
}

function identityOfPath(file: string): string {
  const info = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return info ? identityOf(info) : "missing";
}

/**
 * Every entry under `root` (itself included) by relative path and identity; `node_modules` and
 * dot entries skipped, and in a tree of code (`code`) its TypeScript declarations, which no run
 * executes (half the files of `dist/`).
 */
function addTree(add: (part: string) => void, root: string, options: { code?: boolean } = {}): void {
  const walk = (dir: string, relative: string) => {
    const info = lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    add(`${relative}\t${info ? identityOf(info) : "missing"}`);
    if (!info?.isDirectory()) return;
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      if (options.code && name.endsWith(".d.ts")) continue;
      walk(path.join(dir, name), `${relative}/${name}`);
    }
  };
  walk(root, root);
}

/** The package.json of each dependency of the package at `dir`, found as Node resolves it: a changed version changes the fingerprint. */
function addDependencies(add: (part: string) => void, dir: string): void {
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {}).sort()) {
    let found = "missing";
    for (let from = dir; ; from = path.dirname(from)) {
      const candidate = path.join(from, "node_modules", name, "package.json");
      const identity = identityOfPath(candidate);
      if (identity !== "missing") {
        found = `${candidate}\t${identity}`;
        break;
      }
      if (path.dirname(from) === from) break;
    }
    add(`${name}\t${found}`);
  }
}
