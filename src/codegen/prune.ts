// Pruning: of the files an earlier run recorded and this run no longer produces, decide
// which may be deleted (`planDeletions`: only regular files inside the output directory with
// exactly the recorded content) and delete them (`deleteStale`, called by `applyPlan` after
// every write succeeded), with the directories they leave empty. Nothing else is touched.

import { createHash } from "node:crypto";
import { readFileSync, rmdirSync, unlinkSync } from "node:fs";
import path from "node:path";

import { asFileSystemError, attempt } from "./fs-errors.js";
import { OutputTree } from "./output-tree.js";
import { errorCode, isInside, normaliseOutputPath } from "./paths.js";

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
  /** The hash the file has (as recorded), so an interrupted run deletes it only while it still has it; absent for a stale temp file. */
  sha256?: string;
}

/** A generated file recorded by an earlier run, with the SHA-256 of what was written. */
export interface RecordedFile {
  /** Normalised path relative to the output directory. */
  path: string;
  /** Lowercase hex SHA-256 of the content as generated. */
  sha256: string;
  /**
   * SHA-256 of the text as assembled, before the target's formatter changed it; absent when the
   * formatter left it as it was. A later run that assembles the same text takes the formatted
   * text from the file, while the file still hashes to `sha256`, instead of formatting it again.
   */
  assembled?: string;
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
  return planDeletionsIn(new OutputTree(outDir), stale);
}

/** {@link planDeletions} against an already opened view of the output directory. */
export function planDeletionsIn(tree: OutputTree, stale: Iterable<RecordedFile>): { deletions: PlannedDeletion[]; kept: KeptFile[] } {
  const deletions: PlannedDeletion[] = [];
  const kept: KeptFile[] = [];
  for (const recorded of stale) {
    const relative = normaliseOutputPath(recorded.path);
    const absolutePath = path.join(tree.root, relative);
    const keep = (reason: string) => kept.push({ path: relative, absolutePath, reason });
    const entry = tree.entryOf(relative);
    // Already gone (its directory too, or unreachable: a file or a broken link on the way).
    if (entry?.kind === undefined) continue;
    if (entry.kind !== "file") {
      keep("it is no longer a regular file");
      continue;
    }
    if (!isInside(tree.realRoot, entry.realDir)) {
      keep(`it now lies outside the output directory (${entry.realDir})`);
      continue;
    }
    const realPath = path.join(entry.realDir, path.posix.basename(relative));
    if (sha256(attempt("read", realPath, () => readFileSync(realPath))) !== recorded.sha256) {
      keep("it changed since codegen generated it");
      continue;
    }
    const dirs: string[] = [];
    for (let dir = path.posix.dirname(relative); dir !== "."; dir = path.posix.dirname(dir)) dirs.push(path.join(tree.root, dir));
    deletions.push({ action: "delete", path: relative, absolutePath, dirs, sha256: recorded.sha256 });
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
export function deleteStale(deletions: readonly PlannedDeletion[]): void {
  const dirs = new Set<string>();
  for (const deletion of deletions) {
    try {
      unlinkSync(deletion.absolutePath);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw asFileSystemError(error, "delete", deletion.absolutePath);
    }
    for (const dir of deletion.dirs) dirs.add(dir);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split(path.sep).length - a.split(path.sep).length || (a < b ? -1 : 1));
  for (const dir of deepestFirst) {
    try {
      rmdirSync(dir);
    } catch (error) {
      // Not empty (the user's files, or this run's), already gone, or not ours to remove: keep it.
      if (!["ENOTEMPTY", "EEXIST", "ENOENT", "ENOTDIR", "EBUSY", "EPERM", "EACCES"].includes(errorCode(error) ?? "")) {
        throw asFileSystemError(error, "remove directory", dir);
      }
    }
  }
}
