// Pruning: of the files an earlier run recorded and this run no longer produces, decide
// which may be deleted (`planDeletions`: only regular files inside the output directory with
// exactly the recorded content) and delete them (`deleteStale`, called by `applyPlan` after
// every write succeeded), with the directories they leave empty. Nothing else is touched.

import { createHash } from "node:crypto";
import { lstat, readFile, rmdir, unlink } from "node:fs/promises";
import path from "node:path";

import { errorCode, isInside, normaliseOutputPath, quote, resolveOutDir, resolveReal } from "./paths.js";

/**
 * A file an earlier run generated that this run no longer produces, still as generated:
 * deleted after every write succeeded, then the directories it leaves empty.
 */
export interface PlannedDeletion {
  action: "delete";
  /** Normalised path relative to the output directory. */
  path: string;
  absolutePath: string;
  /** Directories that held the file, innermost first, inside the output directory; removed if left empty. */
  dirs: string[];
}

/** A generated file recorded by an earlier run, with the SHA-256 of what was written. */
export interface RecordedFile {
  /** Normalised path relative to the output directory. */
  path: string;
  /** Lowercase hex SHA-256 of the content as generated. */
  sha256: string;
}

/** A stale file left in place, and why: it is no longer exactly what codegen wrote. */
export interface KeptFile {
  path: string;
  absolutePath: string;
  reason: string;
}

/**
 * Decides, for files an earlier run recorded and this run no longer produces, which to
 * delete; deletes nothing. A file is deleted only while it is a regular file inside the
 * output directory with exactly the recorded content; one changed since is kept (with the
 * reason), one already gone needs nothing.
 *
 * @example const { deletions, kept } = await planDeletions([{ path: "old.py", sha256 }], "out");
 */
export async function planDeletions(
  stale: Iterable<RecordedFile>,
  outDir: string,
): Promise<{ deletions: PlannedDeletion[]; kept: KeptFile[] }> {
  const root = path.resolve(outDir);
  const realRoot = await resolveOutDir(root, outDir);
  const deletions: PlannedDeletion[] = [];
  const kept: KeptFile[] = [];
  for (const recorded of stale) {
    const relative = normaliseOutputPath(recorded.path);
    const absolutePath = path.join(root, relative);
    const keep = (reason: string) => kept.push({ path: relative, absolutePath, reason });
    let info;
    try {
      info = await lstat(absolutePath);
    } catch (error) {
      // Already gone (or, too long a path for this file system, never written here).
      if (["ENOENT", "ENOTDIR", "ENAMETOOLONG"].includes(errorCode(error) ?? "")) continue;
      throw error;
    }
    if (!info.isFile()) {
      keep("it is no longer a regular file");
      continue;
    }
    const realParent = await resolveReal(path.dirname(absolutePath), `output path ${quote(relative)}`);
    if (!isInside(realRoot, realParent)) {
      keep(`it now lies outside the output directory (${realParent})`);
      continue;
    }
    if (sha256(await readFile(absolutePath)) !== recorded.sha256) {
      keep("it changed since codegen generated it");
      continue;
    }
    const dirs: string[] = [];
    for (let dir = path.posix.dirname(relative); dir !== "."; dir = path.posix.dirname(dir)) dirs.push(path.join(root, dir));
    deletions.push({ action: "delete", path: relative, absolutePath, dirs });
  }
  return { deletions, kept };
}

/**
 * Lowercase hex SHA-256 of a file's content, as the manifest records it.
 * @example sha256("") // "e3b0c442…"
 */
export function sha256(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Deletes the files, then every directory that held one and is now empty, deepest first. */
export async function deleteStale(deletions: readonly PlannedDeletion[]): Promise<void> {
  const dirs = new Set<string>();
  for (const deletion of deletions) {
    try {
      await unlink(deletion.absolutePath);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
    for (const dir of deletion.dirs) dirs.add(dir);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split(path.sep).length - a.split(path.sep).length || (a < b ? -1 : 1));
  for (const dir of deepestFirst) {
    try {
      await rmdir(dir);
    } catch (error) {
      // Not empty (the user's files, or this run's), already gone, or not ours to remove: keep it.
      if (!["ENOTEMPTY", "EEXIST", "ENOENT", "ENOTDIR", "EBUSY", "EPERM", "EACCES"].includes(errorCode(error) ?? "")) throw error;
    }
  }
}

