/**
 * `npm run bench:floor`: what a run of the bench config costs before any of codegen's own work,
 * each step timed alone in a fresh process (cold code, as a CLI run pays it), median of
 * `--runs`: Node starting, loading the libraries DESIGN.md fixes (zod and nunjucks, bundled
 * as dist/ bundles them), parsing the config's JSON, the cheapest zod check of its shape (a
 * schema of plain objects, arrays and primitives inferred from the data: no refinements, no
 * transforms, no defaults), copying the generated tree (`cp -r`), and `ruff format --check`
 * of it (the formatter whose output the generated Python must match, in Rust, on every core).
 * Issue 15's goals for a whole run are 0.15 s at 100 resources and 0.6 s at 1,000; this says
 * how much of them the fixed parts leave.
 *
 *   node --import tsx bench/floor.ts [--size 1000] [--runs 5] [--ruff PATH] [--no-build]
 *
 * `--ruff` defaults to the test suite's cached virtual environment (`<cache>/codegen/venv-*`)
 * or `ruff` on PATH; without one the ruff row is left out.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { writeBenchConfigs } from "./configs.js";
import { CLI, ensureBuilt } from "./dist.js";
import { cacheRoot } from "../test/support/cache.js";
import { median } from "../test/support/stats.js";

const { values } = parseArgs({
  options: { size: { type: "string", default: "1000" }, runs: { type: "string", default: "5" }, ruff: { type: "string" }, "no-build": { type: "boolean", default: false } },
});
const size = Number(values.size);
const runs = Number(values.runs);
if (!values["no-build"]) await ensureBuilt();

const scratch = await mkdtemp(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "codegen-floor-"));
const config = (await writeBenchConfigs(scratch, [size])).get(size)!.json;
const tree = join(scratch, "tree");
const generated = spawnSync(process.execPath, [CLI, "generate", "--target", "be", "--config", config, "--out", tree], { stdio: ["ignore", "ignore", "inherit"] });
if (generated.status !== 0) throw new Error("generating the tree failed");

// zod and nunjucks bundled into one module, as dist/ ships them (scripts/bundle.mjs).
const libraries = join(scratch, "libraries.mjs");
await build({
  stdin: { contents: 'export * as z from "zod"; export { default as nunjucks } from "nunjucks";', resolveDir: import.meta.dirname },
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: libraries,
  external: ["chokidar", "fsevents"],
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  logLevel: "error",
});

/** Milliseconds of `performance.now()` a script prints as its last line, from a fresh `node`. */
function timedScript(script: string): number {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, "--", config], { cwd: import.meta.dirname, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`a timed script failed:\n${result.stderr}`);
  return Number(result.stdout.trim().split("\n").at(-1));
}

/** Wall milliseconds of a command. */
function wallMs(command: string, args: string[]): number {
  const start = performance.now();
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.toString()}`);
  return ms;
}

// The narrowest zod schema the data satisfies: objects strict, keys of a list's objects optional.
const INFER = `
import { z } from "zod";
function schemaOfAll(values) {
  const objects = values.filter((v) => v !== null && typeof v === "object" && !Array.isArray(v));
  const arrays = values.filter(Array.isArray);
  const kinds = new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
  const options = [...kinds].map((kind) => {
    if (kind === "object") {
      const keys = new Map();
      for (const object of objects) for (const [key, value] of Object.entries(object)) keys.set(key, [...(keys.get(key) ?? []), value]);
      const optional = objects.length > 1;
      return z.strictObject(Object.fromEntries([...keys].map(([key, vs]) => [key, optional ? schemaOfAll(vs).optional() : schemaOfAll(vs)])));
    }
    if (kind === "array") return z.array(schemaOfAll(arrays.flat()));
    return { string: z.string(), number: z.number(), boolean: z.boolean(), null: z.null() }[kind];
  });
  return options.length === 1 ? options[0] : z.union(options);
}
`;

const steps: { step: string; sample: () => number }[] = [
  { step: "Node starts (`node -e 0`)", sample: () => wallMs(process.execPath, ["-e", "0"]) },
  {
    step: "load zod and nunjucks (one bundled module, as in dist/)",
    sample: () => timedScript(`const start = performance.now(); await import(${JSON.stringify(libraries)}); console.log(performance.now() - start);`),
  },
  {
    step: "read and parse the config's JSON",
    sample: () => timedScript(`import { readFileSync } from "node:fs"; const start = performance.now(); JSON.parse(readFileSync(process.argv[1], "utf8")); console.log(performance.now() - start);`),
  },
  {
    step: "zod: the narrowest schema of the config's shape, first parse",
    sample: () =>
      timedScript(`${INFER}
import { readFileSync } from "node:fs";
const data = JSON.parse(readFileSync(process.argv[1], "utf8"));
const schema = schemaOfAll([data]);
const start = performance.now();
if (!schema.safeParse(data).success) throw new Error("the inferred schema rejects its own data");
console.log(performance.now() - start);`),
  },
  {
    step: "copy the generated tree (`cp -r`)",
    sample: () => {
      const copy = join(scratch, `copy-${Math.random().toString(36).slice(2)}`);
      return wallMs("cp", ["-r", tree, copy]);
    },
  },
];

const ruff = values.ruff ?? findRuff();
if (ruff) steps.push({ step: "`ruff format --check --no-cache` of the tree (Rust, all cores)", sample: () => wallMs(ruff, ["format", "--check", "--no-cache", "--quiet", tree]) });

const rows = steps.map(({ step, sample }) => {
  const samples = Array.from({ length: runs }, sample);
  return { step, ms: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
});
await rm(scratch, { recursive: true, force: true });

const total = rows.reduce((sum, row) => sum + row.ms, 0);
const fmt = (ms: number): string => Math.round(ms).toLocaleString("en-US");
const table = [
  `Fixed costs of a ${size.toLocaleString("en-US")}-resource run, each alone in a fresh process, median of ${runs}; node ${process.version}, ${cpus().length} cores, 1-minute load ${loadavg()[0]!.toFixed(2)}`,
  "",
  "| step | median ms | min–max ms |",
  "|---|---:|---:|",
  ...rows.map((row) => `| ${row.step} | ${fmt(row.ms)} | ${fmt(row.min)}–${fmt(row.max)} |`),
  `| **sum** | **${fmt(total)}** | |`,
];
process.stdout.write(`${table.join("\n")}\n`);

/** ruff from the test suite's virtual environment (test/support/venv.ts), or on PATH. */
function findRuff(): string | undefined {
  const cache = cacheRoot();
  const venvs = existsSync(cache) ? readdirSync(cache).filter((name) => name.startsWith("venv-")) : [];
  for (const venv of venvs.sort().reverse()) {
    const candidate = join(cache, venv, "bin", "ruff");
    if (existsSync(candidate)) return candidate;
  }
  return spawnSync("ruff", ["--version"]).status === 0 ? "ruff" : undefined;
}
