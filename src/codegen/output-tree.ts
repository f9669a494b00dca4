// A read-only view of the output directory for planning and recovery. Each directory is
// listed once and resolved once (symbolic links followed), so checking thousands of files
// costs a few syscalls per directory instead of several per file. Every path is checked to
// stay inside the output directory; a path that would leave it is a GenerationError naming it.

import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { GenerationError } from "./errors.js";
import { asFileSystemError, attempt } from "./fs-errors.js";
import { errorCode, isInside, quote, quotePath, resolveReal } from "./paths.js";

/** What a directory entry is, as far as planning cares. */
type EntryKind = "file" | "dir" | "link" | "other";

/** One directory of the output tree: whether it exists, its real path, and its entries if listed. */
interface DirState {
  exists: boolean;
  /** The directory's real path (symbolic links resolved), or the one it would get once created. */
  real: string;
  entries: Map<string, EntryKind> | undefined;
  /** Whether `real` lies inside the output directory's real path, once asked. */
  inside?: boolean;
}

/** The output directory as it is on disk, probed lazily and cached; see the module comment. */
export class OutputTree {
  /** The output directory as given, made absolute. */
  readonly root: string;
  /** Its real path (or the one it would get once created). */
  readonly realRoot: string;
  readonly #dirs = new Map<string, DirState>();

  /** @throws GenerationError when the output directory is a file or unreachable (a broken link, a file on the way). */
  constructor(outDir: string) {
    this.root = path.resolve(outDir);
    this.realRoot = resolveReal(this.root, `output directory ${quote(outDir)}`);
    const info = statOrUndefined(this.realRoot, `output directory ${quote(outDir)}`);
    if (info && !info.isDirectory()) throw new GenerationError(`output directory ${quote(outDir)} is a file, not a directory`);
    this.#dirs.set("", { exists: info !== undefined, real: this.realRoot, entries: undefined });
  }

  /**
   * The bytes of the file at `relative` (a normalised output path), or undefined when there is none.
   * @throws GenerationError when it resolves outside the output directory, goes through a file,
   * a broken link or a loop of links, or exists as something other than a regular file.
   */
  bytesOf(relative: string): Buffer | undefined {
    const { real, kind } = this.locate(relative);
    if (kind === undefined) return undefined;
    if (kind !== "file" && !(kind === "link" && statOrUndefined(real, this.#label(relative))?.isFile())) {
      throw new GenerationError(`${this.#label(relative)} exists and is not a regular file`, { outputPaths: [relative] });
    }
    return attempt("read", real, () => readFileSync(real));
  }

  /**
   * Where `relative` resolves (links followed) and what is there now, reading nothing.
   * @throws GenerationError when it resolves outside the output directory or cannot be reached.
   */
  locate(relative: string): { real: string; kind: EntryKind | undefined } {
    const slash = relative.lastIndexOf("/");
    const dir = this.#dir(slash < 0 ? "" : relative.slice(0, slash), relative);
    const name = relative.slice(slash + 1);
    let real = path.join(dir.real, name);
    const kind = dir.entries?.get(name);
    // A name of a normalised path is never `..`: an entry other than a link is inside when its directory is.
    if (kind !== "link" && (dir.inside ??= isInside(this.realRoot, dir.real))) return { real, kind };
    if (kind === "link") real = resolveReal(real, this.#label(relative), relative);
    if (!isInside(this.realRoot, real)) {
      throw new GenerationError(`${this.#label(relative)} resolves to ${real}, outside the output directory ${this.realRoot}`, { outputPaths: [relative] });
    }
    return { real, kind };
  }

  /**
   * The real directory holding `relative` and what the entry there is (undefined: absent), or
   * undefined when that directory does not exist or cannot be reached; never throws for the path.
   */
  entryOf(relative: string): { realDir: string; kind: EntryKind | undefined } | undefined {
    const slash = relative.lastIndexOf("/");
    let dir: DirState;
    try {
      dir = this.#dir(slash < 0 ? "" : relative.slice(0, slash), relative);
    } catch (error) {
      if (error instanceof GenerationError) return undefined;
      throw error;
    }
    return dir.exists ? { realDir: dir.real, kind: dir.entries?.get(relative.slice(slash + 1)) } : undefined;
  }

  #label(relative: string): string {
    return `output path ${quotePath(relative)}`;
  }

  /** Names in the directory `relativeDir` (`""` for the root), or none when it does not exist. */
  namesIn(relativeDir: string): string[] {
    const dir = this.#dir(relativeDir, relativeDir);
    return [...(dir.entries?.keys() ?? [])];
  }

  /** The directory `relative`, on the way to `outputPath` (named in errors). */
  #dir(relative: string, outputPath: string): DirState {
    const cached = this.#dirs.get(relative);
    if (cached) return this.#listed(cached);
    const label = this.#label(outputPath);
    const slash = relative.lastIndexOf("/");
    const parent = this.#dir(slash < 0 ? "" : relative.slice(0, slash), outputPath);
    const name = relative.slice(slash + 1);
    const kind = parent.entries?.get(name);
    let state: DirState;
    if (kind === undefined) {
      state = { exists: false, real: path.join(parent.real, name), entries: undefined };
    } else if (kind === "dir") {
      state = { exists: true, real: path.join(parent.real, name), entries: undefined };
    } else if (kind === "link") {
      const real = resolveReal(path.join(parent.real, name), label, outputPath);
      if (!statOrUndefined(real, label)?.isDirectory()) {
        throw new GenerationError(`${label} goes through a file that is not a directory`, { outputPaths: [outputPath] });
      }
      state = { exists: true, real, entries: undefined };
    } else {
      throw new GenerationError(`${label} goes through a file that is not a directory`, { outputPaths: [outputPath] });
    }
    this.#dirs.set(relative, state);
    return this.#listed(state);
  }

  #listed(state: DirState): DirState {
    if (state.exists && state.entries === undefined) {
      state.entries = new Map();
      for (const entry of attempt("list directory", state.real, () => readdirSync(state.real, { withFileTypes: true }))) {
        const kind: EntryKind = entry.isFile() ? "file" : entry.isDirectory() ? "dir" : entry.isSymbolicLink() ? "link" : "other";
        state.entries.set(entry.name, kind);
      }
    }
    return state;
  }
}

function statOrUndefined(target: string, label: string) {
  try {
    return statSync(target, { throwIfNoEntry: false });
  } catch (error) {
    if (errorCode(error) === "ENOTDIR") throw new GenerationError(`${label} goes through a file that is not a directory`);
    throw asFileSystemError(error, "inspect", target);
  }
}
