// The `format` phase alone, in process: builds the 1,000-resource `be` tree once without its
// formatter, then times formatting every file with the target's `formatFile`, as the engine
// does on the main thread. Median of several passes; GC time from `performance` entries.
//
//   node --conditions=codegen-source --import tsx bench/format.ts [--size 1000] [--passes 7] [--cpu-prof out.cpuprofile]
//
// `--cpu-prof` profiles the timed passes only (not building the tree) and prints the top
// functions by self time. CPU times (all threads) tell more than wall times on a busy machine.

import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

import { buildFiles, discoverTargets } from "../src/codegen/index.js";
import { formatFile } from "../src/targets/be/format.js";
import { ProjectConfig } from "../src/targets/be/config/schema.js";
import { benchConfig } from "./configs.js";
import { printTopSelfTime } from "./profile.js";
import { median } from "../test/support/stats.js";

const { values } = parseArgs({ options: { size: { type: "string", default: "1000" }, passes: { type: "string", default: "7" }, "cpu-prof": { type: "string" } } });
const size = Number(values.size);
const passes = Number(values.passes);

const target = (await discoverTargets()).find((candidate) => candidate.name === "be")!;
// No formatter: the files as the templates wrote them, the formatter's inputs.
const files = await buildFiles({ ...target, formatter: undefined }, ProjectConfig.parse(benchConfig(size)));
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

/** User plus system CPU time of a `process.cpuUsage` difference, in ms: all threads (GC and JIT helpers too). */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** One pass over every file; the answer's length so the work cannot be skipped. */
async function pass(): Promise<number> {
  let length = 0;
  for (const file of files) length += (await formatFile(file.path, file.content)).length;
  return length;
}

const load = loadavg()[0]!.toFixed(2);
// Warm-up (JIT, the formatter's first-use costs) and a digest of the output, to compare layouts between commits.
// The first pass is what a fresh process pays: ruff's module loaded and compiled, cold code.
const digest = createHash("sha256");
const firstStart = performance.now();
const firstCpuStart = process.cpuUsage();
for (const file of files) digest.update(await formatFile(file.path, file.content));
const firstMs = performance.now() - firstStart;
const firstCpuMs = cpuMs(process.cpuUsage(firstCpuStart));
const profiler = values["cpu-prof"] === undefined ? undefined : new Session();
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}
const times: number[] = [];
const cpus: number[] = [];
const gcs: number[] = [];
for (let index = 0; index < passes; index++) {
  const gcBefore = gcMs;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await pass();
  times.push(performance.now() - start);
  cpus.push(cpuMs(process.cpuUsage(cpuStart)));
  await new Promise((resolve) => setTimeout(resolve, 0)); // let the GC observer report
  gcs.push(gcMs - gcBefore);
}
const ms = median(times);
console.log(
  `format ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB: first pass ${firstMs.toFixed(0)} ms (CPU ${firstCpuMs.toFixed(0)}), ` +
    `then median ${ms.toFixed(0)} ms (${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)}; CPU ${median(cpus).toFixed(0)}), ` +
    `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s, ` +
    `GC ${median(gcs).toFixed(0)} ms/pass; load ${load} → ${loadavg()[0]!.toFixed(2)}; output sha256 ${digest.digest("hex").slice(0, 12)}`,
);

if (profiler) {
  const { profile } = await profiler.post("Profiler.stop");
  await writeFile(values["cpu-prof"]!, JSON.stringify(profile));
  printTopSelfTime([profile], 25, passes);
}
