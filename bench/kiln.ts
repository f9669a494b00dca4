/**
 * `npm run bench:kiln -- --kiln PATH`: codegen against kiln on the same project. For each
 * size, codegen (`node dist/cli.js generate --target be`) and kiln (`foundry generate
 * --target be`) write the bench project (bench/configs.ts, translated for kiln by
 * bench/kiln-config.ts) into a new, empty directory, as fresh processes, taking turns (which
 * goes first alternates run by run), so both see the same load. Prints a markdown table of
 * the median wall time, min–max, median peak RSS, kiln time / codegen time and the same for
 * CPU time (user + system, which the machine's load moves far less than wall time), with the
 * machine's 1-minute load before and after.
 *
 * codegen formats Python with a native ruff when PATH has one at the pinned version, else with
 * ruff's WebAssembly build (docs/be.md); the table's heading says which `ruff` PATH gives. To
 * measure both, run once as is and once with such a ruff's directory first on PATH.
 *
 * `--kiln PATH` (or `$KILN`): kiln's `foundry` CLI, or a Python with kiln installed. Flags:
 * `--runs N` (default 5), `--sizes 10,100` (default 10,100,1000), `--no-build` (time dist/
 * as it is). Peak RSS needs GNU time (/usr/bin/time).
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type TimedRun, GNU_TIME, hasGnuTime, timeChild } from "./child.js";
import { SIZES, benchConfig, runsAndSizes } from "./configs.js";
import { CLI, ensureBuilt } from "./dist.js";
import { kilnConfig, kilnPythonPackage } from "./kiln-config.js";
import { findRuff } from "../src/formatters/ruff.js";
import { median, minMax } from "../test/support/stats.js";

const TOOLS = ["codegen", "kiln"] as const;
type Tool = (typeof TOOLS)[number];

/** The command that runs kiln's CLI: `foundry` itself, or a Python importing it. */
function kilnCommand(kiln: string): { command: string; args: string[] } {
  if (!/^python/.test(basename(kiln))) return { command: kiln, args: [] };
  return { command: kiln, args: ["-c", "import sys; from foundry.cli import cli_main; sys.argv[0] = 'foundry'; sys.exit(cli_main())"] };
}

async function fileCount(dir: string): Promise<number> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
}

interface Row {
  resources: number;
  files: Record<Tool, number>;
  runs: Record<Tool, TimedRun[]>;
}

function table(rows: Row[]): string {
  const lines = [
    "| resources | files (codegen / kiln) | codegen median s | codegen min–max s | codegen peak MB | kiln median s | kiln min–max s | kiln peak MB | kiln time / codegen time | CPU s (codegen / kiln) | kiln CPU / codegen CPU |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const cells = TOOLS.map((tool) => {
      const seconds = row.runs[tool].map((run) => run.seconds);
      const megabytes = median(row.runs[tool].map((run) => run.peakKiB)) / 1024;
      return `${median(seconds).toFixed(3)} | ${minMax(seconds, 3)} | ${megabytes.toFixed(0)}`;
    });
    const ratio = median(row.runs.kiln.map((run) => run.seconds)) / median(row.runs.codegen.map((run) => run.seconds));
    const cpu = TOOLS.map((tool) => median(row.runs[tool].map((run) => run.cpuSeconds!)));
    const cpuCells = `${cpu.map((seconds) => seconds.toFixed(3)).join(" / ")} | ${(cpu[1]! / cpu[0]!).toFixed(2)}`;
    lines.push(`| ${row.resources.toLocaleString("en-US")} | ${row.files.codegen} / ${row.files.kiln} | ${cells.join(" | ")} | ${ratio.toFixed(2)} | ${cpuCells} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kiln: { type: "string", default: process.env.KILN },
      runs: { type: "string", default: "5" },
      sizes: { type: "string", default: SIZES.join(",") },
      "no-build": { type: "boolean", default: false },
    },
  });
  if (!values.kiln) throw new Error("--kiln PATH (or $KILN): kiln's foundry CLI, or a Python with kiln installed");
  const { runs, sizes } = runsAndSizes(values);
  if (!hasGnuTime()) throw new Error(`peak RSS of a Python child needs GNU time at ${GNU_TIME}`);
  if (!values["no-build"]) await ensureBuilt();
  const kiln = kilnCommand(values.kiln.includes("/") ? resolve(values.kiln) : values.kiln);

  // Every tree stays until the end: deleting thousands of files slows the next writes (bench/README.md).
  const scratch = await mkdtemp(join(tmpdir(), "codegen-bench-kiln-"));
  const report = join(scratch, "report.txt");
  const loadBefore = loadavg()[0]!;
  try {
    const rows: Row[] = [];
    for (const size of sizes) {
      const dir = join(scratch, `resources-${size}`);
      const python = join(dir, "python");
      for (const [file, text] of kilnPythonPackage(size)) {
        await mkdir(dirname(join(python, file)), { recursive: true });
        await writeFile(join(python, file), text);
      }
      const configs: Record<Tool, string> = { codegen: join(dir, "codegen.json"), kiln: join(dir, "kiln.json") };
      await writeFile(configs.codegen, `${JSON.stringify(benchConfig(size), null, 2)}\n`);
      await writeFile(configs.kiln, `${JSON.stringify(kilnConfig(size), null, 2)}\n`);

      const row: Row = { resources: size, files: { codegen: 0, kiln: 0 }, runs: { codegen: [], kiln: [] } };
      for (let run = 1; run <= runs; run++) {
        for (const tool of run % 2 === 1 ? TOOLS : [...TOOLS].reverse()) {
          const out = await mkdtemp(join(dir, `${tool}-`));
          const args = ["generate", "--target", "be", "--config", configs[tool], "--out", out];
          const timed =
            tool === "codegen"
              ? await timeChild({ command: process.execPath, args: [CLI, ...args], cwd: dir, report, useGnuTime: true })
              : await timeChild({
                  command: kiln.command,
                  args: [...kiln.args, ...args],
                  cwd: dir,
                  env: { ...process.env, PYTHONPATH: python },
                  report,
                  useGnuTime: true,
                });
          row.runs[tool].push(timed);
          row.files[tool] = await fileCount(out);
          process.stderr.write(`${tool} ${size} resources, run ${run}/${runs}: ${timed.seconds.toFixed(3)} s, ${timed.cpuSeconds!.toFixed(3)} s CPU, ${(timed.peakKiB / 1024).toFixed(0)} MB\n`);
        }
      }
      rows.push(row);
    }
    const cpu = cpus();
    process.stdout.write(
      `\ncodegen and kiln, \`generate --target be\` into a new directory, median of ${runs} fresh processes each, alternating; ` +
        `node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}; ` +
        `1-minute load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after; peak RSS from ${GNU_TIME}; ` +
        `ruff on PATH: ${findRuff(undefined) ?? "none"} (codegen formats natively only at the pinned version)\n\n${table(rows)}\n`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
