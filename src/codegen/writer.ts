// With prune.ts, the only code that changes the output directory. `planWrites` validates
// every path and decides each file's action, writing nothing. `applyPlan` carries out a plan:
// writes all-or-nothing (temp files beside their targets, renamed into place only once every
// temp is written), only then deletes the stale files prune.ts planned, and writes the
// manifest last.

import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

import { mapLimit } from "./concurrency.js";
import { GenerationError } from "./errors.js";
import { compileForcePattern } from "./globs.js";
import type { IfExists } from "./outputs.js";
import { errorCode, isInside, quotePath, resolveOutDir, resolveReal, validatePaths } from "./paths.js";
import { type PlannedDeletion, deleteStale } from "./prune.js";

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
  /** The file's path normalised (`a/./b.py` → `a/b.py`), relative to the output directory. */
  path: string;
  /** Where the file goes: the output directory joined with the normalised path. */
  absolutePath: string;
  /** What writing will do with it. */
  action: WriteAction;
}

export type { KeptFile, PlannedDeletion, RecordedFile } from "./prune.js";

/** One entry of a plan: a file to write (or leave), or a stale file to delete. */
export type PlannedChange = PlannedWrite | PlannedDeletion;

/** Every action a plan entry can have. */
export type PlanAction = PlannedChange["action"];

/** The manifest file to (re)write as the very last step of {@link applyPlan}. */
export interface ManifestWrite {
  absolutePath: string;
  content: string;
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
 * that is also another file's directory, or one whose place on disk is taken by a directory;
 * and for an invalid `forcePaths` glob.
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
  const realRoot = await resolveOutDir(root, outDir);

  return mapLimit(entries, IO_CONCURRENCY, async ([file, relative]): Promise<PlannedWrite> => {
    const absolutePath = path.join(root, relative);
    const real = await resolveReal(absolutePath, `output path ${quotePath(file.path)}`, file.path);
    if (!isInside(realRoot, real)) {
      throw new GenerationError(`output path ${quotePath(file.path)} resolves to ${real}, outside the output directory ${realRoot}`, {
        outputPaths: [file.path],
      });
    }
    const existing = await readExisting(absolutePath, file.path);
    let action: WriteAction;
    if (existing === undefined) action = "create";
    else if (file.ifExists === "skip" && !options.force && !forced.some((glob) => glob.test(relative))) action = "skip";
    else if (existing.equals(Buffer.from(file.content))) action = "unchanged";
    else action = "overwrite";
    return { file, path: relative, absolutePath, action };
  });
}

/**
 * Carries out a plan from {@link planWrites} (and {@link planDeletions}). Writes go first,
 * all-or-nothing: every new content goes to a temp file beside its target; only when all are
 * written are they renamed into place. On a failure the temps and any directories created are
 * removed and the error is rethrown. Identical files are not rewritten, so their mtime is kept.
 * Only then are stale files deleted, with the directories they leave empty; the manifest, if
 * given, is renamed into place last, so it never lists a deletion that did not happen.
 *
 * @returns the number of files created, overwritten or already up to date (skipped and deleted ones do not count).
 * @example const written = await applyPlan(plan);
 */
export async function applyPlan(plan: readonly PlannedChange[], options: { manifest?: ManifestWrite } = {}): Promise<number> {
  const writes = plan.filter((entry): entry is PlannedWrite => entry.action === "create" || entry.action === "overwrite");
  const staged: { absolutePath: string; content: string; executable: boolean }[] = writes.map((entry) => ({
    absolutePath: entry.absolutePath,
    content: entry.file.content,
    executable: entry.file.executable,
  }));
  if (options.manifest) staged.push({ ...options.manifest, executable: false });
  const temps = await stage(staged);

  let renamed = 0;
  try {
    for (; renamed < writes.length; renamed++) await rename(temps[renamed]!, writes[renamed]!.absolutePath);
    for (const entry of plan) {
      if (entry.action !== "unchanged" || !entry.file.executable) continue;
      const { mode } = await stat(entry.absolutePath);
      if ((mode & 0o111) !== 0o111) await chmod(entry.absolutePath, (mode & 0o777) | 0o111);
    }
    await deleteStale(plan.filter((entry): entry is PlannedDeletion => entry.action === "delete"));
    if (options.manifest) await rename(temps[renamed]!, options.manifest.absolutePath);
  } catch (error) {
    // A rename or a deletion cannot be undone safely; at least leave no temp files behind.
    await removeAll(temps.slice(renamed));
    throw error;
  }
  return plan.filter((entry) => entry.action !== "skip" && entry.action !== "delete").length;
}

/**
 * Plans then writes `files` under `outDir` (see {@link planWrites} and {@link applyPlan}).
 * Keeps no manifest and deletes nothing; `generate` does both.
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

/** Writes each content to a temp file beside its target; on failure removes them all (and new directories). */
async function stage(files: readonly { absolutePath: string; content: string; executable: boolean }[]): Promise<string[]> {
  // Named up front so a failure can remove every temp, whichever writes had started.
  const temps = files.map(({ absolutePath }) =>
    path.join(path.dirname(absolutePath), `.${path.basename(absolutePath)}.${randomBytes(6).toString("hex")}.tmp`),
  );
  const createdDirs: string[] = [];
  try {
    await mapLimit(files, IO_CONCURRENCY, async ({ absolutePath, content, executable }, index) => {
      const created = await mkdir(path.dirname(absolutePath), { recursive: true });
      if (created !== undefined) createdDirs.push(created);
      await writeFile(temps[index]!, content, { flag: "wx" });
      const mode = await targetMode(absolutePath, executable);
      if (mode !== undefined) await chmod(temps[index]!, mode);
    });
  } catch (error) {
    await removeAll(temps);
    // Deepest first, so a parent is removed after the directories it holds.
    for (const dir of createdDirs.sort((a, b) => b.length - a.length)) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return temps;
}

/**
 * Best-effort removal of temp files after a failure: every removal settles, and none of
 * their errors (a temp whose directory could not be made, say) hides the original one.
 */
async function removeAll(temps: readonly string[]): Promise<void> {
  await Promise.allSettled(temps.map((temp) => rm(temp, { force: true })));
}

/** How many files are checked or staged at once. */
const IO_CONCURRENCY = 32;

/** The bytes of the file at `target`, or undefined when there is none. */
async function readExisting(target: string, label: string): Promise<Buffer | undefined> {
  try {
    const info = await stat(target);
    if (!info.isFile()) {
      throw new GenerationError(`output path ${quotePath(label)} exists and is not a regular file`, { outputPaths: [label] });
    }
    return await readFile(target);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    if (errorCode(error) === "ENAMETOOLONG") {
      throw new GenerationError(`output path ${quotePath(label)} is too long for the file system`, { outputPaths: [label] });
    }
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
