/**
 * `npm run bench`: times `codegen generate --target be` (the built CLI, `dist/cli.js`) on the
 * synthetic configs of bench/configs.ts and prints markdown tables of the medians: wall time
 * and peak RSS per scenario, time per phase, and the CPU profile's top functions per phase.
 *
 * Scenarios: `write` (JSON config into a new, empty directory), `jsonnet` (the same project
 * as jsonnet built with the stdlib helpers, into a new directory), `no-change` (regenerating
 * an up-to-date tree: every file must stay unchanged, mtimes untouched), `edit` (regenerating
 * that tree after one resource's list got another page size, the common loop of a user who
 * does not watch: exactly one file may be written), `check` and `dry-run` (on an up-to-date
 * tree). Every run is a fresh process. Wall time is measured around the child with a
 * monotonic clock; peak RSS comes from `/usr/bin/time` (`%M`) when it exists,
 * else from `process.resourceUsage().maxRSS` written by a preloaded hook (bench/peak-rss.mjs);
 * phase times from the child's own `--timings json` line.
 *
 * Flags: `--runs N` (default 5), `--sizes 10,100` (default 10,100,1000), `--scenarios
 * write,no-change` (default all; only `write` runs at every size, the others at the largest),
 * `--no-profile` (skip the profiled run), `--no-build` (skip rebuilding a stale dist/),
 * `--no-gnu-time` (use the preload hook even when /usr/bin/time exists).
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { SIZES, benchConfigEdited, editedResource, runsAndSizes, writeBenchConfigs } from "./configs.js";
import { GNU_TIME, hasGnuTime, timeChild } from "./child.js";
import { CLI, ensureBuilt } from "./dist.js";
import { type RunTimings, hotItemsByPhase, parseTimings, phaseTotals } from "./profile.js";
import { PHASES as ENGINE_PHASES } from "../src/codegen/timings.js";
import { median, minMax } from "../test/support/stats.js";

const SCENARIOS = ["write", "jsonnet", "no-change", "edit", "check", "dry-run"] as const;
type Scenario = (typeof SCENARIOS)[number];
const PHASES = ["start-up", ...ENGINE_PHASES];

interface Sample {
  seconds: number;
  peakKiB: number;
  timings: RunTimings;
}

interface Row {
  scenario: Scenario;
  resources: number;
  files: number;
  samples: Sample[];
}

/** Every file under `dir` with its mtime (ms), the manifest included. */
async function mtimes(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) result.set(join(entry.parentPath, entry.name), (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return result;
}

interface RunOptions {
  useGnuTime: boolean;
  scratch: string;
  extraArgs?: string[];
  nodeArgs?: string[];
}

/** One `codegen generate` process of `config` into `outDir`; fails unless it exits 0. */
async function measure(config: string, outDir: string, options: RunOptions): Promise<Sample & { stdout: string }> {
  const cliArgs = [CLI, "generate", "--target", "be", "--config", config, "--out", outDir, "--timings", "json", ...(options.extraArgs ?? [])];
  const run = await timeChild({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), ...cliArgs],
    cwd: options.scratch,
    report: join(options.scratch, "report.txt"),
    useGnuTime: options.useGnuTime,
  });
  return { seconds: run.seconds, peakKiB: run.peakKiB, timings: parseTimings(run.stderr), stdout: run.stdout };
}

/** What each scenario passes and checks; `fresh` scenarios write into a new empty directory each run. */
const SCENARIO_SETUP: Record<Scenario, { fresh: boolean; args: string[]; config: "json" | "jsonnet" }> = {
  write: { fresh: true, args: [], config: "json" },
  jsonnet: { fresh: true, args: [], config: "jsonnet" },
  "no-change": { fresh: false, args: [], config: "json" },
  edit: { fresh: false, args: [], config: "json" },
  check: { fresh: false, args: ["--check"], config: "json" },
  "dry-run": { fresh: false, args: ["--dry-run"], config: "json" },
};

async function runScenario(scenario: Scenario, size: number, config: string, runs: number, options: RunOptions): Promise<Row> {
  const setup = SCENARIO_SETUP[scenario];
  const row: Row = { scenario, resources: size, files: 0, samples: [] };
  const upToDate = setup.fresh ? undefined : await mkdtemp(join(options.scratch, `tree-${size}-`));
  // `edit` rewrites its own copy of the config before each run, at the path the tree was written from.
  const runConfig = scenario === "edit" ? join(options.scratch, `${basename(upToDate!)}.json`) : config;
  if (runConfig !== config) await copyFile(config, runConfig);
  if (upToDate) await measure(runConfig, upToDate, options);
  for (let run = 1; run <= runs; run++) {
    const outDir = upToDate ?? (await mkdtemp(join(options.scratch, `out-${size}-`)));
    const before = scenario === "no-change" ? await mtimes(outDir) : undefined;
    if (scenario === "edit") await writeFile(runConfig, `${JSON.stringify(benchConfigEdited(size, editedResource(size), 20 + run), null, 2)}\n`);
    const sample = await measure(runConfig, outDir, { ...options, extraArgs: setup.args });
    if (scenario === "edit" && !/ 1 file written,/.test(sample.stdout)) throw new Error(`edit run did not write exactly one file: ${sample.stdout}`);
    if (before) {
      const after = await mtimes(outDir);
      const touched = [...after].filter(([file, mtime]) => before.get(file) !== mtime);
      if (touched.length > 0 || after.size !== before.size) throw new Error(`no-change run rewrote ${touched.length} files in ${outDir}`);
      if (!/ 0 files written,/.test(sample.stdout)) throw new Error(`no-change run wrote files: ${sample.stdout}`);
    }
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
    row.files = files;
    row.samples.push(sample);
    process.stderr.write(
      `${scenario} ${size} resources, run ${run}/${runs}: ${sample.seconds.toFixed(2)} s, ${(sample.peakKiB / 1024).toFixed(0)} MB\n`,
    );
  }
  return row;
}

function summaryTable(rows: Row[]): string {
  const lines = [
    "| scenario | resources | files | median s | min–max s | median peak MB |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const seconds = row.samples.map((sample) => sample.seconds);
    const megabytes = median(row.samples.map((sample) => sample.peakKiB)) / 1024;
    lines.push(
      `| ${row.scenario} | ${row.resources.toLocaleString("en-US")} | ${row.files} | ${median(seconds).toFixed(2)} | ` +
        `${minMax(seconds, 2)} | ${megabytes.toFixed(0)} |`,
    );
  }
  return lines.join("\n");
}

function phaseTable(rows: Row[]): string {
  const lines = [`| scenario | resources | ${PHASES.join(" | ")} |`, `|---|---:|${PHASES.map(() => "---:").join("|")}|`];
  for (const row of rows) {
    const cells = PHASES.map((phase) =>
      median(row.samples.map((sample) => (phase === "start-up" ? sample.timings.startupMs : (phaseTotals(sample.timings).get(phase) ?? 0)))),
    );
    lines.push(`| ${row.scenario} | ${row.resources.toLocaleString("en-US")} | ${cells.map((ms) => ms.toFixed(0)).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** One profiled `write` run of `config`: the top functions by self time in each phase. */
async function profileTable(config: string, options: RunOptions): Promise<string> {
  const profileDir = await mkdtemp(join(options.scratch, "profile-"));
  const outDir = await mkdtemp(join(options.scratch, "profiled-out-"));
  const sample = await measure(config, outDir, { ...options, nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir] });
  const [profileFile] = await readdir(profileDir);
  const hot = await hotItemsByPhase(join(profileDir, profileFile!), sample.timings);
  const lines = ["| phase | ms | top functions by self time (ms) |", "|---|---:|---|"];
  const totals = phaseTotals(sample.timings);
  for (const phase of PHASES) {
    const ms = phase === "start-up" ? sample.timings.startupMs : (totals.get(phase) ?? 0);
    const items = (hot.get(phase) ?? []).map((item) => `${item.name} ${item.ms.toFixed(0)}`).join("; ");
    lines.push(`| ${phase} | ${ms.toFixed(0)} | ${items.replace(/\|/g, "\\|")} |`);
  }
  return lines.join("\n");
}

/** Median seconds `cp -r` takes to copy the generated tree of `config`: what the disk allows right now. */
async function copyFloor(config: string, runs: number, options: RunOptions): Promise<number> {
  const tree = await mkdtemp(join(options.scratch, "floor-source-"));
  await measure(config, tree, options);
  const seconds: number[] = [];
  for (let run = 0; run < runs; run++) {
    const copy = join(options.scratch, `floor-copy-${run}`);
    const started = process.hrtime.bigint();
    const result = spawnSync("cp", ["-r", tree, copy]);
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    if (result.status !== 0) throw new Error(`cp -r failed: ${result.stderr.toString()}`);
  }
  return median(seconds);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      sizes: { type: "string", default: SIZES.join(",") },
      scenarios: { type: "string", default: SCENARIOS.join(",") },
      "no-profile": { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      "no-gnu-time": { type: "boolean", default: false },
    },
  });
  const { runs, sizes } = runsAndSizes(values);
  const scenarios = values.scenarios.split(",") as Scenario[];
  const unknown = scenarios.filter((scenario) => !SCENARIOS.includes(scenario));
  if (unknown.length > 0) throw new Error(`--scenarios: unknown ${unknown.join(", ")} (known: ${SCENARIOS.join(", ")})`);

  if (!values["no-build"]) await ensureBuilt();
  const useGnuTime = !values["no-gnu-time"] && hasGnuTime();
  // Every tree the runs write stays here until the end: right after thousands of files are
  // deleted, creating the next ones takes several times as long (ext4 with `discard`), for
  // cp -r as for codegen, so deleting between runs would time the harness (bench/README.md).
  const scratch = await mkdtemp(join(tmpdir(), "codegen-bench-"));
  const options: RunOptions = { useGnuTime, scratch };
  const loadBefore = loadavg()[0]!;
  try {
    const configs = await writeBenchConfigs(join(scratch, "configs"), sizes);
    const largest = Math.max(...sizes);
    const rows: Row[] = [];
    for (const scenario of scenarios) {
      for (const size of scenario === "write" ? sizes : [largest]) {
        const files = configs.get(size)!;
        rows.push(await runScenario(scenario, size, SCENARIO_SETUP[scenario].config === "json" ? files.json : files.jsonnet, runs, options));
      }
    }
    const profile = values["no-profile"] ? undefined : await profileTable(configs.get(largest)!.json, options);
    const floor = await copyFloor(configs.get(largest)!.json, runs, options);
    const cpu = cpus();
    const loadAfter = loadavg()[0]!;
    process.stdout.write(
      `\ncodegen generate --target be, median of ${runs} fresh processes; node ${process.version}, ` +
        `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}; 1-minute load ${loadBefore.toFixed(2)} before, ` +
        `${loadAfter.toFixed(2)} after; peak RSS from ${useGnuTime ? GNU_TIME : "process.resourceUsage()"}\n\n`,
    );
    process.stdout.write(`${summaryTable(rows)}\n\nFloor: \`cp -r\` of the ${largest.toLocaleString("en-US")}-resource tree, median ${floor.toFixed(2)} s.\n`);
    process.stdout.write(`\nMedian ms per phase:\n\n${phaseTable(rows)}\n`);
    if (profile) process.stdout.write(`\nOne profiled write of ${largest.toLocaleString("en-US")} resources (node --cpu-prof):\n\n${profile}\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
