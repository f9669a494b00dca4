// The formatter's answers, kept from one run of the CLI to the next in the user's cache
// directory (never in the output tree): per generated file, the sha256 of the text it was given
// and of the text it made. A later run that assembles the same text for a path takes the
// formatted text from the file on disk, if that file holds exactly it (its sha256 says so),
// instead of formatting it again: after a one-resource edit of 1,000 resources, 3 files are
// formatted instead of 3,000. Anything else (no record, a changed text, a file edited or gone)
// is formatted as always. A record is valid only for the code that made it (the formatter is
// part of it): any rebuild or reinstall of codegen or a plugin drops it.
//
// The files it answered from were read moments before planning: planning need not read them
// again, nor hash their text, while each one's identity on disk is still the one it had when
// read (as the watch's output memory vouches for the files it wrote).

import { closeSync, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import path from "node:path";

import { identityOf, isRacy } from "./file-identity.js";
import type { FormatMemory } from "./format-pool.js";
import { sha256 } from "./prune.js";
import { type StampKey, readCacheFile, userCacheFile, writeCacheFile } from "./user-cache.js";

/** `""` in place of the formatted text's sha256: the formatter left the text as it was. */
const AS_GIVEN = "";

interface RecordData {
  version: 1;
  /** `codeFingerprint` of the run that formatted. */
  code: string;
  /** The output directory the formatted files were written to (absolute). */
  outDir: string;
  /** Per path: the sha256 of the text given to the formatter, and of the text it made (or `AS_GIVEN`). */
  files: Record<string, [given: string, made: string]>;
}

/** One run's view of the record: the last run's answers to recall, this run's to save. */
export class FormatRecord implements FormatMemory {
  readonly #file: string;
  readonly #code: string;
  readonly #last: RecordData | undefined;
  // This run's answers; `made` is undefined until `save` learns the written file's sha256.
  readonly #next = new Map<string, [given: string, made: string | undefined]>();
  // The files `recall` answered from, by absolute path: the text, its sha256, and the file's identity when read (undefined: too recent to trust).
  readonly #read = new Map<string, { content: string; sha256: string; identity: string | undefined }>();

  private constructor(file: string, code: string, last: RecordData | undefined) {
    this.#file = file;
    this.#code = code;
    this.#last = last;
  }

  /** The record of the runs of `key`, valid if the code that made it is `code` (its `codeFingerprint`). */
  static open(key: StampKey, code: string): FormatRecord {
    const file = userCacheFile("format", key);
    const data = readCacheFile(file) as RecordData | undefined;
    const valid = typeof data === "object" && data !== null && data.version === 1 && data.code === code && typeof data.outDir === "string" && typeof data.files === "object" && data.files !== null;
    return new FormatRecord(file, code, valid ? data : undefined);
  }

  recall(relative: string, content: string): string | null | undefined {
    const last = this.#last?.files[relative];
    if (!Array.isArray(last)) return undefined;
    const given = sha256(content);
    // Unanswered, the formatter's answer replaces this (`remember`), its text hashed already.
    this.#next.set(relative, [given, undefined]);
    const [lastGiven, made] = last;
    if (lastGiven !== given || typeof made !== "string") return undefined;
    if (made === AS_GIVEN) {
      this.#next.set(relative, [given, AS_GIVEN]);
      return null;
    }
    // Read from where the last run wrote: whatever the file is now, only its exact bytes are used.
    const file = path.join(this.#last!.outDir, relative);
    const read = readWithIdentity(file);
    if (read === undefined || sha256(read.bytes) !== made) return undefined;
    this.#next.set(relative, [given, made]);
    const formatted = read.bytes.toString("utf8");
    this.#read.set(file, { content: formatted, sha256: made, identity: read.identity });
    return formatted;
  }

  /** Whether the file at `absolutePath` is known to hold exactly `content`: `recall` read it, and it has not changed since. */
  holds(absolutePath: string, content: string): boolean {
    const read = this.#read.get(absolutePath);
    if (read === undefined || read.identity === undefined || read.content !== content) return false;
    const info = lstatSync(absolutePath, { bigint: true, throwIfNoEntry: false });
    return info !== undefined && info.isFile() && identityOf(info) === read.identity;
  }

  /** The sha256 of `content` at `relative` (hashed only if `recall` did not read it from disk). */
  sha256(relative: string, content: string): string {
    const read = this.#last && this.#read.get(path.join(this.#last.outDir, relative));
    return read?.content === content ? read.sha256 : sha256(content);
  }

  remember(relative: string, content: string, formatted: string | null): void {
    // The sha256 of what the formatter made is the written file's, which `save` is given.
    this.#next.set(relative, [this.#next.get(relative)?.[0] ?? sha256(content), formatted === null ? AS_GIVEN : undefined]);
  }

  /**
   * Saves this run's answers, once its files are written to `outDir`, if the code is still
   * `code` (the answers are those of the formatter this process loaded).
   * @param writtenSha256 the sha256 of each file's content as written (the manifest's)
   * @param code `codeFingerprint` taken after the write
   */
  save(outDir: string, writtenSha256: ReadonlyMap<string, string>, code: string | undefined): void {
    if (code !== this.#code) return;
    const files: RecordData["files"] = {};
    for (const [relative, [given, made]] of this.#next) {
      const sha = made ?? writtenSha256.get(relative);
      if (sha !== undefined) files[relative] = [given, sha];
    }
    const data: RecordData = { version: 1, code: this.#code, outDir, files };
    writeCacheFile(this.#file, data);
  }
}

/** A file's bytes and its identity as it was read (undefined when modified too recently to be trusted by it), or undefined if it cannot be read. */
function readWithIdentity(file: string): { bytes: Buffer; identity: string | undefined } | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    if (!info.isFile()) return undefined;
    const bytes = readFileSync(fd);
    const racy = isRacy(info, BigInt(Date.now()) * 1_000_000n);
    return { bytes, identity: racy ? undefined : identityOf(info) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
