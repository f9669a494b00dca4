// Output paths: relative, `/`-separated, inside the output directory whatever the config or
// the disk (symbolic links) says. Every check fails with a GenerationError naming the path,
// so a bad path from a config is a user error, never a write outside the tree.

import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";

import { GenerationError } from "./errors.js";
import { asFileSystemError } from "./fs-errors.js";

/** Whether `value` is an output path in its normal form (as a manifest or a journal records them). */
export function isNormalOutputPath(value: string): boolean {
  try {
    return normaliseOutputPath(value) === value;
  } catch {
    return false;
  }
}

/**
 * `raw` normalised (`a/./b` → `a/b`), or a GenerationError for an empty, NUL-containing,
 * backslashed, absolute or escaping path, or one naming a directory.
 * @example normaliseOutputPath("db/./session.py") // "db/session.py"
 */
export function normaliseOutputPath(raw: string): string {
  const fail = (problem: string) => new GenerationError(`output path ${quotePath(raw)} ${problem}`, { outputPaths: [raw] });
  if (raw === "") throw fail("is empty");
  if (raw.includes("\0")) throw fail("contains a NUL byte");
  // A backslash is a separator on Windows only; refusing it keeps one meaning everywhere.
  if (raw.includes("\\")) throw fail("contains a backslash (use / as the separator)");
  if (path.posix.isAbsolute(raw) || path.win32.isAbsolute(raw)) {
    throw fail("is absolute; output paths are relative to the output directory");
  }
  const normalised = path.posix.normalize(raw);
  if (normalised === ".." || normalised.startsWith("../")) throw fail("escapes the output directory");
  if (normalised === "." || normalised.endsWith("/")) throw fail("names a directory, not a file");
  if (normalised.split("/").some((name) => Buffer.byteLength(name) > NAME_MAX)) {
    throw fail(`has a file or directory name longer than ${NAME_MAX} bytes, more than file systems allow`);
  }
  return normalised;
}

/** The longest file or directory name (in bytes) common file systems accept. */
const NAME_MAX = 255;

/**
 * Checks each path on its own and against the others: no duplicates (after normalisation),
 * and no path that is also another's directory. Returns each item with its normalised path.
 */
export function validatePaths<T extends { path: string }>(items: Iterable<T>): [T, string][] {
  const entries: [T, string][] = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    const relative = normaliseOutputPath(item.path);
    const previous = seen.get(relative);
    if (previous !== undefined) {
      const alias = previous === item.path ? "" : ` (same file as ${quote(previous)})`;
      throw new GenerationError(`duplicate output path ${quotePath(item.path)}${alias}`, { outputPaths: [previous, item.path] });
    }
    seen.set(relative, item.path);
    entries.push([item, relative]);
  }
  for (const [item, relative] of entries) {
    for (let slash = relative.indexOf("/"); slash >= 0; slash = relative.indexOf("/", slash + 1)) {
      const parent = seen.get(relative.slice(0, slash));
      if (parent !== undefined) {
        throw new GenerationError(`output path ${quote(parent)} is a file, but ${quote(item.path)} needs it to be a directory`, {
          outputPaths: [parent, item.path],
        });
      }
    }
  }
  return entries;
}

/**
 * The real path `target` has or would have once created: symbolic links in its existing part
 * resolved, the missing rest appended. A broken link cannot be resolved, so it is refused.
 * `label` names the path in errors; `outputPath` is the generated path concerned, if any.
 * Synchronous: planning resolves a few paths per directory, not one per file.
 */
export function resolveReal(target: string, label: string, outputPath?: string): string {
  const fail = (problem: string) =>
    new GenerationError(`${label} ${problem}`, { outputPaths: outputPath === undefined ? [] : [outputPath] });
  try {
    return realpathSync(target);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOTDIR") throw fail("goes through a file that is not a directory");
    if (code === "ENAMETOOLONG") throw fail("is too long for the file system");
    if (code === "ELOOP") throw fail("goes through a loop of symbolic links");
    if (code !== "ENOENT") throw asFileSystemError(error, "resolve", target);
    if (lstatExists(target)) throw fail("goes through a broken symbolic link");
    const parent = path.dirname(target);
    if (parent === target) throw error;
    return path.join(resolveReal(parent, label, outputPath), path.basename(target));
  }
}

function lstatExists(target: string): boolean {
  try {
    return lstatSync(target, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Whether the real path `real` lies inside the real directory `realRoot`. */
export function isInside(realRoot: string, real: string): boolean {
  const fromRoot = path.relative(realRoot, real);
  return !(fromRoot === ".." || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot));
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Paths (or any strings) in code-unit order, the order every listing of a run uses, whatever the locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function quote(value: string): string {
  return JSON.stringify(value);
}

/** A path quoted for a message, its middle elided when it is very long. */
export function quotePath(value: string): string {
  return quote(value.length <= 160 ? value : `${value.slice(0, 100)}…${value.slice(-50)}`);
}
