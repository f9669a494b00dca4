// The output directory's lock: one writing run at a time per directory. A run creates
// `.codegen-lock` (exclusively) holding its pid, host and start time, plans and writes, then
// removes it. Another run waits while the holder lives, then fails with a message naming it;
// a lock left by a process that no longer exists (killed) is broken. Read-only runs
// (`--check`, `--dry-run`) create nothing: they only wait for a lock to go away.

import { mkdirSync, readFileSync, renameSync, linkSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { CLIError } from "./errors.js";
import { asFileSystemError, attempt } from "./fs-errors.js";
import { dirsUpTo, removeEmptyDirs, removeIfPresent } from "./journal.js";
import { errorCode } from "./paths.js";
import { OutputTree } from "./output-tree.js";

/** The lock's name, at the top of the output directory. */
export const LOCK_FILE = ".codegen-lock";

/** Who holds a lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the holder took the lock. */
  since: string;
  /** Random token telling two holders with the same pid apart. */
  token: string;
}

/** How long to wait for another run, and who to tell. */
export interface LockOptions {
  /** How long to wait for another run's lock, in ms; 0 fails at once. @default 60000 */
  timeoutMs?: number;
  /** Called once when the run starts waiting for `holder`. */
  onWait?: (holder: LockHolder) => void;
}

/** Another run holds the output directory's lock for longer than this run would wait. */
export class LockTimeoutError extends CLIError {
  override name = "LockTimeoutError";
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** A lock file whose holder cannot be read (a run killed while writing it) counts as stale after this long. */
const UNREADABLE_STALE_MS = 5_000;

/**
 * Runs `fn` holding the lock of `outDir`, creating the directory if needed. When `fn` fails,
 * directories this call created are removed again if still empty, so a failed run leaves nothing.
 * @throws LockTimeoutError when another live run keeps the lock past the timeout;
 * FileSystemError when the lock cannot be created (a read-only file system, …).
 */
export async function withOutputLock<T>(outDir: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const tree = new OutputTree(outDir); // refuses an output directory that is a file, or unreachable
  const root = tree.root;
  const created = attempt("create the output directory", root, () => mkdirSync(root, { recursive: true }));
  const token = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token };
  let ok = false;
  try {
    await acquire(root, holder, options);
    try {
      const result = await fn();
      ok = true;
      return result;
    } finally {
      release(root, token);
    }
  } finally {
    if (!ok && created !== undefined) removeEmptyDirs(dirsUpTo(root, created));
  }
}

/** Waits until no live run holds the lock of `outDir`, creating nothing. */
export async function waitForUnlocked(outDir: string, options: LockOptions = {}): Promise<void> {
  const file = path.join(path.resolve(outDir), LOCK_FILE);
  await waitWhileHeld(file, options, () => !lockPresent(file));
}

async function acquire(root: string, holder: LockHolder, options: LockOptions): Promise<void> {
  const file = path.join(root, LOCK_FILE);
  const content = `${JSON.stringify(holder)}\n`;
  await waitWhileHeld(file, options, () => {
    try {
      writeFileSync(file, content, { flag: "wx" });
      return true;
    } catch (error) {
      if (errorCode(error) === "EEXIST") return false;
      throw asFileSystemError(error, "create the lock file", file);
    }
  });
}

/**
 * Calls `tryNow` until it returns true: between tries, breaks a lock whose holder is gone and
 * sleeps while a live one holds it, up to the timeout.
 */
async function waitWhileHeld(file: string, options: LockOptions, tryNow: () => boolean): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  let announced = false;
  for (;;) {
    if (tryNow()) return;
    const holder = readHolder(file);
    if (holder === "gone") continue;
    if (holder === "stale" || (holder !== "unreadable" && isDead(holder))) {
      breakLock(file, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder === "unreadable" ? "another codegen run" : `the codegen run of pid ${holder.pid} on ${holder.host} (since ${holder.since})`;
      throw new LockTimeoutError(
        `${path.dirname(file)} is locked by ${who}; waited ${Math.round(timeoutMs / 1000)} s. ` +
          `Wait for that run to finish, or, if no codegen run is writing there, delete ${file}`,
      );
    }
    if (!announced && holder !== "unreadable") {
      announced = true;
      options.onWait?.(holder);
    }
    await sleep(Math.min(delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 200);
  }
}

/** Whether the lock file exists; a path that cannot hold one (through a file, …) holds none, and planning reports why. */
function lockPresent(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Removes the lock if it is still this run's. */
function release(root: string, token: string): void {
  const file = path.join(root, LOCK_FILE);
  const holder = readHolder(file);
  if (typeof holder === "object" && holder.token === token) removeIfPresent(file);
}

type ReadHolder = LockHolder | "gone" | "unreadable" | "stale";

function readHolder(file: string): ReadHolder {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return "gone";
    throw asFileSystemError(error, "read the lock file", file);
  }
  try {
    const data = JSON.parse(text) as LockHolder;
    if (typeof data.pid === "number" && typeof data.host === "string" && typeof data.token === "string") return data;
  } catch {
    // Torn: its writer died between creating and filling it, or is filling it right now.
  }
  const info = statSync(file, { throwIfNoEntry: false });
  if (info === undefined) return "gone";
  return Date.now() - info.mtimeMs > UNREADABLE_STALE_MS ? "stale" : "unreadable";
}

/** Whether the holder's process is known to be gone (same host, no such pid). */
function isDead(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === "ESRCH";
  }
}

/**
 * Breaks a dead holder's lock. Renaming is atomic, so of several runs breaking it at once one
 * wins; a run that moved a lock which turns out to be a fresh, live one puts it back.
 */
function breakLock(file: string, expected: LockHolder | "stale"): void {
  const moved = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.broken`;
  try {
    renameSync(file, moved);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw asFileSystemError(error, "break the stale lock file", file);
  }
  const took = readHolder(moved);
  const sameLock = expected === "stale" ? took === "stale" || took === "unreadable" : typeof took === "object" && took.token === expected.token;
  if (!sameLock) {
    try {
      linkSync(moved, file);
    } catch {
      // Someone took the lock meanwhile; the moved one's holder will find its lock gone.
    }
  }
  removeIfPresent(moved);
}
