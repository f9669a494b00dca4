/**
 * `npm run bench:watch`: how fast `codegen generate --watch` (the built CLI) answers an edit.
 * It starts a watch on the synthetic config of bench/configs.ts, then changes one resource
 * (the default page size of its list, a new value each time) `--runs` times, and reports the p50 and p90 of "edit written
 * to disk → the watch's summary line read", the median time per phase (the watch's
 * `--timings json` line of each run) and the files each run wrote, checked against the mtimes
 * of the whole tree: only the edited resource's files may change.
 *
 * Flags: `--size N` (default 1000), `--runs N` (default 10), `--config json|jsonnet` (default
 * json), `--no-build` (time dist/ as it is).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { benchConfig, benchConfigEdited, benchJsonnet, editedResource } from "./configs.js";
import { CLI, ensureBuilt } from "./dist.js";
import { PHASES } from "../src/codegen/timings.js";
import { type Span, phaseTotals } from "./profile.js";

const SUMMARY = /codegen: (\d+) files? written, (\d+) unchanged, (\d+) deleted, in .*\n/;
const TIMINGS = /codegen-timings (\{.*\})\n/;

interface Sample {
  ms: number;
  written: number;
  touched: string[];
  phases: Map<string, number>;
}

/** The watching CLI's output, read line by line as it comes. */
class Watch {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  #stdout = "";
  #stderr = "";
  #wake: (() => void) | undefined;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => this.#take(() => (this.#stdout += chunk.toString())));
    this.child.stderr.on("data", (chunk: Buffer) => this.#take(() => (this.#stderr += chunk.toString())));
  }

  #take(append: () => void): void {
    append();
    this.#wake?.();
  }

  /** Output not consumed yet, if any. */
  pending(): string {
    return (this.#stdout + this.#stderr).trim();
  }

  /** The next match of `pattern` in stdout or stderr (consumed), and when it was read. */
  async next(stream: "stdout" | "stderr", pattern: RegExp): Promise<{ match: RegExpExecArray; at: number }> {
    for (;;) {
      const text = stream === "stdout" ? this.#stdout : this.#stderr;
      const match = pattern.exec(text);
      if (match) {
        const rest = text.slice(match.index + match[0].length);
        if (stream === "stdout") this.#stdout = rest;
        else this.#stderr = rest;
        return { match, at: performance.now() };
      }
      if (this.child.exitCode !== null) throw new Error(`the watch exited with ${this.child.exitCode}:\n${this.#stderr}`);
      if (/^Error/m.test(this.#stderr)) throw new Error(`the watch reported an error:\n${this.#stderr}`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

async function mtimes(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath, entry.name);
    if (entry.isFile()) result.set(file.slice(dir.length + 1), (await stat(file)).mtimeMs);
  }
  return result;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The config with resource `index`'s list paged by `pageSize` by default. */
function editedConfig(size: number, index: number, pageSize: number, format: "json" | "jsonnet"): string {
  if (format === "jsonnet") {
    const edited = benchJsonnet(size).replace("page_size=20", `page_size=if i == ${index} then ${pageSize} else 20`);
    if (!edited.includes(`i == ${index}`)) throw new Error("bench/configs.ts's jsonnet no longer pages by page_size=20");
    return edited;
  }
  return `${JSON.stringify(benchConfigEdited(size, index, pageSize), null, 2)}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: "string", default: "1000" },
      runs: { type: "string", default: "10" },
      config: { type: "string", default: "json" },
      "no-build": { type: "boolean", default: false },
    },
  });
  const size = Number(values.size);
  const runs = Number(values.runs);
  const format = values.config as "json" | "jsonnet";
  if (format !== "json" && format !== "jsonnet") throw new Error(`--config: json or jsonnet, not ${values.config}`);
  if (!values["no-build"]) await ensureBuilt();

  const scratch = await mkdtemp(join(tmpdir(), "codegen-bench-watch-"));
  const configFile = join(scratch, `resources-${size}.${format}`);
  const out = join(scratch, "out");
  await writeFile(configFile, format === "json" ? `${JSON.stringify(benchConfig(size), null, 2)}\n` : benchJsonnet(size));
  const loadBefore = loadavg()[0]!;
  const watch = new Watch(["generate", "--target", "be", "--config", configFile, "--out", out, "--watch", "--timings", "json"]);
  const samples: Sample[] = [];
  try {
    const first = await watch.next("stdout", SUMMARY);
    process.stderr.write(`first run: ${first.match[1]} files written\n`);
    await watch.next("stderr", TIMINGS);
    for (let run = 1; run <= runs; run++) {
      const index = editedResource(size);
      const before = await mtimes(out);
      await new Promise((resolve) => setTimeout(resolve, 300)); // a later mtime than before, and a quiet watch
      if (watch.pending()) throw new Error(`an extra run before edit ${run}: ${watch.pending()}`);
      // Saved whole (temp file renamed over the config): one event, as most editors do.
      await writeFile(`${configFile}.tmp`, editedConfig(size, index, 20 + run, format));
      await rename(`${configFile}.tmp`, configFile);
      const written = performance.now();
      const summary = await watch.next("stdout", SUMMARY);
      const timings = JSON.parse((await watch.next("stderr", TIMINGS)).match[1]!) as { runMs: number; spans: Span[] };
      const after = await mtimes(out);
      const touched = [...after].filter(([file, mtime]) => before.get(file) !== mtime).map(([file]) => file);
      const sample = { ms: summary.at - written, written: Number(summary.match[1]), touched, phases: phaseTotals({ startupMs: 0, spans: timings.spans }) };
      const model = `model${String(index).padStart(4, "0")}`;
      const stray = touched.filter((file) => file !== ".codegen-manifest.json" && !file.includes(model));
      if (stray.length > 0 || sample.written !== touched.length - (touched.includes(".codegen-manifest.json") ? 1 : 0)) {
        throw new Error(`run ${run} (resource ${index}) wrote ${sample.written}, touched ${touched.join(", ")}`);
      }
      samples.push(sample);
      process.stderr.write(`run ${run}/${runs}: resource ${index}, ${sample.ms.toFixed(0)} ms, ${sample.written} files written (${touched.join(", ")})\n`);
    }
  } finally {
    watch.child.kill("SIGTERM");
    await new Promise((resolve) => watch.child.once("close", resolve));
    await rm(scratch, { recursive: true, force: true });
  }
  const cpu = cpus();
  const ms = samples.map((sample) => sample.ms);
  const median = (values: number[]) => percentile(values, 50);
  process.stdout.write(
    `\ncodegen generate --watch, ${size.toLocaleString("en-US")} resources (${format}), ${runs} edits of one resource; node ${process.version}, ` +
      `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}; 1-minute load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n\n`,
  );
  process.stdout.write("| edit → regenerated, p50 ms | p90 ms | min–max ms | files written per run |\n|---:|---:|---:|---|\n");
  const written = [...new Set(samples.map((sample) => sample.written))].sort((a, b) => a - b).join(", ");
  process.stdout.write(`| ${median(ms).toFixed(0)} | ${percentile(ms, 90).toFixed(0)} | ${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} | ${written} |\n\n`);
  process.stdout.write(`Median ms per phase of a rerun:\n\n| ${PHASES.join(" | ")} |\n|${PHASES.map(() => "---:").join("|")}|\n`);
  process.stdout.write(`| ${PHASES.map((phase) => median(samples.map((sample) => sample.phases.get(phase) ?? 0)).toFixed(0)).join(" | ")} |\n`);
}

await main();
