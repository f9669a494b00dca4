// A tripwire, not the benchmark: fails when generating the 1,000-resource bench config with
// the built CLI takes a median of more than twice issue 15's goal (0.6 s), or peaks above
// twice its memory goal (150 MB), so a regression is caught by `npm test`. `npm run bench`
// measures properly (bench/README.md).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { benchConfig } from "../bench/configs.js";
import { CLI, PEAK_RSS_HOOK, ensureBuilt } from "../bench/dist.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

/** Issue 15's goals for 1,000 resources, in seconds and MiB of peak RSS; the tripwires are twice those. */
const GOAL_SECONDS = 0.6;
const GOAL_MB = 150;
const RUNS = 3;

after(removeTempDirs);

/** A new directory holding the 1,000-resource bench config as `config.json`, with dist/ built. */
async function benchWork(): Promise<{ work: string; config: string }> {
  await ensureBuilt();
  const work = await makeTempDir("codegen-tripwire-");
  const config = path.join(work, "config.json");
  await writeFile(config, JSON.stringify(benchConfig(1000)));
  return { work, config };
}

describe("generation speed tripwire", () => {
  it(`generates 1,000 resources in a median of at most ${2 * GOAL_SECONDS} s (${RUNS} fresh processes)`, {
    // Issue 15's goal is not met yet: at 1,000 resources the be target's validate, build and
    // render take about 1.5 s of CPU, formatting 0.4 s and start-up 0.17 s (`npm run bench --
    // --sizes 1000` prints the phases); about a sixth of that is the garbage collector.
    // Remove this once the median passes; until then the run still measures and reports.
    todo: "issue 15: 1,000 resources take several seconds, not 0.6 s (bench/README.md)",
  }, async () => {
    const { work, config } = await benchWork();
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, [CLI, "generate", "-t", "be", "-c", config, "-o", path.join(work, `out-${run}`)], { encoding: "utf8" });
      seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
      assert.equal(result.status, 0, result.stderr);
    }
    const median = seconds.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    assert.ok(median <= 2 * GOAL_SECONDS, `median ${median.toFixed(2)} s over ${RUNS} runs (${seconds.map((s) => s.toFixed(2)).join(", ")})`);
  });

  it(`peaks at most ${2 * GOAL_MB} MB generating 1,000 resources`, async () => {
    // Without the collection before formatting (cli-v8-flags.ts) the same run peaked at 345-351 MB.
    const { work, config } = await benchWork();
    const rss = path.join(work, "rss");
    const result = spawnSync(process.execPath, ["--import", PEAK_RSS_HOOK, CLI, "generate", "-t", "be", "-c", config, "-o", path.join(work, "out")], {
      encoding: "utf8",
      env: { ...process.env, BENCH_RSS_FILE: rss },
    });
    assert.equal(result.status, 0, result.stderr);
    const peakMb = Number(await readFile(rss, "utf8")) / 1024;
    assert.ok(peakMb <= 2 * GOAL_MB, `peak RSS ${peakMb.toFixed(0)} MB`);
  });
});
