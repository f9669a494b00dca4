// The journal of a write in progress, so a run killed at any point is completed or rolled back
// by the next one. Before its first temp file a run writes `.codegen-journal.json`: the files it
// will rename into place (in commit order), the stale files it will delete, whether a manifest
// follows, and the directories it may create. Once every temp is written it creates
// `.codegen-journal.commit`. A journal without that mark is rolled back (its temps and the empty
// directories it made removed); one with it is completed (the remaining temps renamed, the
// deletions and the manifest done). Temp names derive from the run id and the entry's index.

import { randomBytes } from "node:crypto";
import { lstatSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

import { GenerationError } from "./errors.js";
import { asFileSystemError, attempt } from "./fs-errors.js";
import { MANIFEST_FILE } from "./manifest.js";
import { OutputTree } from "./output-tree.js";
import { errorCode, isNormalOutputPath } from "./paths.js";
import { type PlannedDeletion, deleteStale, sha256 } from "./prune.js";

/** The journal's name, at the top of the output directory. */
export const JOURNAL_FILE = ".codegen-journal.json";
/** Created once every temp file of the journal's run is written: from then on the run is completed, not undone. */
export const COMMIT_MARK = ".codegen-journal.commit";

const JOURNAL_VERSION = 1;

/** What a run is about to do to the output directory, written before it does any of it. */
export interface Journal {
  version: typeof JOURNAL_VERSION;
  /** Random id of the run (12 hex digits); its temp files are named after it. */
  run: string;
  pid: number;
  /** ISO time the run started writing. */
  started: string;
  /** Files to rename into place, as normalised paths relative to the output directory, in commit order. */
  writes: string[];
  /** Whether the manifest is renamed into place last (its temp has index `writes.length`). */
  manifest: boolean;
  /** Stale files to delete once every write landed, with the hash they must still have. */
  deletions: { path: string; sha256: string }[];
  /** Directories the run may create, relative, parents first; removed on rollback when empty. */
  dirs: string[];
}

/** How an interrupted run found in the output directory was dealt with. */
export interface Recovery {
  outcome: "completed" | "rolled back";
  /** The interrupted run's process id and start time, from its journal (unknown for a torn journal). */
  pid?: number;
  started?: string;
}

/** A fresh run id. */
export function newRunId(): string {
  return randomBytes(6).toString("hex");
}

/** Absolute path of the temp file of entry `index` of run `run`, beside its target. */
export function tempPath(root: string, run: string, index: number, target: string): string {
  return path.join(path.dirname(path.join(root, target)), `.codegen-${run}-${index}.tmp`);
}

const TEMP_NAME = /^\.codegen-[0-9a-f]{12}-\d+\.tmp$/;

/** Whether `name`, found in a directory of the output tree, is a temp file some codegen run left there. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** Writes the journal; it must not exist yet (a previous one is recovered first). */
export function startJournal(root: string, journal: Journal): void {
  const file = path.join(root, JOURNAL_FILE);
  attempt("write the journal", file, () => writeFileSync(file, `${JSON.stringify(journal)}\n`, { flag: "wx" }));
}

/** Marks the journal's run as committed: every temp file is written. */
export function markCommitted(root: string): void {
  const file = path.join(root, COMMIT_MARK);
  attempt("write the commit mark", file, () => writeFileSync(file, "", { flag: "wx" }));
}

/** Removes the journal once its run is finished or undone: the mark first, so a crash in between reads as a finished rollback. */
export function closeJournal(root: string): void {
  for (const name of [COMMIT_MARK, JOURNAL_FILE]) removeIfPresent(path.join(root, name));
}

/** Whether the output directory holds the journal of an interrupted run. */
export function hasJournal(root: string): boolean {
  return lstatSync(path.join(root, JOURNAL_FILE), { throwIfNoEntry: false }) !== undefined;
}

/**
 * Completes or rolls back the run a journal in `outDir` describes, if there is one; call it
 * holding the output directory's lock, before planning.
 * @returns what was done, or undefined when there was nothing to recover.
 * @throws GenerationError when a committed run's journal is unreadable or names paths outside the tree.
 */
export function recoverInterruptedRun(outDir: string): Recovery | undefined {
  const root = path.resolve(outDir);
  const file = path.join(root, JOURNAL_FILE);
  const committed = lstatSync(path.join(root, COMMIT_MARK), { throwIfNoEntry: false }) !== undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw asFileSystemError(error, "read", file);
    // A mark without a journal: the crash came between removing the two.
    if (committed) removeIfPresent(path.join(root, COMMIT_MARK));
    return undefined;
  }
  const journal = parseJournal(text);
  if (journal === undefined) {
    // Written before any temp file: a torn journal means the run died before it changed anything.
    if (!committed) {
      attempt("remove", file, () => unlinkSync(file));
      return { outcome: "rolled back" };
    }
    throw new GenerationError(
      `corrupt journal ${file} of an interrupted run that had written all its files; ` +
        `delete ${file} and ${path.join(root, COMMIT_MARK)}, then run codegen generate again`,
    );
  }
  const tree = new OutputTree(root);
  const targets = [...journal.writes, ...(journal.manifest ? [MANIFEST_FILE] : [])];
  // Refuse to touch anything outside the tree, whatever the journal says.
  for (const target of targets) tree.locate(target);
  if (committed) complete(root, journal, targets);
  else rollBack(root, journal, targets);
  closeJournal(root);
  return { outcome: committed ? "completed" : "rolled back", pid: journal.pid, started: journal.started };
}

function complete(root: string, journal: Journal, targets: readonly string[]): void {
  targets.forEach((target, index) => {
    const temp = tempPath(root, journal.run, index, target);
    // Already renamed before the crash when its temp is gone.
    if (lstatSync(temp, { throwIfNoEntry: false }) === undefined) return;
    const destination = path.join(root, target);
    attempt("rename into place", destination, () => renameSync(temp, destination));
  });
  const deletions: PlannedDeletion[] = [];
  for (const { path: relative, sha256: hash } of journal.deletions) {
    const absolutePath = path.join(root, relative);
    const info = lstatSync(absolutePath, { throwIfNoEntry: false });
    if (!info?.isFile() || sha256(readFileSync(absolutePath)) !== hash) continue;
    const dirs: string[] = [];
    for (let dir = path.posix.dirname(relative); dir !== "."; dir = path.posix.dirname(dir)) dirs.push(path.join(root, dir));
    deletions.push({ action: "delete", path: relative, absolutePath, dirs });
  }
  deleteStale(deletions);
}

function rollBack(root: string, journal: Journal, targets: readonly string[]): void {
  targets.forEach((target, index) => removeIfPresent(tempPath(root, journal.run, index, target)));
  removeEmptyDirs(journal.dirs.map((dir) => path.join(root, dir)));
}

/** Removes a file, ignoring one that is already gone. */
export function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw asFileSystemError(error, "remove", file);
  }
}

/** Removes those of `dirs` that are empty, deepest first; any that still hold something stay. */
export function removeEmptyDirs(dirs: readonly string[]): void {
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty, already gone, or not ours to remove: keep it.
    }
  }
}

/** `dir` and its ancestors up to and including `top` (a directory `mkdir -p` created first), deepest first. */
export function dirsUpTo(dir: string, top: string): string[] {
  const dirs = [dir];
  while (dir !== top && path.dirname(dir) !== dir) dirs.push((dir = path.dirname(dir)));
  return dirs;
}

function parseJournal(text: string): Journal | undefined {
  let data: Partial<Journal>;
  try {
    data = JSON.parse(text) as Partial<Journal>;
  } catch {
    return undefined;
  }
  const canonical = (value: unknown) => typeof value === "string" && isNormalOutputPath(value);
  const valid =
    data.version === JOURNAL_VERSION &&
    typeof data.run === "string" &&
    /^[0-9a-f]{12}$/.test(data.run) &&
    typeof data.pid === "number" &&
    typeof data.started === "string" &&
    Array.isArray(data.writes) &&
    data.writes.every(canonical) &&
    typeof data.manifest === "boolean" &&
    Array.isArray(data.deletions) &&
    data.deletions.every((entry) => canonical(entry?.path) && typeof entry?.sha256 === "string") &&
    Array.isArray(data.dirs) &&
    data.dirs.every(canonical);
  return valid ? (data as Journal) : undefined;
}
