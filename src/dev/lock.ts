// One `codegen dev` per project: `.codegen/dev.lock`, created exclusively, names the run
// that holds it (pid, host, start) and every process it started. A second run finds the
// holder alive and refuses, touching nothing. Each process recorded is also told to the
// holder's keeper (keeper.ts), which stops them all should the holder die without
// releasing the lock; a run that finds the holder dead (SIGKILL, a crash) takes the lock
// over and gets the dead run's processes back, to stop those the keeper did not.

import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { startKeeper } from "./keeper.js";
import { DevError } from "./project.js";
import { isAlive, processStartTime } from "./processes.js";

/** A process a `codegen dev` started, as recorded for the next run. */
export interface OwnedProcess {
  /** What it is, for messages: "uvicorn", "PostgreSQL". */
  name: string;
  pid: number;
  /** Whether `pid` leads a process group to stop as a whole (npm and the vite it runs). */
  group: boolean;
  /** The signal that stops it cleanly: SIGTERM, or SIGINT for PostgreSQL's fast shutdown. */
  signal: "SIGTERM" | "SIGINT";
  /** When it started (Linux: clock ticks since boot), telling it from a later process given the same pid. */
  startTime?: string;
}

interface LockContent {
  pid: number;
  host: string;
  since: string;
  startTime?: string;
  token: string;
  processes: OwnedProcess[];
  /** The URL of the database the run serves, for `codegen db` and `codegen test` beside it. */
  database?: string;
}

export interface DevLock {
  /** Records a process this run started, for the keeper and for the next run. */
  record(owned: Omit<OwnedProcess, "startTime">): Promise<void>;
  /** Forgets a recorded process that ended (its pid may be given to another process). */
  forget(pid: number): Promise<void>;
  /** Records the URL of the database this run uses, for `codegen db` and `codegen test` run beside it. */
  recordDatabase(url: string): Promise<void>;
  /**
   * For a run that stopped everything it recorded: releases the keeper and removes the
   * lock. A run that could not stops without it, and the keeper stops what is left.
   */
  release(): Promise<void>;
}

/** The lock file of a project. */
export const devLockFile = (root: string) => path.join(root, ".codegen", "dev.lock");

/** A lock file no run could fill (killed between creating and writing it) is stale after this long. */
const UNREADABLE_STALE_MS = 5_000;

/**
 * Takes the project's lock. `leftovers`: the processes of a dead run that held it, for the
 * caller to stop before starting its own.
 * @throws DevError naming the holder when another `codegen dev` runs in the project.
 */
export async function acquireDevLock(root: string): Promise<{ lock: DevLock; leftovers: OwnedProcess[] }> {
  const file = devLockFile(root);
  await mkdir(path.dirname(file), { recursive: true });
  const content: LockContent = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    startTime: processStartTime(process.pid),
    token: randomBytes(8).toString("hex"),
    processes: [],
  };
  const leftovers: OwnedProcess[] = [];
  for (;;) {
    try {
      await writeFile(file, `${JSON.stringify(content)}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(file);
    if (holder === "gone") continue;
    if (holder === "starting") throw new DevError(`another codegen dev is starting in ${root} (${path.relative(root, file)} was just created); stop it first`);
    if (holder !== "stale" && holderAlive(holder)) {
      throw new DevError(
        `another codegen dev is running in ${root} (pid ${holder.pid}, since ${holder.since}); one runs per project: stop that one first (Ctrl-C in its terminal, or kill ${holder.pid})`,
      );
    }
    // Dead: moved aside atomically, so of two runs breaking it at once only one gets its leftovers.
    const moved = `${file}.${content.token}.dead`;
    try {
      await rename(file, moved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const taken = await readHolder(moved);
    if (typeof taken === "object") leftovers.push(...taken.processes);
    await unlink(moved).catch(() => undefined);
  }
  const keeper = startKeeper();
  let writes = Promise.resolve();
  // Written whole to a temporary file and renamed over the lock: a reader never sees half of it.
  const rewrite = () => {
    writes = writes.then(async () => {
      const temporary = `${file}.${content.token}.tmp`;
      await writeFile(temporary, `${JSON.stringify(content)}\n`);
      await rename(temporary, file);
    });
    return writes;
  };
  return {
    leftovers,
    lock: {
      record(started) {
        const owned = { ...started, startTime: processStartTime(started.pid) };
        keeper.watch(owned);
        content.processes.push(owned);
        return rewrite();
      },
      forget(pid) {
        const index = content.processes.findIndex((owned) => owned.pid === pid);
        if (index < 0) return writes;
        keeper.forget(content.processes[index]!);
        content.processes.splice(index, 1);
        return rewrite();
      },
      recordDatabase(url) {
        content.database = url;
        return rewrite();
      },
      async release() {
        keeper.release();
        await writes.catch(() => undefined);
        const holder = await readHolder(file).catch(() => "gone" as const);
        if (typeof holder === "object" && holder.token === content.token) await unlink(file).catch(() => undefined);
      },
    },
  };
}

/** The `codegen dev` running in the project, if one is: its pid and the database URL it recorded. */
export async function runningDev(root: string): Promise<{ pid: number; database?: string } | undefined> {
  const holder = await readHolder(devLockFile(root));
  if (typeof holder !== "object" || !holderAlive(holder)) return undefined;
  return { pid: holder.pid, database: holder.database };
}

async function readHolder(file: string): Promise<LockContent | "gone" | "starting" | "stale"> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    const content = JSON.parse(text) as LockContent;
    if (typeof content.pid === "number" && Array.isArray(content.processes)) return content;
  } catch {
    // Torn: its writer died between creating and filling it, or is filling it right now.
  }
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return "gone";
  return Date.now() - info.mtimeMs > UNREADABLE_STALE_MS ? "stale" : "starting";
}

/** Whether the lock's holder still runs: same host, its pid alive, and (where known) the same process, not a later one given its pid. */
function holderAlive(holder: LockContent): boolean {
  if (holder.host !== hostname()) return true; // a project on a shared disk: its holder cannot be checked from here
  if (!isAlive(holder.pid)) return false;
  return holder.startTime === undefined || processStartTime(holder.pid) === holder.startTime;
}
