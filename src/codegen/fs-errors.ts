// File-system failures as user errors: what failed, on which path, why in words, and what
// to do. A failing syscall of the writer, the lock or the journal becomes a FileSystemError
// (a CLIError, exit status 1), never an "internal error" naming a bare errno code.

import { CLIError } from "./errors.js";

/** Why a syscall failed, in words, and what the user can do about it, per errno code. */
const EXPLANATIONS: Record<string, [reason: string, advice: string]> = {
  EACCES: ["permission denied", "check the permissions of the output directory, or choose another --out"],
  EPERM: ["operation not permitted", "check the permissions and attributes of the output directory, or choose another --out"],
  EROFS: ["the file system is read-only", "choose an output directory on a writable file system"],
  ENOSPC: ["no space left on the device", "free some space on that file system, then run again"],
  EDQUOT: ["the disk quota is exhausted", "free some space or raise the quota, then run again"],
  EFBIG: ["the file is too large for the file system", "choose an output directory on another file system"],
  ENOENT: ["a directory on the way no longer exists", "make sure nothing else deletes files in the output directory during the run, then run again"],
  ENOTDIR: ["a part of the path is a file, not a directory", "move that file out of the way, then run again"],
  EISDIR: ["it is a directory", "move that directory out of the way, then run again"],
  EEXIST: ["something already exists there", "move it out of the way, then run again"],
  ENOTEMPTY: ["the directory is not empty", "move its contents out of the way, then run again"],
  ENAMETOOLONG: ["the path is too long for the file system", "choose a shorter output directory"],
  ELOOP: ["too many levels of symbolic links", "fix the symbolic links in the output directory"],
  EMFILE: ["too many open files", "raise the open-file limit (ulimit -n), then run again"],
  ENFILE: ["the system has too many open files", "close other programs or raise the system limit, then run again"],
  EIO: ["an input/output error", "check the disk and its file system"],
  EBUSY: ["the file or directory is busy", "stop the program using it, then run again"],
  ETXTBSY: ["the file is a running program", "stop that program, then run again"],
  EXDEV: ["it lies on another file system", "keep the output directory on one file system"],
};

/**
 * A file-system operation of a run failed. The message says what failed on which path, why
 * and what to do, and how the output directory was left; `code` is the errno code.
 * @example new FileSystemError("create directory", "/srv/out/app", enospc, "nothing was changed")
 */
export class FileSystemError extends CLIError {
  override name = "FileSystemError";
  /** The errno code (`ENOSPC`, `EACCES`, …), when the cause had one. */
  readonly code: string | undefined;
  /** What was being done, e.g. `write` or `create directory`. */
  readonly action: string;
  /** The path the failing operation was about. */
  readonly path: string;

  constructor(action: string, path: string, cause: unknown, outcome?: string) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const [reason, advice] = (code && EXPLANATIONS[code]) || [describeCause(cause), "fix the problem, then run again"];
    const codeNote = code ? ` (${code})` : "";
    const tail = outcome ? `; ${outcome}` : "";
    super(`cannot ${action} ${path}: ${reason}${codeNote}; ${advice}${tail}`, { cause });
    this.code = code;
    this.action = action;
    this.path = path;
  }

  /** The same failure with a sentence on how the output directory was left. */
  withOutcome(outcome: string): FileSystemError {
    return new FileSystemError(this.action, this.path, this.cause, outcome);
  }
}

/** `error` as a FileSystemError about `action` on `path` when it is a system error; anything else unchanged. */
export function asFileSystemError(error: unknown, action: string, path: string): unknown {
  if (error instanceof CLIError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code) ? new FileSystemError(action, path, error) : error;
}

/** Runs `fn` (a synchronous syscall), turning a system error into a FileSystemError about `action` on `path`. */
export function attempt<T>(action: string, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw asFileSystemError(error, action, path);
  }
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
