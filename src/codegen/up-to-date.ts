// The up-to-date check, as make and git do it: a writing run leaves a stamp (in the user's cache
// directory, never in the output tree) with the fingerprint of its inputs and each generated
// file's identity on disk right after the write. A later run whose fingerprint and every
// identity still match knows the plan is all `unchanged` and `skip` without validating,
// building, rendering or formatting. Any doubt (no stamp, a changed input, a touched, missing or
// racy file, a journal, a temp file, a directory turned into a link) means the full run.

import { lstatSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";

import type { ConfigIssue } from "./errors.js";
import { compileForcePattern } from "./globs.js";
import { identityOf, isRacy } from "./file-identity.js";
import { type FingerprintInputs, inputFingerprint } from "./input-fingerprint.js";
import { hasJournal, isTempName } from "./journal.js";
import { type LockOptions, waitForUnlocked, withOutputLock } from "./lock.js";
import { manifestPath } from "./manifest.js";
import { sha256 } from "./prune.js";
import { type PhaseTimer, timed } from "./timings.js";
import { type StampKey, readCacheFile, removeCacheFile, userCacheFile, writeCacheFile } from "./user-cache.js";
import type { PlannedWrite } from "./writer.js";

export type { StampKey } from "./user-cache.js";

interface Stamp {
  version: 1;
  fingerprint: string;
  libraryDirs: string[];
  extraInputs: string[];
  outDir: string;
  realRoot: string;
  warnings: ConfigIssue[];
  /** The manifest's identity, or null when there is none. */
  manifest: string | null;
  /** Every directory holding generated files, with its ancestors in the tree (`""`: the output directory): device and inode. */
  dirs: [string, string][];
  /** Per generated file: path, action, identity ("" for `skip`: only its existence counts), and the sha256 of a racy file's content. */
  files: [string, "unchanged" | "skip", string, string | null][];
}

/** One entry of the plan the up-to-date check answers with. */
export interface UpToDateEntry {
  action: "unchanged" | "skip";
  path: string;
  absolutePath: string;
}

/** What a run found up to date reports: the same fields as a full run's result that the CLI prints. */
export interface UpToDateResult {
  outDir: string;
  plan: UpToDateEntry[];
  kept: [];
  warnings: ConfigIssue[];
  interrupted: false;
  recovered: undefined;
}

/** Where stamps live: `$CODEGEN_CACHE_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/codegen`, under `up-to-date/`. */
function stampFile(key: StampKey): string {
  return userCacheFile("up-to-date", key);
}

/** What the up-to-date check found: `result` when there is nothing to do. */
export interface UpToDateCheck {
  /** The result of a run with nothing to do, or undefined when the full run must decide. */
  result: UpToDateResult | undefined;
  /** The jsonnet library paths the last recorded run evaluated its config with, if there is a stamp. */
  lastLibraryDirs: readonly string[] | undefined;
}

/**
 * Whether the run has nothing to do. A writing run (`mode: "write"`) checks holding the output
 * directory's lock; `--check` and `--dry-run` wait while a lock is held, as the full run does.
 */
export async function checkUpToDate(
  key: StampKey,
  options: { force: boolean; forcePaths: readonly string[]; mode: "write" | "read"; lock?: LockOptions; timer?: PhaseTimer },
): Promise<UpToDateCheck> {
  const file = stampFile(key);
  let lastLibraryDirs: readonly string[] | undefined;
  const fresh = await timed(options, "load config", async () => {
    const stamp = readStamp(file);
    if (!stamp) return undefined;
    lastLibraryDirs = stamp.libraryDirs;
    const inputs: FingerprintInputs = {
      ...key,
      force: options.force,
      forcePaths: options.forcePaths,
      libraryDirs: stamp.libraryDirs,
      extraInputs: stamp.extraInputs,
    };
    if ((await inputFingerprint(inputs).catch(() => undefined)) !== stamp.fingerprint) return undefined;
    return realpathOrUndefined(stamp.outDir) === stamp.realRoot ? stamp : undefined;
  });
  if (!fresh) return { result: undefined, lastLibraryDirs };
  const result = await timed(options, "write", async () => {
    const verifyAndRefresh = async () => {
      const verified = verify(fresh);
      // Racy files just checked by content and no longer racy are trusted by identity next time.
      // Safe without the lock too: a write since changed their identities, so this stamp fails then.
      if (verified?.refreshed) writeStamp(file, verified.refreshed);
      return verified?.result;
    };
    if (options.mode === "write") return withOutputLock(fresh.outDir, verifyAndRefresh, options.lock);
    await waitForUnlocked(fresh.outDir, options.lock);
    return verifyAndRefresh();
  });
  return { result, lastLibraryDirs };
}

function verify(stamp: Stamp): { result: UpToDateResult; refreshed: Stamp | undefined } | undefined {
  try {
    const root = stamp.outDir;
    if (hasJournal(root)) return undefined;
    if (identityOrNull(manifestPath(root)) !== stamp.manifest) return undefined;
    for (const [dir, identity] of stamp.dirs) {
      const absolute = path.join(root, dir);
      const info = lstatSync(absolute, { bigint: true, throwIfNoEntry: false });
      if (!info?.isDirectory() || `${info.dev}:${info.ino}` !== identity) return undefined;
      const names = readdirSync(absolute);
      const siblings = new Set(names);
      if (names.some((name) => isTempName(name, siblings))) return undefined;
    }
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    let refreshed = false;
    const files = stamp.files.map(([relative, action, identity, racySha]): Stamp["files"][number] => {
      const info = lstatSync(path.join(root, relative), { bigint: true, throwIfNoEntry: false });
      if (!info?.isFile()) throw new NotUpToDate();
      if (action === "skip") return [relative, action, identity, racySha];
      if (identityOf(info) !== identity) throw new NotUpToDate();
      if (racySha === null) return [relative, action, identity, null];
      if (sha256(readFileSync(path.join(root, relative))) !== racySha) throw new NotUpToDate();
      if (isRacy(info, nowNs)) return [relative, action, identity, racySha];
      refreshed = true;
      return [relative, action, identity, null];
    });
    const plan = stamp.files.map(([relative, action]) => ({ action, path: relative, absolutePath: path.join(root, relative) }));
    const result: UpToDateResult = { outDir: root, plan, kept: [], warnings: stamp.warnings, interrupted: false, recovered: undefined };
    return { result, refreshed: refreshed ? { ...stamp, files } : undefined };
  } catch {
    // A file gone, touched or unreadable: the full run decides, and says why if it must.
    return undefined;
  }
}

class NotUpToDate extends Error {}

/** What a writing run, holding the lock after its write, passes to {@link recordUpToDate}. */
export interface StampRecord {
  key: StampKey;
  /** The fingerprint computed before the run read its config, without extra inputs. */
  before: string;
  /** When the run started, wall clock ns: an extra input modified since is not trusted. */
  startedNs: bigint;
  inputs: Omit<FingerprintInputs, "extraInputs">;
  /** Extra inputs the run read, or undefined when the target does not say (then no stamp). */
  extraInputs: readonly string[] | undefined;
  outDir: string;
  warnings: ConfigIssue[];
  /** The plan's writes (create, overwrite, unchanged, skip), as carried out. */
  writes: readonly PlannedWrite[];
  /** Stale files kept: they would be warned about again, so no stamp. */
  keptAny: boolean;
  /** The sha256 of each file's content the manifest records, so it is not computed twice. */
  recordedSha256: ReadonlyMap<string, string>;
  /** The code's fingerprint (`codeFingerprint`) taken after the write, so it is not taken twice; undefined: take it. */
  code: string | undefined;
}

/**
 * Records the stamp of a run that just wrote, or removes the old one when this run cannot be
 * vouched for (inputs changed during the run, a link in the tree, kept files). Best effort:
 * a failure to record only costs the next run the full pipeline.
 */
export async function recordUpToDate(record: StampRecord): Promise<void> {
  const file = stampFile(record.key);
  let stamp: Stamp | undefined;
  try {
    stamp = await stampOf(record);
  } catch {
    stamp = undefined;
  }
  if (stamp) writeStamp(file, stamp);
  else removeCacheFile(file);
}

async function stampOf(record: StampRecord): Promise<Stamp | undefined> {
  if (record.keptAny || record.extraInputs === undefined) return undefined;
  if ((await inputFingerprint({ ...record.inputs, extraInputs: [] }, record.code)) !== record.before) return undefined;
  for (const extra of record.extraInputs) {
    const info = lstatSync(extra, { bigint: true, throwIfNoEntry: false });
    if (info && isRacy(info, record.startedNs)) return undefined;
  }
  const fingerprint = await inputFingerprint({ ...record.inputs, extraInputs: record.extraInputs }, record.code);
  const root = record.outDir;
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const dirs = new Set<string>([""]);
  const files: Stamp["files"] = [];
  // A `skip` file this run created is skipped by the next one, unless forced.
  const globs = record.inputs.forcePaths.map(compileForcePattern);
  const forced = (relative: string) => record.inputs.force || globs.some((glob) => glob.test(relative));
  for (const write of record.writes) {
    for (let slash = write.path.indexOf("/"); slash >= 0; slash = write.path.indexOf("/", slash + 1)) dirs.add(write.path.slice(0, slash));
    const info = lstatSync(write.absolutePath, { bigint: true, throwIfNoEntry: false });
    // A generated file reached through a link is always planned afresh.
    if (!info?.isFile()) return undefined;
    if (write.action === "skip" || (write.action === "create" && write.file.ifExists === "skip" && !forced(write.path))) {
      files.push([write.path, "skip", "", null]);
      continue;
    }
    const racy = isRacy(info, nowNs) ? (record.recordedSha256.get(write.path) ?? sha256(write.file.content)) : null;
    files.push([write.path, "unchanged", identityOf(info), racy]);
  }
  const dirIdentities: [string, string][] = [];
  for (const dir of [...dirs].sort()) {
    const info = lstatSync(path.join(root, dir), { bigint: true, throwIfNoEntry: false });
    if (!info?.isDirectory()) return undefined;
    dirIdentities.push([dir, `${info.dev}:${info.ino}`]);
  }
  return {
    version: 1,
    fingerprint,
    libraryDirs: [...record.inputs.libraryDirs],
    extraInputs: [...record.extraInputs],
    outDir: root,
    realRoot: realpathSync(root),
    warnings: record.warnings,
    manifest: identityOrNull(manifestPath(root)),
    dirs: dirIdentities,
    files,
  };
}

function identityOrNull(file: string): string | null {
  const info = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return info ? identityOf(info) : null;
}

function realpathOrUndefined(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

function readStamp(file: string): Stamp | undefined {
  const stamp = readCacheFile(file) as Stamp | undefined;
  if (typeof stamp !== "object" || stamp === null) return undefined;
  const shaped = Array.isArray(stamp.files) && Array.isArray(stamp.dirs) && Array.isArray(stamp.libraryDirs) && stamp.libraryDirs.every((dir) => typeof dir === "string");
  return stamp.version === 1 && shaped ? stamp : undefined;
}

/** Temp file and rename: a reader sees the old stamp or the new one, never half of one. */
function writeStamp(file: string, stamp: Stamp): void {
  writeCacheFile(file, stamp);
}

/** The key of a run's stamp, from its options as given. */
export function stampKeyOf(options: { targetName: string; configFile: string; cwd?: string; outDir?: string }): StampKey {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  return {
    targetName: options.targetName,
    configFile: path.resolve(cwd, options.configFile),
    cwd,
    out: options.outDir === undefined ? undefined : path.resolve(cwd, options.outDir),
  };
}
