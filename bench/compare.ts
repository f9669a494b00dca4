/**
 * Paired runs of two builds of codegen: `codegen generate --target be` of the bench configs
 * (configs.ts) by each build's `dist/cli.js`, alternately (A B, B A, …), each a fresh process
 * into a new directory, so both see the same load. Prints, per size and build, the medians of
 * wall time and of CPU time (user + system, from `/usr/bin/time`, which the machine's load
 * changes far less than wall time), peak RSS, each phase (`--timings json`), and `gaps`: the
 * time between phases that no phase covers.
 *
 *   npm run bench:compare -- --runs 9 --sizes 10,100 before=/path/a after=/path/b
 *
 * Each `name=dir` is a directory holding a built `dist/` and its `package.json`, with the
 * dependencies reachable as Node resolves them (a copy of the checkout's `dist/` and
 * `package.json`, with `node_modules` a link to the checkout's, is enough). Needs `/usr/bin/time`.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

import { GNU_TIME, hasGnuTime, timeChild } from "./child.js";
import { runsAndSizes, writeBenchConfigs } from "./configs.js";
import { parseTimings, phaseTotals } from "./profile.js";
import { median, minMax } from "../test/support/stats.js";

interface Build {
  name: string;
  cli: string;
}

interface Sample {
  wall: number;
  cpu: number;
  peakMB: number;
  /** Milliseconds per phase, `start-up` and `gaps` included. */
  phases: Map<string, number>;
}

/** One fresh `generate` of `config` into `outDir` by `build`; fails unless it exits 0. */
async function measure(build: Build, config: string, outDir: string, scratch: string): Promise<Sample> {
  const run = await timeChild({
    command: process.execPath,
    args: [build.cli, "generate", "--target", "be", "--config", config, "--out", outDir, "--timings", "json"],
    cwd: scratch,
    report: join(scratch, "time.txt"),
    useGnuTime: true,
  });
  return { wall: run.seconds, cpu: run.cpuSeconds!, peakMB: run.peakKiB / 1024, phases: phasesOf(run.stderr) };
}

function phasesOf(stderr: string): Map<string, number> {
  const timings = parseTimings(stderr);
  const phases = new Map<string, number>([["start-up", timings.startupMs], ...phaseTotals(timings)]);
  const first = Math.min(...timings.spans.map((span) => span.startUs));
  const last = Math.max(...timings.spans.map((span) => span.endUs));
  const covered = timings.spans.reduce((sum, span) => sum + span.endUs - span.startUs, 0);
  phases.set("gaps", (last - first - covered) / 1000);
  return phases;
}

function table(size: number, builds: readonly Build[], samples: Map<string, Sample[]>): string {
  const phaseNames = [...samples.get(builds[0]!.name)![0]!.phases.keys()];
  const range = (values: number[]) => `${median(values).toFixed(3)} (${minMax(values, 2)})`;
  const lines = [
    `| ${size} resources | wall s (min–max) | CPU s (min–max) | peak MB | ${phaseNames.map((phase) => `${phase} ms`).join(" | ")} |`,
    `|---|---:|---:|---:|${phaseNames.map(() => "---:").join("|")}|`,
  ];
  for (const build of builds) {
    const runs = samples.get(build.name)!;
    const phases = phaseNames.map((phase) => median(runs.map((run) => run.phases.get(phase) ?? 0)).toFixed(0));
    lines.push(`| ${build.name} | ${range(runs.map((run) => run.wall))} | ${range(runs.map((run) => run.cpu))} | ${median(runs.map((run) => run.peakMB)).toFixed(0)} | ${phases.join(" | ")} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { runs: { type: "string", default: "5" }, sizes: { type: "string", default: "10,100" } },
  });
  const { runs, sizes } = runsAndSizes(values);
  if (!hasGnuTime()) throw new Error(`${GNU_TIME} is needed for CPU times`);
  const builds: Build[] = positionals.map((arg) => {
    const [name, dir] = arg.split("=");
    if (!name || !dir) throw new Error(`expected name=dir, got ${arg}`);
    const cli = resolve(dir, "dist", "cli.js");
    if (!existsSync(cli)) throw new Error(`${name}: no ${cli}`);
    return { name, cli };
  });
  if (builds.length < 2) throw new Error("name two builds or more: before=DIR after=DIR");

  const scratch = await mkdtemp(join(tmpdir(), "codegen-compare-"));
  try {
    const configs = await writeBenchConfigs(join(scratch, "configs"), sizes);
    process.stdout.write(`node ${process.version}; 1-minute load ${loadavg()[0]!.toFixed(2)} before\n`);
    for (const size of sizes) {
      const samples = new Map(builds.map((build) => [build.name, [] as Sample[]]));
      for (let run = 0; run < runs; run++) {
        // Alternate who goes first, so neither always follows the other's disk writes.
        for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
          const outDir = join(scratch, `${build.name}-${size}-${run}`);
          samples.get(build.name)!.push(await measure(build, configs.get(size)!.json, outDir, scratch));
        }
      }
      process.stdout.write(`\n${table(size, builds, samples)}\n\n1-minute load ${loadavg()[0]!.toFixed(2)} after ${runs} paired runs\n`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
