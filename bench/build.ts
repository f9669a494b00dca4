// The `validate` and `build` phases alone, in process: the `be` schema over the bench config,
// then the engine over the result, as `generate` runs them. Fresh store each pass; median of
// the passes after the first (the first is what a fresh process pays: cold code).
//
//   node --import tsx bench/build.ts [--size 1000] [--passes 7] [--dist dist] [--cpu-prof out.cpuprofile [--cold]]
//
// `--dist` names a built `dist/` (inside a directory holding the package.json) to time, so two
// commits' builds can be run alternately; `--cpu-prof` profiles the timed passes only, or with `--cold` the first pass only.

import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { benchConfig } from "./configs.js";
import { printTopSelfTime } from "./profile.js";
import { median } from "../test/support/stats.js";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "1000" },
    passes: { type: "string", default: "7" },
    dist: { type: "string", default: "dist" },
    "cpu-prof": { type: "string" },
    cold: { type: "boolean", default: false },
  },
});
const size = Number(values.size);
const passes = Number(values.passes);
const dist = resolve(values.dist!);
const engine = await import(pathToFileURL(`${dist}/codegen/index.js`).href);
const target = (await engine.discoverTargets({ cwd: resolve(dist, "..") })).find((candidate: { name: string }) => candidate.name === "be")!;
const ProjectConfig = target.schema;
await engine.loadImportFormatters({ cwd: resolve(dist, "..") });
const registry = await engine.loadRegistry(target.operationsEntryPoint, { cwd: resolve(dist, "..") });
const raw = JSON.parse(JSON.stringify(benchConfig(size)));

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

/** CPU ms (user + system, every thread) since `since`. */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** One validate and one build: wall and CPU ms of each, GC ms, outputs in the store. */
async function pass() {
  const gcBefore = gcMs;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const config = ProjectConfig.parse(raw);
  const validateCpu = cpuMs(cpuStart);
  const validated = performance.now();
  const cpuValidated = process.cpuUsage();
  const store = new engine.Engine(registry, { packagePrefix: engine.packagePrefixOf(target, config), scopes: engine.discoverScopes(target.schema) }).build(config);
  const buildCpu = cpuMs(cpuValidated);
  const built = performance.now();
  await new Promise((resolveTick) => setTimeout(resolveTick, 0)); // let the GC observer report
  const outputs = store.entries().reduce((sum: number, entry: [string, string, unknown[]]) => sum + entry[2].length, 0);
  return { validate: validated - start, build: built - validated, validateCpu, buildCpu, gc: gcMs - gcBefore, outputs };
}

const load = loadavg()[0]!.toFixed(2);
const profiler = values["cpu-prof"] === undefined ? undefined : new Session();
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}
const first = await pass();
if (profiler && values.cold) await stopProfile(1);
const runs: Awaited<ReturnType<typeof pass>>[] = [];
for (let index = 0; index < passes; index++) runs.push(await pass());
const ms = (key: "validate" | "build" | "validateCpu" | "buildCpu" | "gc"): string => median(runs.map((run) => run[key])).toFixed(0);
console.log(
  `${values.dist} ${size} resources, ${first.outputs} outputs: first pass validate ${first.validate.toFixed(0)} ms (CPU ${first.validateCpu.toFixed(0)}), ` +
    `build ${first.build.toFixed(0)} ms (CPU ${first.buildCpu.toFixed(0)}); then median validate ${ms("validate")} ms (CPU ${ms("validateCpu")}), ` +
    `build ${ms("build")} ms (CPU ${ms("buildCpu")}), GC ${ms("gc")} ms/pass; load ${load} → ${loadavg()[0]!.toFixed(2)}`,
);

if (profiler && !values.cold) await stopProfile(passes);

/** Writes the profile and prints its top functions, per pass. */
async function stopProfile(passCount: number): Promise<void> {
  const { profile } = await profiler!.post("Profiler.stop");
  await writeFile(values["cpu-prof"]!, JSON.stringify(profile));
  printTopSelfTime([profile], 30, passCount);
}
