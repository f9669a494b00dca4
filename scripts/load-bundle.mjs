// dist/load-bundle.js (scripts/bundle.mjs writes it from this file, with the bundle's hash and
// the package's version in place of the @…@ marks). It runs the package's code, one script of
// every module (dist/codegen-kit.bundle.js), once per process, and gives each entry module's
// exports to the ES module that stands at that entry's path.
//
// A process that set codegen's V8 flags (the `codegen` command, cli-v8-flags.ts) compiles the
// script with V8's code cache: the compiled code of the functions an earlier run used, kept in
// the user's cache directory. V8 takes it only for the same source, V8 version and flags, and
// compiles afresh otherwise; the cache is written when there was none to take, once the run has
// compiled what it needed, as the process exits. It is a file per package version, bundle,
// V8 version and set of flags, written whole under a temporary name and renamed into place, so
// two processes starting at once read either no file or a whole one. A cache directory that
// cannot be read or written only costs the compile. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";

import { v8FlagsSet } from "./cli-v8-flags.js";

const BUNDLE_FILE = fileURLToPath(new URL("./codegen-kit.bundle.js", import.meta.url));
const BUNDLE_HASH = "@BUNDLE_HASH@";
const VERSION = "@VERSION@";

let entries;

/** The exports of the entry module at `name` (its path under dist/), run on first use. */
export function bundledModule(name) {
  entries ??= runBundle();
  const entry = entries[name];
  if (!entry) throw new Error(`codegen-kit: no bundled module ${name}`);
  return entry();
}

function runBundle() {
  const source = readFileSync(BUNDLE_FILE, "latin1"); // ASCII, as bundle.mjs writes it
  const cacheFile = compileCacheFile();
  const cachedData = cacheFile && readIfPresent(cacheFile);
  const script = new Script(source, { filename: BUNDLE_FILE, cachedData });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once("exit", () => writeCompileCache(script, cacheFile));
  const module = { exports: {} };
  // The script's dynamic imports (installed packages, plugins by URL) go through this module's own import().
  script.runInThisContext()(module.exports, createRequire(BUNDLE_FILE), module, new URL("./", import.meta.url), (specifier) => import(specifier));
  return module.exports.entries;
}

/** Where this process's compiled code is kept, or undefined when it keeps none. */
function compileCacheFile() {
  const flags = v8FlagsSet();
  if (flags.length === 0 || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const directory = userCacheDir();
  if (!directory) return undefined;
  // Flags given to node count too: V8 checks them all.
  const setting = [...flags, ...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  const name = `${BUNDLE_HASH}-${process.arch}-v8-${process.versions.v8}-${fnv1a(setting)}.bin`;
  return path.join(directory, "codegen-kit", VERSION, name);
}

function userCacheDir() {
  try {
    if (process.env.XDG_CACHE_HOME) return process.env.XDG_CACHE_HOME;
    if (process.platform === "win32") return process.env.LOCALAPPDATA;
    return path.join(homedir(), process.platform === "darwin" ? "Library/Caches" : ".cache");
  } catch {
    return undefined; // no home directory
  }
}

/** A short hash of `text` (32-bit FNV-1a, hex), to name a file. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCompileCache(script, file) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // An unwritable cache directory: the next run compiles afresh.
    }
  }
}
