/**
 * `npm run bench`: times `codegen generate --target be` (the built CLI, `dist/cli.js`) on
 * the synthetic configs of bench/configs.ts and prints a markdown table of the medians.
 *
 * Every run is a fresh `node dist/cli.js generate` process writing into a new, empty
 * temporary directory. Wall time is measured around the child with a monotonic clock;
 * peak RSS is the child's maximum resident set size, from `/usr/bin/time -f "%e %M"`
 * when it exists, else from `process.resourceUsage().maxRSS` written by a preloaded
 * hook (bench/peak-rss.mjs) as the child exits.
 *
 * Flags: `--runs N` (default 5), `--sizes 10,100` (default 10,100,1000), `--no-build`
 * (skip rebuilding a stale dist/), `--no-gnu-time` (use the preload hook even when
 * /usr/bin/time exists).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SIZES, writeBenchConfigs } from "./configs.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
const CLI = join(ROOT, "dist", "cli.js");
const GNU_TIME = "/usr/bin/time";
const PEAK_RSS_HOOK = join(ROOT, "bench", "peak-rss.mjs");

interface Sample {
  seconds: number;
  peakKiB: number;
}

interface Row {
  resources: number;
  files: number;
  samples: Sample[];
}

/** The newest modification time of any file under `dir`, in ms. */
async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/** Rebuild dist/ when dist/cli.js is missing or older than a file of src/. */
async function ensureBuilt(): Promise<void> {
  const built = existsSync(CLI) ? (await stat(CLI)).mtimeMs : 0;
  if (built >= (await newestMtime(join(ROOT, "src")))) return;
  process.stderr.write("dist/ is missing or older than src/: running npm run build\n");
  // The build's output goes to stderr: stdout carries only the table.
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  if (result.status !== 0) throw new Error("npm run build failed");
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).length;
}

/** One `codegen generate` run of `config` into the empty directory `outDir`. */
async function measure(config: string, outDir: string, scratch: string, useGnuTime: boolean): Promise<Sample> {
  const cliArgs = [CLI, "generate", "--target", "be", "--config", config, "--out", outDir];
  const report = join(scratch, "report.txt");
  await rm(report, { force: true });
  const [command, args, env] = useGnuTime
    ? [GNU_TIME, ["-f", "%e %M", "-o", report, process.execPath, ...cliArgs], process.env]
    : [process.execPath, ["--import", PEAK_RSS_HOOK, ...cliArgs], { ...process.env, BENCH_RSS_FILE: report }];

  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", resolvePromise);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`codegen generate exited with ${code} on ${config}:\n${output}`);

  // GNU time's report is "<seconds> <KiB>"; the hook's is "<KiB>": the last number either way.
  const numbers = (await readFile(report, "utf8")).trim().split(/\s+/);
  const peakKiB = Number(numbers[numbers.length - 1]);
  if (!Number.isFinite(peakKiB)) throw new Error(`unreadable peak RSS report: ${numbers.join(" ")}`);
  return { seconds, peakKiB };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function table(rows: Row[]): string {
  const lines = ["| resources | files | median seconds | median peak MB |", "|---:|---:|---:|---:|"];
  for (const row of rows) {
    const seconds = median(row.samples.map((sample) => sample.seconds));
    const megabytes = median(row.samples.map((sample) => sample.peakKiB)) / 1024;
    lines.push(`| ${row.resources.toLocaleString("en-US")} | ${row.files} | ${seconds.toFixed(2)} | ${megabytes.toFixed(0)} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      sizes: { type: "string", default: SIZES.join(",") },
      "no-build": { type: "boolean", default: false },
      "no-gnu-time": { type: "boolean", default: false },
    },
  });
  const runs = Number(values.runs);
  const sizes = values.sizes.split(",").map(Number);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a positive integer, got ${values.runs}`);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`--sizes: expected positive integers, got ${values.sizes}`);

  if (!values["no-build"]) await ensureBuilt();
  const useGnuTime = !values["no-gnu-time"] && existsSync(GNU_TIME);

  const scratch = await mkdtemp(join(tmpdir(), "codegen-bench-"));
  try {
    const configs = await writeBenchConfigs(join(scratch, "configs"), sizes);
    const rows: Row[] = [];
    for (const size of sizes) {
      const row: Row = { resources: size, files: 0, samples: [] };
      for (let run = 1; run <= runs; run++) {
        const outDir = await mkdtemp(join(scratch, `out-${size}-`));
        const sample = await measure(configs.get(size)!, outDir, scratch, useGnuTime);
        const files = await countFiles(outDir);
        if (row.files !== 0 && files !== row.files) throw new Error(`run ${run} of ${size} wrote ${files} files, not ${row.files}`);
        row.files = files;
        row.samples.push(sample);
        await rm(outDir, { recursive: true, force: true });
        process.stderr.write(
          `${size} resources, run ${run}/${runs}: ${sample.seconds.toFixed(2)} s, ${(sample.peakKiB / 1024).toFixed(0)} MB, ${files} files\n`,
        );
      }
      rows.push(row);
    }
    const cpu = cpus();
    process.stdout.write(
      `\ncodegen generate --target be, median of ${runs} runs; node ${process.version}, ` +
        `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}; peak RSS from ${useGnuTime ? GNU_TIME : "process.resourceUsage()"}\n\n`,
    );
    process.stdout.write(`${table(rows)}\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
