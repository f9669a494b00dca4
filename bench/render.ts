// The `render` phase alone, in process: builds the 1,000-resource `be` store afresh before
// each pass (untimed; renderers may cache on outputs), then times rendering and assembling
// it as `generate` does. Median of several passes; GC time from `performance` entries.
//
//   node --conditions=codegen-source --import tsx bench/render.ts [--size 1000] [--passes 7] [--cpu-prof out.cpuprofile] [--dist .build/js]
//
// `--cpu-prof` profiles the timed passes only and prints the top functions by self time per pass.

import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { benchConfig } from "./configs.js";
import { type InspectorProfile, printTopSelfTime } from "./profile.js";
import { median } from "../test/support/stats.js";
import { compileEarly } from "../src/cli-v8-flags.js";

const { values } = parseArgs({
  options: { size: { type: "string", default: "1000" }, passes: { type: "string", default: "7" }, "cpu-prof": { type: "string" }, dist: { type: "string" } },
});
compileEarly(); // as the CLI runs (src/cli.ts)
// `--dist <dir>` times a compiled tree instead of the sources: `npm run build`'s `.build/js` (this
// commit's or another's), which keeps every module; dist/ is bundled and exports only the package's entry points.
const root = values.dist === undefined ? "../src" : pathToFileURL(resolve(values.dist)).href;
const { Engine, discoverScopes, discoverTargets, loadImportFormatters, loadRegistry, packagePrefixOf } = (await import(`${root}/codegen/index.js`)) as typeof import("../src/codegen/index.js");
const { renderWith } = (await import(`${root}/codegen/build-output.js`)) as typeof import("../src/codegen/build-output.js");
const { createTemplateEnv } = (await import(`${root}/codegen/templating.js`)) as typeof import("../src/codegen/templating.js");
const { ProjectConfig } = (await import(`${root}/targets/be/config/schema.js`)) as typeof import("../src/targets/be/config/schema.js");
const size = Number(values.size);
const passes = Number(values.passes);

const target = (await discoverTargets()).find((candidate) => candidate.name === "be")!;
const config = ProjectConfig.parse(benchConfig(size));
await loadImportFormatters();
const registry = await loadRegistry(target.operationsEntryPoint);
const buildStore = () => new Engine(registry, { packagePrefix: packagePrefixOf(target, config), scopes: discoverScopes(target.schema) }).build(config);

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const load = loadavg()[0]!.toFixed(2);
// The first pass is what a fresh process pays: a new template environment (templates parsed and compiled), cold code.
let store = buildStore();
const firstEnv = createTemplateEnv(target.templateDir);
const firstStart = performance.now();
const first = renderWith(target, config, store, firstEnv, undefined).files;
const firstMs = performance.now() - firstStart;
const digestOf = (files: { path: string; content: string }[]) => {
  const digest = createHash("sha256");
  for (const file of files) digest.update(file.path).update("\0").update(file.content).update("\0");
  return digest.digest("hex").slice(0, 12);
};
const firstDigest = digestOf(first);

const profiler = values["cpu-prof"] === undefined ? undefined : new Session();
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
}
const profiles: InspectorProfile[] = [];
const times: number[] = [];
const cpus: number[] = [];
const gcs: number[] = [];
for (let index = 0; index < passes; index++) {
  store = buildStore();
  await new Promise((resolve) => setTimeout(resolve, 0)); // let the GC observer report the build's collections
  // As a fresh process, templates compiled within the pass.
  const env = createTemplateEnv(target.templateDir);
  if (profiler) await profiler.post("Profiler.start");
  const gcBefore = gcMs;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const files = renderWith(target, config, store, env, undefined).files;
  times.push(performance.now() - start);
  const cpu = process.cpuUsage(cpuBefore);
  cpus.push((cpu.user + cpu.system) / 1000);
  if (profiler) profiles.push((await profiler.post("Profiler.stop")).profile);
  await new Promise((resolve) => setTimeout(resolve, 0));
  gcs.push(gcMs - gcBefore);
}
console.log(
  `render ${first.length} files: first pass ${firstMs.toFixed(0)} ms, then median ${median(times).toFixed(0)} ms ` +
    `(${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)}), CPU ${median(cpus).toFixed(0)} ms (min ${Math.min(...cpus).toFixed(0)}), GC ${median(gcs).toFixed(0)} ms/pass; ` +
    `load ${load} → ${loadavg()[0]!.toFixed(2)}; output sha256 ${firstDigest}`,
);

if (profiler) {
  await writeFile(values["cpu-prof"]!, JSON.stringify(profiles.at(-1)));
  printTopSelfTime(profiles, 30, passes);
}
