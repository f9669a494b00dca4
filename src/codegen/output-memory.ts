// What a warm process remembers of one output directory between runs (watch mode): the text
// each file held when it last wrote or read it, with the file's identity on disk (inode, size,
// modification and change times), each text's sha256, and the manifest as last parsed. A file
// whose identity is unchanged still holds that text, so planning need not read it again; any
// write to it (ours, the user's, another run's) changes its change time, and then it is read.
// As in git's "racy clean" rule, a file modified just before it was remembered is not trusted
// (a write in the same timestamp tick would keep its identity): it is read next time.
//
// A watch reads the identities ahead, while a change settles (`readAhead`): at 1,000 resources
// that is 3,000 lstat calls, 8-15 ms the run then does not spend. They serve the next planning
// only if no codegen run wrote to the directory since (any write that changes a file rewrites
// the manifest, whose identity is read with them), and only once. A file a user edits by hand
// after they were read, while the run is under way, is seen by the next run.

import { type BigIntStats, lstatSync } from "node:fs";

import { RACY_NS, identityOf } from "./file-identity.js";
import { type Manifest, manifestPath } from "./manifest.js";
import { sha256 } from "./prune.js";
import type { PlannedChange } from "./writer.js";

/** A file's identity on disk: any write, rename over it or chmod changes it. */
type Identity = string;

/** See the module comment. One per output directory; only ever used under its lock. */
export class OutputMemory {
  readonly #manifestPath: string;
  #files = new Map<string, { content: string; identity: Identity }>();
  #hashes = new Map<string, { content: string; sha256: string }>();
  #manifest: { text: string; recorded: Manifest } | undefined;
  // Identities read ahead of the next planning, with the manifest's.
  #ahead: { files: Map<string, Identity | undefined>; manifest: Identity | undefined } | undefined;
  // The identities this planning uses instead of lstat calls (see `startPlanning`).
  #planning: Map<string, Identity | undefined> | undefined;

  /** @param outDir the output directory (absolute). */
  constructor(outDir: string) {
    this.#manifestPath = manifestPath(outDir);
  }

  /** Reads the identity of every remembered file now, for the next planning (see the module comment). */
  readAhead(): void {
    const files = new Map<string, Identity | undefined>();
    for (const file of this.#files.keys()) files.set(file, fileIdentity(file)?.identity);
    this.#ahead = { files, manifest: entryIdentity(this.#manifestPath) };
  }

  /** Forgets the identities read ahead (a run that failed before planning used none of them). */
  dropReadAhead(): void {
    this.#ahead = undefined;
  }

  /**
   * Planning starts, under the directory's lock: identities read ahead serve it if the manifest
   * is as it was then (no codegen run wrote since). They serve this planning only.
   */
  startPlanning(): void {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    this.#planning = ahead !== undefined && entryIdentity(this.#manifestPath) === ahead.manifest ? ahead.files : undefined;
  }

  /** Whether the file at `absolutePath` is known to hold exactly `content` (it is then not read). */
  holds(absolutePath: string, content: string): boolean {
    const known = this.#files.get(absolutePath);
    if (known === undefined || known.content !== content) return false;
    const identity = this.#planning?.has(absolutePath) ? this.#planning.get(absolutePath) : fileIdentity(absolutePath)?.identity;
    if (identity === known.identity) return true;
    // Written since, maybe with the same text: forgotten, so the run that reads it remembers its new identity.
    this.#files.delete(absolutePath);
    return false;
  }

  /**
   * Remembers what the files of a carried-out plan now hold: every written or unchanged file.
   * Called after the plan was applied, still under the lock; the rest is forgotten.
   */
  rememberApplied(plan: readonly PlannedChange[]): void {
    this.#planning = undefined;
    const next = new Map<string, { content: string; identity: Identity }>();
    const hashes = new Map<string, { content: string; sha256: string }>();
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    for (const entry of plan) {
      if (entry.action !== "create" && entry.action !== "overwrite" && entry.action !== "unchanged") continue;
      const hash = this.#hashes.get(entry.path);
      if (hash) hashes.set(entry.path, hash);
      const known = this.#files.get(entry.absolutePath);
      // Still known after planning: `holds` vouched for it (it forgets a file whose identity changed).
      if (entry.action === "unchanged" && known?.content === entry.file.content) {
        next.set(entry.absolutePath, known);
        continue;
      }
      const found = fileIdentity(entry.absolutePath);
      if (found && nowNs - found.info.mtimeNs > RACY_NS) next.set(entry.absolutePath, { content: entry.file.content, identity: found.identity });
    }
    this.#files = next;
    this.#hashes = hashes;
  }

  /** Forgets every file (after a failed write, whose outcome on disk is not known here). */
  forget(): void {
    this.#files.clear();
    this.#manifest = undefined;
    this.#ahead = undefined;
    this.#planning = undefined;
  }

  /** The sha256 of `content`, generated at `path`, computed again only when it changed. */
  sha256(path: string, content: string): string {
    const known = this.#hashes.get(path);
    if (known?.content === content) return known.sha256;
    const hash = sha256(content);
    this.#hashes.set(path, { content, sha256: hash });
    return hash;
  }

  /** The manifest parsed from `text` last time, if the text is the same. */
  parsedManifest(text: string): Manifest | undefined {
    return this.#manifest?.text === text ? this.#manifest.recorded : undefined;
  }

  rememberManifest(text: string, recorded: Manifest): void {
    this.#manifest = { text, recorded };
  }
}

function fileIdentity(file: string): { identity: Identity; info: BigIntStats } | undefined {
  const info = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return info?.isFile() ? { identity: identityOf(info), info } : undefined;
}

/** The identity of whatever is at `file` (the manifest may be missing, or not a file). */
function entryIdentity(file: string): Identity | undefined {
  const info = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return info && identityOf(info);
}
