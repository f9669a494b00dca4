// A `codegen generate` killed with SIGKILL at seeded random points of a large write, over an
// older tree: the next run completes or rolls back the interrupted one from its journal and
// leaves exactly the new config's complete output, with no temp, journal or lock file, and a
// clean `--check`. Meanwhile `--check` reports the interrupted run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";

import { benchConfig } from "../bench/configs.js";
import { builtCli, runCodegen } from "./helpers/codegen-cli.js";
import { leftovers, sameTree, treeHashes } from "./helpers/trees.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

const OLD_SIZE = 100;
const NEW_SIZE = 240;
// Rounds run until MIN_INTERRUPTED kills landed during the write (at most MAX_ROUNDS): a
// kill that comes after the run finished tests nothing, and how long a write takes varies
// with the machine's load.
const MIN_INTERRUPTED = 3;
const MAX_ROUNDS = 14;
const SEED = Number(process.env.CODEGEN_CRASH_SEED ?? 20251123);

let work: string;
let oldConfig: string;
let newConfig: string;
let expectedNew: Map<string, string>;
/** The old config's output, generated once: each round starts from a copy of it (generation is deterministic, and the out directory is no input). */
let oldTree: string;
/**
 * How long the journal of the new config's write over the old tree lives (ms): the window the
 * kills aim at, narrowed by every round that finished before its kill.
 */
let writeMs: number;

/** mulberry32: a small seeded generator, so a failing round can be replayed with CODEGEN_CRASH_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const generateArgs = (config: string, out: string) => ["generate", "-t", "be", "-c", config, "-o", out];

async function generateOk(config: string, out: string): Promise<string> {
  const run = await runCodegen(work, generateArgs(config, out));
  assert.equal(run.code, 0, run.stderr);
  return run.stderr;
}

/**
 * Runs `generate` of the new config into `out` and kills it `delayMs` after its journal appears.
 * @returns whether the kill came before the process finished, and how long the journal lived when it was not killed.
 */
async function generateAndKill(out: string, delayMs: number | undefined): Promise<{ killed: boolean; journalMs: number }> {
  const child = spawn(process.execPath, [await builtCli(), ...generateArgs(newConfig, out)], {
    cwd: work,
    stdio: "ignore",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on("exit", () => ((exited = true), resolve())));
  const journal = path.join(out, ".codegen-journal.json");
  while (!exited && !existsSync(journal)) await sleep(1);
  const seen = Date.now();
  if (delayMs !== undefined && !exited) {
    await sleep(delayMs);
    if (!exited) child.kill("SIGKILL");
  }
  const killed = !exited;
  while (!exited && existsSync(journal)) await sleep(1);
  const journalMs = Date.now() - seen;
  await exit;
  return { killed, journalMs };
}

before(async () => {
  work = await makeTempDir("codegen-crash-");
  oldConfig = path.join(work, "old.json");
  newConfig = path.join(work, "new.json");
  await writeFile(oldConfig, JSON.stringify(benchConfig(OLD_SIZE)));
  await writeFile(newConfig, JSON.stringify(benchConfig(NEW_SIZE)));
  const reference = path.join(work, "reference");
  oldTree = path.join(work, "old");
  // Two runs into directories of their own, neither timed: side by side.
  await Promise.all([generateOk(newConfig, reference), generateOk(oldConfig, oldTree)]);
  expectedNew = await treeHashes(reference);
  // Time an undisturbed write of the new config over the old tree, to aim the kills inside it.
  const timed = path.join(work, "timed");
  await cp(oldTree, timed, { recursive: true });
  writeMs = (await generateAndKill(timed, undefined)).journalMs;
});

after(removeTempDirs);

describe("a run killed during a large write", () => {
  it(`is completed or rolled back by the next run (${MIN_INTERRUPTED} kills mid-write in at most ${MAX_ROUNDS} seeded rounds, seed ${SEED})`, async () => {
    const next = random(SEED);
    let interrupted = 0;
    let checkedInterrupted = false;
    for (let round = 1; round <= MAX_ROUNDS && interrupted < MIN_INTERRUPTED; round++) {
      const out = path.join(work, `round-${round}`);
      await cp(oldTree, out, { recursive: true });
      // Aimed at the first half of the timed write: later runs are often faster than the timed one.
      const delayMs = Math.floor(next() * writeMs * 0.5);
      const { killed, journalMs } = await generateAndKill(out, delayMs);
      const midWrite = killed && existsSync(path.join(out, ".codegen-journal.json"));
      // A write that ended before its kill shows how long writes take now, under the machine's
      // current load: aim the next kills inside that.
      if (!killed) writeMs = Math.min(writeMs, journalMs);
      else if (!midWrite) writeMs = Math.min(writeMs, delayMs);
      if (midWrite) interrupted++;
      if (midWrite && !checkedInterrupted) {
        checkedInterrupted = true;
        const check = await runCodegen(work, [...generateArgs(newConfig, out), "--check"]);
        assert.equal(check.code, 1, `round ${round}: --check must report the interrupted run`);
        assert.match(check.stderr, /an interrupted run left .* half-written/);
      }
      const stderr = await generateOk(newConfig, out);
      // A kill while the journal itself was being written leaves it torn: that run is rolled back unnamed.
      if (midWrite) assert.match(stderr, /codegen: (completed|rolled back) (the run of pid \d+|an interrupted run)/, `round ${round} (killed ${delayMs} ms in)`);
      const tree = await treeHashes(out);
      assert.deepEqual(leftovers(tree), [], `round ${round} (killed ${delayMs} ms in) left temp, journal or lock files`);
      assert.ok(sameTree(tree, expectedNew), `round ${round} (killed ${delayMs} ms in): the tree is not the new config's complete output`);
      const check = await runCodegen(work, [...generateArgs(newConfig, out), "--check"]);
      assert.equal(check.code, 0, `round ${round}: --check after recovery\n${check.stdout}${check.stderr}`);
    }
    // Kills that all missed the write would test nothing.
    assert.ok(interrupted >= MIN_INTERRUPTED, `only ${interrupted} kills in ${MAX_ROUNDS} rounds landed during the write (write phase ${writeMs} ms at the end)`);
  });
});
