/**
 * One timed child process for the benchmarks: wall time around it (Node's monotonic clock,
 * spawn to exit) and its peak resident set size, from GNU time when it exists, else from
 * the preloaded bench/peak-rss.mjs (a Node child only); with GNU time, its CPU time too.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { PEAK_RSS_HOOK } from "./dist.js";

export const GNU_TIME = "/usr/bin/time";

/** Whether GNU time can report peak RSS here. */
export const hasGnuTime = (): boolean => existsSync(GNU_TIME);

/** A child is killed, and the benchmark fails, after this long. */
const TIMEOUT_MS = 10 * 60_000;

export interface ChildRun {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Where the peak-RSS report goes; overwritten by each run. */
  report: string;
  /** GNU time, else the preload hook (then `command` must be Node). */
  useGnuTime: boolean;
}

export interface TimedRun {
  seconds: number;
  peakKiB: number;
  /** User + system CPU seconds, from GNU time (undefined with the preload hook). */
  cpuSeconds: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs the child to its end; fails unless it exits 0. */
export async function timeChild(run: ChildRun): Promise<TimedRun> {
  await rm(run.report, { force: true });
  const env = run.env ?? process.env;
  const [command, args, childEnv] = run.useGnuTime
    ? [GNU_TIME, ["-f", "%U %S %M", "-o", run.report, run.command, ...run.args], env]
    : [run.command, ["--import", PEAK_RSS_HOOK, ...run.args], { ...env, BENCH_RSS_FILE: run.report }];

  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: run.cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"], timeout: TIMEOUT_MS });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (exitCode, exitSignal) => resolvePromise([exitCode, exitSignal]));
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) {
    throw new Error(`${run.command} ${run.args.join(" ")} ended with ${signal ?? `exit code ${code}`}:\n${stderr}${stdout}`);
  }

  // GNU time's report is "<user s> <system s> <KiB>"; the hook's is "<KiB>".
  const report = await readFile(run.report, "utf8");
  const numbers = report.trim().split(/\s+/).slice(run.useGnuTime ? -3 : -1).map(Number);
  if (!numbers.every(Number.isFinite)) throw new Error(`unreadable report in ${run.report}: ${report}`);
  const peakKiB = numbers.at(-1)!;
  const cpuSeconds = run.useGnuTime ? numbers[0]! + numbers[1]! : undefined;
  return { seconds, peakKiB, cpuSeconds, stdout, stderr };
}
