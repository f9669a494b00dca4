/**
 * Cold start of the built CLI: runs `node dist/cli.js --help` and `node dist/cli.js targets`
 * as fresh processes, 5 times each (`--runs N` to change), and prints the median wall time
 * of each in milliseconds. Build first (`npm run build`); this script never builds.
 *
 * Run: `node --import tsx bench/cold-start.ts`
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "../test/support/stats.js";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
const CLI = join(ROOT, "dist", "cli.js");

/** Wall time in ms of one `node dist/cli.js <args>` process; fails loudly if it fails. */
function timeOnce(args: string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8" });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`codegen ${args.join(" ")} exited ${run.status}:\n${run.stderr}`);
  return elapsed;
}

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
  if (!existsSync(CLI)) {
    process.stderr.write(`${CLI} does not exist: run \`npm run build\` first\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`node ${process.version}, ${runs} runs each, from ${CLI}\n`);
  for (const args of [["--help"], ["targets"]]) {
    const samples = Array.from({ length: runs }, () => timeOnce(args));
    const shown = samples.map((ms) => ms.toFixed(0)).join(", ");
    process.stdout.write(`codegen ${args.join(" ")}: median ${median(samples).toFixed(0)} ms (runs: ${shown})\n`);
  }
}

main();
