// File-system watching for watch mode. Files are watched through their directory, never
// directly: an editor that saves by writing a new file and renaming it over the old one would
// leave a watch on the old file's inode deaf. Trees are watched one directory at a time
// (inotify is not recursive); a directory added later is picked up by the next `update`.

import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import path from "node:path";

/** What to watch: single files (present or not yet) and whole directory trees. */
export interface WatchTargets {
  /** Absolute paths of files; a missing one is watched for through its nearest existing ancestor. */
  files: readonly string[];
  /** Absolute directories watched with everything under them, except names `ignore` rejects (keep one `ignore` per tree across updates). */
  trees: readonly { dir: string; ignore?: (name: string) => boolean }[];
}

/** Which names of one directory matter: some, or all but the ignored. */
type DirInterest = { names: Set<string> } | { all: true; ignore?: (name: string) => boolean; also: Set<string> };

/**
 * A set of directory watchers calling `onChange(absolutePath)` for every event on a watched
 * name; {@link update} replaces what is watched, keeping the watchers whose interest did not change.
 */
export class FileWatchSet {
  #watchers = new Map<string, { key: string; watcher: FSWatcher }>();
  #closed = false;

  constructor(private readonly onChange: (changed: string) => void) {}

  /** Watches exactly `targets` from now on. */
  update(targets: WatchTargets): void {
    if (this.#closed) return;
    const wanted = interests(targets);
    for (const [dir, entry] of this.#watchers) {
      if (wanted.get(dir)?.key !== entry.key) {
        entry.watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const [dir, { key, interest }] of wanted) {
      if (this.#watchers.has(dir)) continue;
      const watcher = this.#watch(dir, interest);
      if (watcher) this.#watchers.set(dir, { key, watcher });
    }
  }

  /** The directories being watched, sorted. */
  get directories(): string[] {
    return [...this.#watchers.keys()].sort();
  }

  close(): void {
    this.#closed = true;
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #watch(dir: string, interest: DirInterest): FSWatcher | undefined {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (_event, name) => {
        const base = name === null ? undefined : path.basename(name.toString());
        if (base === undefined) return this.onChange(dir);
        const wanted = "names" in interest ? interest.names.has(base) : interest.also.has(base) || !interest.ignore?.(base);
        if (wanted) this.onChange(path.join(dir, base));
      });
    } catch {
      return undefined; // gone since it was listed: the next update watches what is there
    }
    // The directory itself was removed or became unreadable: report it, and let the next update re-plan.
    watcher.on("error", () => {
      watcher.close();
      if (this.#watchers.get(dir)?.watcher === watcher) this.#watchers.delete(dir);
      this.onChange(dir);
    });
    return watcher;
  }
}

/** Each directory to watch with what matters in it, and a key telling whether that changed. */
function interests(targets: WatchTargets): Map<string, { key: string; interest: DirInterest }> {
  const byDir = new Map<string, DirInterest>();
  for (const { dir, ignore } of targets.trees) {
    for (const sub of directoriesUnder(dir)) byDir.set(sub, { all: true, ignore, also: new Set() });
  }
  for (const file of targets.files) {
    const [dir, name] = watchPointOf(file);
    const current = byDir.get(dir);
    if (current === undefined) byDir.set(dir, { names: new Set([name]) });
    else if ("names" in current) current.names.add(name);
    else current.also.add(name);
  }
  const result = new Map<string, { key: string; interest: DirInterest }>();
  for (const [dir, interest] of byDir) {
    const key = "names" in interest ? [...interest.names].sort().join("\0") : `*\0${[...interest.also].sort().join("\0")}`;
    result.set(dir, { key, interest });
  }
  return result;
}

/**
 * The directory to watch for `file` and the name to listen for there: its own directory when
 * that exists, else the nearest existing ancestor and the first missing segment on the way.
 */
function watchPointOf(file: string): [string, string] {
  let name = path.basename(file);
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (isDirectory(dir) || path.dirname(dir) === dir) return [dir, name];
    name = path.basename(dir);
  }
}

/** `dir` and every directory below it (not following links, skipping `node_modules` and hidden ones). */
function directoriesUnder(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  const found = [dir];
  for (let index = 0; index < found.length; index++) {
    let entries;
    try {
      entries = readdirSync(found[index]!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith(".")) found.push(path.join(found[index]!, entry.name));
    }
  }
  return found;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
