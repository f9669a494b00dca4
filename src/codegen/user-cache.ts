// What codegen keeps between runs in the user's cache directory, never in the output tree: the
// up-to-date stamps (up-to-date.ts) and the formatter's answers (format-record.ts). One file
// per target, config file, working directory and `--out` in each kind's directory. Every file
// is a JSON object whose `outDir` names the output directory it speaks of, so the files of
// trees that are gone can be removed.

import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** Which invocation a cache file is for: one per target, config, working directory and `--out`. */
export interface StampKey {
  targetName: string;
  /** Absolute. */
  configFile: string;
  /** Absolute. */
  cwd: string;
  /** `--out` made absolute, or undefined when the config's package prefix decides. */
  out: string | undefined;
}

/** `$CODEGEN_CACHE_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/codegen`, then `kind/` and a name made from `key`. */
export function userCacheFile(kind: string, key: StampKey): string {
  const cache = process.env.CODEGEN_CACHE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "codegen");
  const name = createHash("sha256").update(JSON.stringify([key.targetName, key.configFile, key.cwd, key.out ?? null])).digest("hex");
  return path.join(cache, kind, `${name.slice(0, 32)}.json`);
}

/** The parsed JSON of a cache file, or undefined when it is missing or unreadable. */
export function readCacheFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Writes `data` as JSON by temp file and rename (a reader sees the old file or the new one,
 * never half of one), then prunes the directory at most once a day. Best effort: a cache file
 * only ever spares work, so a failure to write one costs the next run that work.
 */
export function writeCacheFile(file: string, data: { outDir: string }): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data));
    renameSync(temp, file);
    pruneCacheDir(path.dirname(file));
  } catch {
    // Best effort, as said.
  }
}

/** Removes a cache file; one left behind is harmless (each is checked against the disk before use). */
export function removeCacheFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // As said.
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A file no run has refreshed for this long is deleted, as is one whose output directory is gone. */
const MAX_AGE_MS = 30 * DAY_MS;

/**
 * At most once a day (a marker file's mtime says when), removes the files of output
 * directories that no longer exist and those older than 30 days, so temporary trees and old
 * projects do not fill the cache.
 */
function pruneCacheDir(dir: string): void {
  const marker = path.join(dir, ".pruned");
  const now = Date.now();
  const last = lstatSync(marker, { throwIfNoEntry: false });
  if (last && now - last.mtimeMs < DAY_MS) return;
  writeFileSync(marker, "");
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(dir, name);
    const info = lstatSync(file, { throwIfNoEntry: false });
    const data = info && now - info.mtimeMs < MAX_AGE_MS ? readCacheFile(file) : undefined;
    const outDir = typeof data === "object" && data !== null ? (data as { outDir?: unknown }).outDir : undefined;
    if (typeof outDir !== "string" || lstatSync(outDir, { throwIfNoEntry: false }) === undefined) removeCacheFile(file);
  }
}
