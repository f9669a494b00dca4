// Output trees as data, for tests that compare what several runs left in one directory: every
// file (the manifest included) with a hash of its content, and the leftovers a run must never
// leave behind (temp files, a journal, a lock).
import { createHash } from "node:crypto";
import { readFile, readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Relative path → SHA-256 of the content, for every file under `dir`. */
export async function treeHashes(dir: string): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    result.set(path.relative(dir, full), createHash("sha256").update(await readFile(full)).digest("hex"));
  }
  return result;
}

/** Relative path → modification time (ms), for every file under `dir`: which files a run rewrote. */
export async function treeMtimes(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) result.set(path.relative(dir, full), (await stat(full)).mtimeMs);
  }
  return result;
}

/** Whether two trees hold the same files with the same contents. */
export function sameTree(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([file, hash]) => b.get(file) === hash);
}

/** Files no finished run may leave: temp files, the journal and its commit mark, the lock. */
export function leftovers(tree: ReadonlyMap<string, string>): string[] {
  return [...tree.keys()].filter((file) => {
    const name = path.basename(file);
    return /^\.codegen-.*\.tmp$/.test(name) || name.startsWith(".codegen-journal") || name === ".codegen-lock";
  });
}
