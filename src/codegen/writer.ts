// With prune.ts, the only code that changes the output directory. `planWrites` validates
// every path and decides each file's action, writing nothing. `applyPlan` carries out a plan
// under a journal (journal.ts): temp files beside their targets, renamed into place in commit
// order (aggregating files last) only once every temp is written, then the stale files
// deleted, then the manifest. Temp files are written several at a time (stageTemps); every
// other step is one synchronous syscall, in order.

import { chmod as chmodCallback, chmodSync, lstatSync, mkdirSync, renameSync, statSync, writeFile as writeFileCallback } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { FileSystemError, asFileSystemError, attempt } from "./fs-errors.js";
import { compileForcePattern } from "./globs.js";
import {
  type Journal,
  closeJournal,
  markCommitted,
  newRunId,
  recoverInterruptedRun,
  dirsUpTo,
  removeEmptyDirs,
  removeIfPresent,
  startJournal,
  tempPath,
  isTempName,
} from "./journal.js";
import { type LockOptions, withOutputLock } from "./lock.js";
import type { IfExists } from "./outputs.js";
import { OutputTree } from "./output-tree.js";
import { comparePaths, validatePaths } from "./paths.js";
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
  /**
   * The file aggregates others of the tree (a package's `__init__`, an index module): it is
   * renamed into place after every other file, deepest first, so it never imports a module
   * that is not there yet. @default false
   */
  aggregates?: boolean;
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

/** What {@link applyPlan} needs besides the plan. */
export interface ApplyOptions {
  /** The manifest to rename into place last. @default none */
  manifest?: ManifestWrite;
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
  /**
   * Whether a generated file aggregates others (see {@link PlannedWrite.aggregates}); the
   * target's `aggregates` hook. @default none does
   */
  aggregates?: (path: string) => boolean;
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
  return planWritesIn(new OutputTree(outDir), files, options);
}

/** {@link planWrites} against an already opened view of the output directory. */
export function planWritesIn(tree: OutputTree, files: Iterable<GeneratedFile>, options: WriteOptions = {}): PlannedWrite[] {
  const entries = validatePaths(files);
  const forced = forcedBy(options);
  return entries.map(([file, relative]): PlannedWrite => {
    const absolutePath = path.join(tree.root, relative);
    const existing = tree.bytesOf(relative);
    let action: WriteAction;
    if (existing === undefined) action = "create";
    else if (file.ifExists === "skip" && !forced(relative)) action = "skip";
    else if (sameBytes(existing, file.content)) action = "unchanged";
    else action = "overwrite";
    const planned: PlannedWrite = { file, path: relative, absolutePath, action };
    if (options.aggregates?.(relative)) planned.aggregates = true;
    return planned;
  });
}

/** Whether `force` or `forcePaths` overwrites an existing `skip` file at a path. @throws GenerationError for an invalid glob. */
export function forcedBy(options: Pick<WriteOptions, "force" | "forcePaths">): (path: string) => boolean {
  if (options.force) return () => true;
  const globs = [...(options.forcePaths ?? [])].map(compileForcePattern);
  return (relative) => globs.some((glob) => glob.test(relative));
}

/**
 * Temp files earlier runs left in the directories of `files` (a run killed before its journal
 * existed): `delete` entries, so a run removes them and `--check` reports them.
 */
export function planTempRemovals(tree: OutputTree, files: readonly { path: string }[]): PlannedDeletion[] {
  const dirs = new Set(files.map((file) => file.path.slice(0, Math.max(0, file.path.lastIndexOf("/")))));
  const removals: PlannedDeletion[] = [];
  for (const dir of dirs) {
    for (const name of tree.namesIn(dir)) {
      if (!isTempName(name)) continue;
      const relative = dir === "" ? name : `${dir}/${name}`;
      removals.push({ action: "delete", path: relative, absolutePath: path.join(tree.root, relative), dirs: [] });
    }
  }
  return removals;
}

function sameBytes(existing: Buffer, content: string): boolean {
  return existing.length === Buffer.byteLength(content) && existing.equals(Buffer.from(content));
}

/**
 * Carries out a plan from {@link planWrites} (and {@link planDeletions}); hold the output
 * directory's lock (`generate` and `writeFiles` do). Before anything changes, a journal lists
 * the whole write; every new content then goes to a temp file beside its target; only when
 * all are written are they renamed into place, aggregating files last. A failure while
 * writing temps removes them (and the directories made for them): nothing changed. A run
 * killed at any point is completed or rolled back by the next (see journal.ts). Identical
 * files are not rewritten, so their mtime is kept. Stale files are deleted after the renames,
 * with the directories they leave empty; the manifest, if given, is renamed into place last.
 *
 * @returns the number of files created, overwritten or already up to date (skipped and deleted ones do not count).
 * @throws FileSystemError saying what failed on which path, and how the directory was left.
 * @example const written = await applyPlan(plan);
 */
export async function applyPlan(plan: readonly PlannedChange[], options: ApplyOptions = {}): Promise<number> {
  const writes = commitOrder(plan.filter((entry): entry is PlannedWrite => entry.action === "create" || entry.action === "overwrite"));
  const deletions = plan.filter((entry): entry is PlannedDeletion => entry.action === "delete");
  const root = rootOf(plan, options.manifest);
  if (root !== undefined && (writes.length > 0 || deletions.length > 0 || options.manifest)) {
    await commit(root, writes, deletions, options.manifest);
  }
  for (const entry of plan) {
    if (entry.action === "unchanged" && entry.file.executable) ensureExecutable(entry.absolutePath);
  }
  return plan.filter((entry) => entry.action !== "skip" && entry.action !== "delete").length;
}

/**
 * Plans then writes `files` under `outDir` (see {@link planWrites} and {@link applyPlan}),
 * holding the output directory's lock and completing an interrupted run first.
 * Keeps no manifest and deletes nothing; `generate` does both.
 *
 * @returns the number of files written or already up to date; skipped files do not count.
 * @example await writeFiles([new GeneratedFile({ path: "a.py", content: "" })], "out", { force: true });
 */
export async function writeFiles(
  files: Iterable<GeneratedFile>,
  outDir: string,
  options: WriteOptions & { lock?: LockOptions } = {},
): Promise<number> {
  const list = [...files];
  validatePaths(list); // a bad path is refused before the directory or its lock is created
  return withOutputLock(
    outDir,
    async () => {
      recoverInterruptedRun(outDir);
      return applyPlan(await planWrites(list, outDir, options));
    },
    options.lock,
  );
}

/** Ordinary files in path order, then aggregating ones deepest first (a package before its parent). */
export function commitOrder(writes: readonly PlannedWrite[]): PlannedWrite[] {
  const depth = (entry: PlannedWrite) => entry.path.split("/").length;
  const aggregating = writes.filter((entry) => entry.aggregates).sort((a, b) => depth(b) - depth(a) || comparePaths(a.path, b.path));
  const ordinary = writes.filter((entry) => !entry.aggregates).sort((a, b) => comparePaths(a.path, b.path));
  return [...ordinary, ...aggregating];
}

/** The output directory a plan is about: every entry's absolute path is it joined with the entry's path. */
function rootOf(plan: readonly PlannedChange[], manifest: ManifestWrite | undefined): string | undefined {
  const entry = plan[0];
  if (entry) return entry.absolutePath.slice(0, entry.absolutePath.length - entry.path.length - 1);
  return manifest ? path.dirname(manifest.absolutePath) : undefined;
}

/** The journaled write: stage every temp, mark committed, rename, delete, manifest, close. */
async function commit(root: string, writes: readonly PlannedWrite[], deletions: readonly PlannedDeletion[], manifest: ManifestWrite | undefined): Promise<void> {
  const targets = writes.map((entry) => entry.path);
  const journal: Journal = {
    version: 1,
    run: newRunId(),
    pid: process.pid,
    started: new Date().toISOString(),
    writes: targets,
    manifest: manifest !== undefined,
    deletions: deletions.map((entry) => ({ path: entry.path, sha256: entry.sha256 ?? "" })),
    dirs: missingDirs(root, targets),
  };
  const contents: StagedContent[] = writes.map((entry) => ({
    target: entry.absolutePath,
    content: entry.file.content,
    executable: entry.file.executable,
    replaces: entry.action === "overwrite",
  }));
  if (manifest) contents.push({ target: manifest.absolutePath, content: manifest.content, executable: false, replaces: true });
  const temps = contents.map(({ target }, index) => tempPath(root, journal.run, index, path.relative(root, target)));

  // Normally the lock made it; a caller applying a plan without one may need it made here.
  const createdRoot = attempt("create the output directory", root, () => mkdirSync(root, { recursive: true }));
  const madeDirs = [...journal.dirs.map((dir) => path.join(root, dir)), ...(createdRoot ? dirsUpTo(root, createdRoot) : [])];
  startJournal(root, journal);
  const started: string[] = [];
  try {
    for (const dir of journal.dirs) {
      const absolute = path.join(root, dir);
      attempt("create directory", absolute, () => mkdirSync(absolute));
    }
    await stageTemps(contents, temps, started);
    markCommitted(root);
  } catch (error) {
    // Nothing is in place yet: undo everything, so the directory is as it was. The cleanup is
    // best effort: its own failures must not hide the error that stopped the run.
    for (const temp of started) bestEffort(() => removeIfPresent(temp));
    bestEffort(() => closeJournal(root));
    bestEffort(() => removeEmptyDirs(madeDirs));
    throw withOutcome(error, "nothing was changed in the output directory");
  }
  try {
    writes.forEach((entry, index) => attempt("rename into place", entry.absolutePath, () => renameSync(temps[index]!, entry.absolutePath)));
    deleteStale(deletions);
    if (manifest) attempt("rename into place", manifest.absolutePath, () => renameSync(temps[writes.length]!, manifest.absolutePath));
    closeJournal(root);
  } catch (error) {
    // Past the commit mark a run is completed, never undone: the next run finishes it.
    throw withOutcome(error, "the output directory is partly updated; run codegen generate again to complete it");
  }
}

/** One file's new content, bound for a temp file beside its target. */
interface StagedContent {
  target: string;
  content: string;
  executable: boolean;
  /** The target exists and keeps its permissions. */
  replaces: boolean;
}

// Enough temp files at once to keep libuv's four file-system threads busy; the callback API
// costs less main-thread CPU per file than fs/promises' FileHandle.
const STAGING_CONCURRENCY = 8;
const writeFile = promisify(writeFileCallback);
const chmod = promisify(chmodCallback);

/**
 * Writes each content to its temp file, several at a time: creating files costs the disk more
 * than the CPU, and creations in different threads overlap. After a failure no new write
 * starts; the ones under way finish, then the first error is thrown. `started` receives every
 * temp a write was begun for, so the caller can remove them.
 */
async function stageTemps(contents: readonly StagedContent[], temps: readonly string[], started: string[]): Promise<void> {
  const order = acrossDirectories(temps);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const stageOne = async (index: number): Promise<void> => {
    const { target, content, executable, replaces } = contents[index]!;
    const temp = temps[index]!;
    started.push(temp);
    try {
      await writeFile(temp, content, { flag: "wx" });
    } catch (error) {
      throw asFileSystemError(error, "write", target);
    }
    const mode = replaces ? targetMode(target, executable) : executable ? 0o755 : undefined;
    if (mode === undefined) return;
    try {
      await chmod(temp, mode);
    } catch (error) {
      throw asFileSystemError(error, "set the permissions of", target);
    }
  };
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < contents.length) {
      try {
        await stageOne(order[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAGING_CONCURRENCY, contents.length) }, worker));
  if (failure) throw failure.error;
}

/**
 * The indexes of `files`, taking one file of each directory in turn: a file system creates one
 * file at a time in a directory (it locks the directory), so concurrent creations overlap only
 * in different directories.
 */
function acrossDirectories(files: readonly string[]): number[] {
  const byDirectory = new Map<string, number[]>();
  files.forEach((file, index) => {
    const directory = path.dirname(file);
    const indexes = byDirectory.get(directory);
    if (indexes) indexes.push(index);
    else byDirectory.set(directory, [index]);
  });
  const groups = [...byDirectory.values()];
  const order: number[] = [];
  for (let round = 0; order.length < files.length; round++) {
    for (const group of groups) if (round < group.length) order.push(group[round]!);
  }
  return order;
}

/** Directories the targets need that do not exist yet, relative, parents first. */
function missingDirs(root: string, targets: readonly string[]): string[] {
  const missing = new Set<string>();
  const known = new Map<string, boolean>();
  const exists = (dir: string): boolean => {
    let found = known.get(dir);
    if (found === undefined) {
      found = attempt("inspect", path.join(root, dir), () => lstatSync(path.join(root, dir), { throwIfNoEntry: false })) !== undefined;
      known.set(dir, found);
    }
    return found;
  };
  for (const target of targets) {
    for (let dir = path.posix.dirname(target); dir !== "." && !missing.has(dir) && !exists(dir); dir = path.posix.dirname(dir)) {
      missing.add(dir);
    }
  }
  return [...missing].sort((a, b) => a.split("/").length - b.split("/").length || comparePaths(a, b));
}

/** Runs a cleanup step, ignoring its failure (a journal left behind is rolled back by the next run). */
function bestEffort(step: () => void): void {
  try {
    step();
  } catch {
    // See above.
  }
}

function withOutcome(error: unknown, outcome: string): unknown {
  return error instanceof FileSystemError ? error.withOutcome(outcome) : error;
}

/**
 * The mode to give the temp file of a file that may exist: a replaced file keeps its
 * permissions (plus +x when executable). A new executable file gets 0o755; a new plain file
 * keeps the umask default.
 */
function targetMode(target: string, executable: boolean): number | undefined {
  const info = attempt("inspect", target, () => statSync(target, { throwIfNoEntry: false }));
  if (info === undefined) return executable ? 0o755 : undefined;
  return (info.mode & 0o777) | (executable ? 0o111 : 0);
}

/** Gives an unchanged executable file its +x bits if it lost them. */
function ensureExecutable(file: string): void {
  try {
    const { mode } = statSync(file);
    if ((mode & 0o111) !== 0o111) chmodSync(file, (mode & 0o777) | 0o111);
  } catch (error) {
    throw asFileSystemError(error, "set the permissions of", file);
  }
}

