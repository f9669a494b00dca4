// The only code that touches the output directory. `planWrites` validates every path and
// decides each file's action without writing; `applyPlan` writes all-or-nothing (temp files
// beside their targets, renamed into place only once every temp is written).

import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

import { GenerationError } from "./errors.js";
import type { IfExists } from "./outputs.js";

/** One file to write, with its content already rendered. */
export class GeneratedFile {
  /** Path relative to the output directory, `/`-separated. */
  readonly path: string;
  /** The full text to write. */
  readonly content: string;
  /** What to do when the file already exists. @default "overwrite" */
  readonly ifExists: IfExists;
  /** Give the file +x for user, group and other. @default false */
  readonly executable: boolean;

  /** @example new GeneratedFile({ path: "scripts/dev.sh", content: "#!/bin/sh\n", executable: true }) */
  constructor(options: { path: string; content: string; ifExists?: IfExists; executable?: boolean }) {
    this.path = options.path;
    this.content = options.content;
    this.ifExists = options.ifExists ?? "overwrite";
    this.executable = options.executable ?? false;
  }
}

/**
 * What writing will do to one file: `create` a new one, `overwrite` a different one, leave an
 * identical one `unchanged` (only its +x bit may be fixed), or `skip` an existing one kept by policy.
 */
export type WriteAction = "create" | "overwrite" | "unchanged" | "skip";

/** One file's decided action, for printing before (or instead of) writing. */
export interface PlannedWrite {
  /** The file to write. */
  file: GeneratedFile;
  /** Where the file goes: the output directory joined with the file's normalised path. */
  absolutePath: string;
  /** What writing will do with it. */
  action: WriteAction;
}

/** How existing files with the `skip` policy are treated. */
export interface WriteOptions {
  /** Overwrite every existing `skip` file. @default false */
  force?: boolean;
  /**
   * fnmatch globs, matched against paths relative to the output directory, of `skip` files
   * to overwrite anyway; `*` also crosses `/`. Ignored when `force` is true. @default []
   * @example ["README.md", "src/*.tsx"]
   */
  forcePaths?: Iterable<string>;
}

/**
 * Validates every path, then decides each file's action; writes nothing.
 *
 * A file with the `skip` policy that exists is skipped (even if identical) unless forced;
 * otherwise an existing file with the same bytes is `unchanged`.
 *
 * @throws GenerationError naming the path for an empty, absolute or NUL-containing path, one
 * that escapes the output directory (by `..` or through a symbolic link), a duplicate, a path
 * that is also another file's directory, or one whose place on disk is taken by a directory.
 * @example const plan = await planWrites(files, "out", { forcePaths: ["README.md"] });
 */
export async function planWrites(
  files: Iterable<GeneratedFile>,
  outDir: string,
  options: WriteOptions = {},
): Promise<PlannedWrite[]> {
  const entries = validatePaths(files);
  const forced = options.force ? [] : [...(options.forcePaths ?? [])].map(compileForcePattern);
  const root = path.resolve(outDir);
  const realRoot = await resolveReal(root, `output directory ${quote(outDir)}`);

  const plan: PlannedWrite[] = [];
  for (const [file, relative] of entries) {
    const absolutePath = path.join(root, relative);
    const real = await resolveReal(absolutePath, `output path ${quote(file.path)}`);
    const fromRoot = path.relative(realRoot, real);
    if (fromRoot === ".." || fromRoot.startsWith(`..${path.sep}`) || path.isAbsolute(fromRoot)) {
      throw new GenerationError(
        `output path ${quote(file.path)} resolves to ${real}, outside the output directory ${realRoot}`,
      );
    }
    const existing = await readExisting(absolutePath, file.path);
    let action: WriteAction;
    if (existing === undefined) action = "create";
    else if (file.ifExists === "skip" && !options.force && !forced.some((glob) => glob.test(relative))) action = "skip";
    else if (existing.equals(Buffer.from(file.content))) action = "unchanged";
    else action = "overwrite";
    plan.push({ file, absolutePath, action });
  }
  return plan;
}

/**
 * Carries out a plan from {@link planWrites}, all-or-nothing: every new content goes to a temp
 * file beside its target first; only when all are written are they renamed into place. On a
 * failure the temps and any directories created are removed and the error is rethrown.
 * Identical files are not rewritten, so their mtime is kept.
 *
 * @returns the number of files created, overwritten or already up to date (skipped ones do not count).
 * @example const written = await applyPlan(plan);
 */
export async function applyPlan(plan: readonly PlannedWrite[]): Promise<number> {
  const writes = plan.filter((entry) => entry.action === "create" || entry.action === "overwrite");
  const temps: string[] = [];
  const createdDirs: string[] = [];
  try {
    for (const { file, absolutePath } of writes) {
      const dir = path.dirname(absolutePath);
      const created = await mkdir(dir, { recursive: true });
      if (created !== undefined) createdDirs.push(created);
      const temp = path.join(dir, `.${path.basename(absolutePath)}.${randomBytes(6).toString("hex")}.tmp`);
      temps.push(temp);
      await writeFile(temp, file.content, { flag: "wx" });
      const mode = await targetMode(absolutePath, file.executable);
      if (mode !== undefined) await chmod(temp, mode);
    }
  } catch (error) {
    await Promise.all(temps.map((temp) => rm(temp, { force: true })));
    for (const dir of createdDirs.reverse()) await rm(dir, { recursive: true, force: true });
    throw error;
  }

  let renamed = 0;
  try {
    for (; renamed < writes.length; renamed++) await rename(temps[renamed], writes[renamed].absolutePath);
  } catch (error) {
    // A rename cannot be undone safely; at least leave no temp files behind.
    await Promise.all(temps.slice(renamed).map((temp) => rm(temp, { force: true })));
    throw error;
  }

  for (const { file, absolutePath, action } of plan) {
    if (action !== "unchanged" || !file.executable) continue;
    const { mode } = await stat(absolutePath);
    if ((mode & 0o111) !== 0o111) await chmod(absolutePath, (mode & 0o777) | 0o111);
  }
  return plan.filter((entry) => entry.action !== "skip").length;
}

/**
 * Plans then writes `files` under `outDir` (see {@link planWrites} and {@link applyPlan}).
 *
 * @returns the number of files written or already up to date; skipped files do not count.
 * @example await writeFiles([new GeneratedFile({ path: "a.py", content: "" })], "out", { force: true });
 */
export async function writeFiles(
  files: Iterable<GeneratedFile>,
  outDir: string,
  options: WriteOptions = {},
): Promise<number> {
  return applyPlan(await planWrites(files, outDir, options));
}

/**
 * Python's `fnmatch.fnmatchcase`: `*` matches any run of characters including `/`, `?` one
 * character, `[seq]` one character in seq, `[!seq]` one not in it. Other characters match themselves.
 *
 * @throws GenerationError for a pattern with an invalid character range (`[z-a]`).
 * @example fnmatch("src/app/main.tsx", "src/*.tsx"); // true
 */
export function fnmatch(filePath: string, pattern: string): boolean {
  return globToRegExp(pattern).test(filePath);
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i++];
    if (char === "*") {
      source += ".*";
      while (pattern[i] === "*") i++;
    } else if (char === "?") {
      source += ".";
    } else if (char === "[") {
      // As in fnmatch, a `]` right after `[` or `[!` is a member, and an unclosed `[` is literal.
      let end = i;
      if (pattern[end] === "!") end++;
      if (pattern[end] === "]") end++;
      end = pattern.indexOf("]", end);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      const body = pattern.slice(i, end);
      i = end + 1;
      const negated = body.startsWith("!");
      const members = (negated ? body.slice(1) : body).replace(/[\\\]^[]/g, "\\$&");
      source += negated ? `[^${members}]` : `[${members}]`;
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  try {
    return new RegExp(`^${source}$`, "su");
  } catch {
    throw new GenerationError(`invalid glob pattern ${quote(pattern)}`);
  }
}

/** `./README.md` names the same file as `README.md`. */
function compileForcePattern(pattern: string): RegExp {
  return globToRegExp(pattern.replace(/^(\.\/)+/, ""));
}

/** Checks every path on its own and against the others; returns each file with its normalised path. */
function validatePaths(files: Iterable<GeneratedFile>): [GeneratedFile, string][] {
  const entries: [GeneratedFile, string][] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const relative = normalisePath(file.path);
    const previous = seen.get(relative);
    if (previous !== undefined) {
      const alias = previous === file.path ? "" : ` (same file as ${quote(previous)})`;
      throw new GenerationError(`duplicate output path ${quote(file.path)}${alias}`);
    }
    seen.set(relative, file.path);
    entries.push([file, relative]);
  }
  for (const [file, relative] of entries) {
    for (let slash = relative.indexOf("/"); slash >= 0; slash = relative.indexOf("/", slash + 1)) {
      const parent = seen.get(relative.slice(0, slash));
      if (parent !== undefined) {
        throw new GenerationError(
          `output path ${quote(parent)} is a file, but ${quote(file.path)} needs it to be a directory`,
        );
      }
    }
  }
  return entries;
}

function normalisePath(raw: string): string {
  const fail = (problem: string) => new GenerationError(`output path ${quote(raw)} ${problem}`);
  if (raw === "") throw fail("is empty");
  if (raw.includes("\0")) throw fail("contains a NUL byte");
  // A backslash is a separator on Windows only; refusing it keeps one meaning everywhere.
  if (raw.includes("\\")) throw fail("contains a backslash (use / as the separator)");
  if (path.posix.isAbsolute(raw) || path.win32.isAbsolute(raw)) {
    throw fail("is absolute (paths are relative to the output directory)");
  }
  const normalised = path.posix.normalize(raw);
  if (normalised === ".." || normalised.startsWith("../")) throw fail("escapes the output directory");
  if (normalised === "." || normalised.endsWith("/")) throw fail("names a directory, not a file");
  return normalised;
}

/**
 * The real path `target` has or would have once created: symbolic links in its existing part
 * resolved, the missing rest appended. A broken link cannot be resolved, so it is refused.
 * `label` names the path in errors.
 */
async function resolveReal(target: string, label: string): Promise<string> {
  try {
    return await realpath(target);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOTDIR") throw new GenerationError(`${label} goes through a file that is not a directory`);
    if (code !== "ENOENT") throw error;
    if (await exists(target)) throw new GenerationError(`${label} goes through a broken symbolic link`);
    const parent = path.dirname(target);
    if (parent === target) throw error;
    return path.join(await resolveReal(parent, label), path.basename(target));
  }
}

/** The bytes of the file at `target`, or undefined when there is none. */
async function readExisting(target: string, label: string): Promise<Buffer | undefined> {
  try {
    const info = await stat(target);
    if (!info.isFile()) throw new GenerationError(`output path ${quote(label)} exists and is not a regular file`);
    return await readFile(target);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The mode to give the temp file: a replaced file keeps its permissions (plus +x when
 * executable); a new executable file gets 0o755; a new plain file keeps the umask default.
 */
async function targetMode(target: string, executable: boolean): Promise<number | undefined> {
  try {
    const { mode } = await stat(target);
    return (mode & 0o777) | (executable ? 0o111 : 0);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
    return executable ? 0o755 : undefined;
  }
}

async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function quote(value: string): string {
  return JSON.stringify(value);
}
