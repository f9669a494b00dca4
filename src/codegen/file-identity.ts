// A file's identity on disk (device, inode, mode, size, modification and change times), as make
// and git compare it instead of reading the file, and git's "racy clean" rule: a file modified
// too close to the moment its identity is recorded is not trusted (a write in the same
// timestamp tick would keep its identity), so its content is checked next time.

import type { BigIntStats } from "node:fs";

/** How recent a modification must be, when an identity is recorded, for it not to be trusted: well above any file system's timestamp tick. */
export const RACY_NS = 100_000_000n;

/** The identity of a file or directory entry: any write, rename over it or chmod changes it. */
export function identityOf(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.mode}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Whether an entry with these times, recorded at `nowNs` (wall clock ns), is too recent to be trusted by its identity. */
export function isRacy(info: { mtimeNs: bigint; ctimeNs: bigint }, nowNs: bigint): boolean {
  return nowNs - info.mtimeNs < RACY_NS || nowNs - info.ctimeNs < RACY_NS;
}
