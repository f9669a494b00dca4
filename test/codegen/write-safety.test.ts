// The output directory's lock, the journal's recovery of an interrupted run, and the commit
// order of aggregating files: the pieces that keep concurrent and killed runs from leaving a
// half-written tree (test/crash.test.ts and test/concurrency.test.ts drive them end to end).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, readFile, readdir, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { after, beforeEach, describe, it } from "node:test";

import { GenerationError } from "../../src/codegen/errors.js";
import { COMMIT_MARK, JOURNAL_FILE, recoverInterruptedRun } from "../../src/codegen/journal.js";
import { LOCK_FILE, LockTimeoutError, waitForUnlocked, withOutputLock } from "../../src/codegen/lock.js";
import { sha256 } from "../../src/codegen/prune.js";
import { GeneratedFile, commitOrder, planWrites } from "../../src/codegen/writer.js";
import { makeTempDir, removeTempDirs, snapshot } from "../helpers/user-project.js";

let root: string;
let out: string;

beforeEach(async () => {
  root = await makeTempDir("codegen-safety-");
  out = path.join(root, "out");
});

after(removeTempDirs);

const holderFile = (pid: number, token = "t0") =>
  `${JSON.stringify({ pid, host: hostname(), since: "2001-02-03T04:05:06.000Z", token })}\n`;

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

describe("withOutputLock", () => {
  it("holds .codegen-lock while the function runs and removes it after", async () => {
    const seen = await withOutputLock(out, async () => JSON.parse(await readFile(path.join(out, LOCK_FILE), "utf8")) as { pid: number });
    assert.equal(seen.pid, process.pid);
    assert.deepEqual(await readdir(out), []);
  });

  it("waits for a live holder, then fails naming it and the lock file", async () => {
    await mkdir(out);
    await writeFile(path.join(out, LOCK_FILE), holderFile(process.pid));
    let ran = false;
    let announced = 0;
    await assert.rejects(
      withOutputLock(out, async () => (ran = true), { timeoutMs: 150, onWait: () => announced++ }),
      (error: unknown) =>
        error instanceof LockTimeoutError &&
        error.message.includes(`is locked by the codegen run of pid ${process.pid} on ${hostname()}`) &&
        error.message.includes(`delete ${path.join(out, LOCK_FILE)}`),
    );
    assert.equal(ran, false);
    assert.equal(announced, 1);
  });

  it("goes ahead once the holder releases the lock", async () => {
    await mkdir(out);
    await writeFile(path.join(out, LOCK_FILE), holderFile(process.pid));
    setTimeout(() => void rm(path.join(out, LOCK_FILE)), 100);
    assert.equal(await withOutputLock(out, async () => "ran", { timeoutMs: 10_000 }), "ran");
  });

  it("breaks the lock of a process that no longer exists", async () => {
    await mkdir(out);
    await writeFile(path.join(out, LOCK_FILE), holderFile(deadPid()));
    assert.equal(await withOutputLock(out, async () => "ran", { timeoutMs: 0 }), "ran");
    assert.deepEqual(await readdir(out), []);
  });

  it("breaks a torn lock file once it is old, but waits on a fresh one", async () => {
    await mkdir(out);
    await writeFile(path.join(out, LOCK_FILE), "");
    await assert.rejects(withOutputLock(out, async () => "ran", { timeoutMs: 50 }), LockTimeoutError);
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(out, LOCK_FILE), old, old);
    assert.equal(await withOutputLock(out, async () => "ran", { timeoutMs: 0 }), "ran");
  });

  it("removes the directories it created when the function fails", async () => {
    const deep = path.join(out, "a", "b");
    await assert.rejects(withOutputLock(deep, async () => Promise.reject(new Error("boom"))), /boom/);
    await assert.rejects(stat(out), { code: "ENOENT" });
  });

  it("refuses an output directory that is a file, creating nothing", async () => {
    await writeFile(out, "a file\n");
    await assert.rejects(withOutputLock(out, async () => "ran"), (error: unknown) => error instanceof GenerationError && /is a file, not a directory/.test(error.message));
  });
});

describe("waitForUnlocked", () => {
  it("creates nothing, and returns at once when there is no lock", async () => {
    await waitForUnlocked(out);
    await assert.rejects(stat(out), { code: "ENOENT" });
  });
});

/** Lays out what a run killed mid-write leaves: its journal, temps for each write, maybe the commit mark. */
async function interruptedRun(options: { committed: boolean }): Promise<void> {
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, "a.py"), "old a\n");
  await writeFile(path.join(out, "stale.py"), "generated\n");
  await writeFile(path.join(out, "edited.py"), "the user's\n");
  const run = "0123456789ab";
  const journal = {
    version: 1,
    run,
    pid: 4242,
    started: "2001-02-03T04:05:06.000Z",
    writes: ["a.py", "pkg/b.py", "pkg/__init__.py"],
    manifest: true,
    deletions: [
      { path: "stale.py", sha256: sha256("generated\n") },
      { path: "edited.py", sha256: sha256("generated\n") },
    ],
    dirs: ["pkg"],
  };
  await writeFile(path.join(out, JOURNAL_FILE), JSON.stringify(journal));
  await mkdir(path.join(out, "pkg"));
  await writeFile(path.join(out, `.codegen-${run}-0.tmp`), "new a\n");
  await writeFile(path.join(out, "pkg", `.codegen-${run}-1.tmp`), "b\n");
  await writeFile(path.join(out, "pkg", `.codegen-${run}-2.tmp`), "from pkg import b\n");
  await writeFile(path.join(out, `.codegen-${run}-3.tmp`), "{}\n");
  if (options.committed) await writeFile(path.join(out, COMMIT_MARK), "");
}

describe("recoverInterruptedRun", () => {
  it("does nothing without a journal", async () => {
    await mkdir(out);
    assert.equal(recoverInterruptedRun(out), undefined);
  });

  it("rolls back a run killed before every temp was written: the tree is as before", async () => {
    await interruptedRun({ committed: false });
    assert.deepEqual(recoverInterruptedRun(out), { outcome: "rolled back", pid: 4242, started: "2001-02-03T04:05:06.000Z" });
    assert.deepEqual(await snapshot(out), { "a.py": "old a\n", "stale.py": "generated\n", "edited.py": "the user's\n" });
  });

  it("completes a run killed after its commit mark: renames, deletions still as generated, manifest", async () => {
    await interruptedRun({ committed: true });
    // One rename had happened before the kill.
    await writeFile(path.join(out, "a.py"), "new a\n");
    await rm(path.join(out, ".codegen-0123456789ab-0.tmp"));
    assert.equal(recoverInterruptedRun(out)?.outcome, "completed");
    assert.deepEqual(await snapshot(out), {
      "a.py": "new a\n",
      "edited.py": "the user's\n",
      pkg: "<dir>",
      "pkg/b.py": "b\n",
      "pkg/__init__.py": "from pkg import b\n",
      ".codegen-manifest.json": "{}\n",
    });
  });

  it("removes a torn journal of a run that died before its first temp", async () => {
    await mkdir(out);
    await writeFile(path.join(out, JOURNAL_FILE), '{"version": 1, "ru');
    assert.deepEqual(recoverInterruptedRun(out), { outcome: "rolled back" });
    assert.deepEqual(await readdir(out), []);
  });

  it("refuses a journal whose files lie outside the output directory, touching nothing", async () => {
    await interruptedRun({ committed: true });
    const outside = path.join(root, "outside");
    await mkdir(outside);
    await rm(path.join(out, "pkg"), { recursive: true });
    await symlink(outside, path.join(out, "pkg"));
    assert.throws(() => recoverInterruptedRun(out), (error: unknown) => error instanceof GenerationError && /"pkg\/b.py" resolves to/.test(error.message));
    assert.deepEqual(await readdir(outside), []);
    assert.equal(await readFile(path.join(out, "a.py"), "utf8"), "old a\n");
  });
});

describe("commitOrder", () => {
  it("renames ordinary files in path order, then aggregating ones deepest first", async () => {
    const paths = ["routes/__init__.py", "a/routes/__init__.py", "a/routes/x.py", "__init__.py", "b.py", "a/schemas/x.py"];
    const plan = await planWrites(
      paths.map((file) => new GeneratedFile({ path: file, content: "" })),
      out,
      { aggregates: (file) => file.endsWith("__init__.py") },
    );
    assert.deepEqual(
      commitOrder(plan).map((entry) => entry.path),
      ["a/routes/x.py", "a/schemas/x.py", "b.py", "a/routes/__init__.py", "routes/__init__.py", "__init__.py"],
    );
  });
});
