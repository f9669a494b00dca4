// How `codegen dev` owns its processes, with real ones: the project's lock refuses a second
// run and hands a dead run's processes to the next; the keeper stops a killed run's process
// groups; what neither caught is stopped by the pids the lock recorded.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, test } from "node:test";
import { acquireDevLock, devLockFile, type OwnedProcess } from "../../src/dev/lock.js";
import { isAlive, processStartTime, spawnGroup, stopLeftovers } from "../../src/dev/processes.js";
import { DevError } from "../../src/dev/project.js";
import { repoRoot, tsxLoader } from "../helpers/user-project.js";

const root = await mkdtemp(join(tmpdir(), "codegen-dev-lock-"));
const groups: number[] = [];
after(async () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Stopped by the test.
    }
  }
  await rm(root, { recursive: true, force: true });
});

/** A process group of two sleeping processes, as npm and the vite it runs are. */
function sleepingGroup(): OwnedProcess {
  const group = spawnGroup("sh", ["-c", "sleep 300 & sleep 300"], { stdio: "ignore" });
  const pid = group.child.pid!;
  groups.push(pid);
  return { name: "sleepers", pid, group: true, signal: "SIGTERM", startTime: processStartTime(pid) };
}

/** Waits until no process of group `pid` is left, failing after `timeoutMs`. */
async function groupGone(pid: number, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(-pid)) {
    if (Date.now() > deadline) assert.fail(`${what}: process group ${pid} still runs after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn("true");
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

test("a second run is refused, naming the holder; the lock goes with its release", async () => {
  const { lock, leftovers } = await acquireDevLock(root);
  assert.deepEqual(leftovers, []);
  await assert.rejects(
    acquireDevLock(root),
    (error: unknown) => error instanceof DevError && error.message.includes(`another codegen dev is running in ${root} (pid ${process.pid},`),
  );
  await lock.release();
  const again = await acquireDevLock(root);
  await again.lock.release();
});

test("a dead holder's lock is taken over with its processes, which stopLeftovers stops", { timeout: 30_000 }, async () => {
  const sleepers = sleepingGroup();
  const reused: OwnedProcess = { name: "a later process", pid: process.pid, group: false, signal: "SIGTERM", startTime: "1" };
  const dead = { pid: await deadPid(), host: (await import("node:os")).hostname(), since: "then", token: "dead", processes: [sleepers, reused] };
  await writeFile(devLockFile(root), JSON.stringify(dead));
  const { lock, leftovers } = await acquireDevLock(root);
  assert.deepEqual(leftovers, [sleepers, reused]);
  const said: string[] = [];
  await stopLeftovers(leftovers, (line) => said.push(line));
  await groupGone(sleepers.pid, 1000, "stopLeftovers");
  assert.ok(isAlive(process.pid), "a pid now held by another process (another start time) is left alone");
  assert.deepEqual(said, [`stopping what a killed codegen dev left running: sleepers (pid ${sleepers.pid})`]);
  const recorded = JSON.parse(await readFile(devLockFile(root), "utf8")) as { pid: number; processes: unknown[] };
  assert.equal(recorded.pid, process.pid);
  const fresh = sleepingGroup();
  const { startTime: _, ...started } = fresh;
  await lock.record(started);
  assert.deepEqual((JSON.parse(await readFile(devLockFile(root), "utf8")) as { processes: unknown[] }).processes, [fresh], "recorded with its start time");
  await lock.release();
});

/** A Node process that starts a keeper, has it watch `groups`, runs `then` (a release, a forget), says "watching", then waits. */
function keeperHost(groups: number[], then = "") {
  const script = `
    import { startKeeper } from ${JSON.stringify(join(repoRoot, "src", "dev", "keeper.ts"))};
    const keeper = startKeeper();
    const owned = (pid) => ({ name: "sleepers", pid, group: true, signal: "SIGTERM" });
    for (const pid of ${JSON.stringify(groups)}) keeper.watch(owned(pid));
    ${then}
    process.stdout.write("watching\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", tsxLoader, "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise<typeof child>((resolve, reject) => {
    child.stdout.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`the keeper's host exited with ${code} before it watched`)));
  });
}

test("the keeper stops the process groups of a SIGKILLed run, and leaves them alone once released", { timeout: 30_000 }, async () => {
  const watched = sleepingGroup();
  const host = await keeperHost([watched.pid]);
  host.kill("SIGKILL");
  await groupGone(watched.pid, 5000, "the keeper");

  const released = sleepingGroup();
  const calm = await keeperHost([released.pid], "keeper.release();");
  calm.kill("SIGKILL");
  await sleep(1000);
  assert.ok(isAlive(-released.pid), "a released keeper signals nothing");
});

test("the keeper leaves alone a process it was told has ended (its pid may be another's by then)", { timeout: 30_000 }, async () => {
  const ended = sleepingGroup();
  const running = sleepingGroup();
  const host = await keeperHost([ended.pid, running.pid], `keeper.forget(owned(${ended.pid}));`);
  host.kill("SIGKILL");
  await groupGone(running.pid, 5000, "the keeper");
  await sleep(500);
  assert.ok(isAlive(-ended.pid), "a forgotten group is not signalled");
});
