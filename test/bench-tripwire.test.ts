// A tripwire, not the benchmark: fails when generating the 1,000-resource bench config with
// the built CLI peaks above twice issue 15's memory goal (150 MB), so a regression is caught
// by `npm test`. Time is not tripped here: a wall-clock bound either fails on a busy machine
// or catches nothing, so `npm run bench` and `npm run bench:kiln` measure it (bench/README.md).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { benchConfig } from "../bench/configs.js";
import { CLI, PEAK_RSS_HOOK, ensureBuilt } from "../bench/dist.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

/** Issue 15's goal for 1,000 resources in MiB of peak RSS; the tripwire is twice that. */
const GOAL_MB = 150;
/** Several times the run's 6 s on a busy 2-core machine: past it the run is stuck, not slow. */
const RUN_TIMEOUT_MS = 120_000;

after(removeTempDirs);

/** A new directory holding the 1,000-resource bench config as `config.json`, with dist/ built. */
async function benchWork(): Promise<{ work: string; config: string }> {
  await ensureBuilt();
  const work = await makeTempDir("codegen-tripwire-");
  const config = path.join(work, "config.json");
  await writeFile(config, JSON.stringify(benchConfig(1000)));
  return { work, config };
}

describe("generation memory tripwire", () => {
  it(`peaks at most ${2 * GOAL_MB} MB generating 1,000 resources`, async () => {
    // Without the collection before formatting (cli-v8-flags.ts) the same run peaked at 345-351 MB.
    const { work, config } = await benchWork();
    const rss = path.join(work, "rss");
    const result = spawnSync(process.execPath, ["--import", PEAK_RSS_HOOK, CLI, "generate", "-t", "be", "-c", config, "-o", path.join(work, "out")], {
      encoding: "utf8",
      env: { ...process.env, BENCH_RSS_FILE: rss },
      timeout: RUN_TIMEOUT_MS,
    });
    assert.equal(result.error, undefined, `the run did not finish within ${RUN_TIMEOUT_MS} ms: ${result.error?.message}\n${result.stderr}`);
    assert.equal(result.status, 0, result.stderr);
    const peakMb = Number(await readFile(rss, "utf8")) / 1024;
    assert.ok(peakMb <= 2 * GOAL_MB, `peak RSS ${peakMb.toFixed(0)} MB`);
  });
});
