/**
 * `npm run bench:dev`: how long `codegen dev` (the built CLI) takes from saving a new field to
 * serving it, migration included, and what it costs while idle. In a fresh `be_root` project
 * with its embedded PostgreSQL, each of `--saves` saves adds one column to the starter model
 * and its field to the config (models.py, then the config, as an editor saves them), and is
 * timed from the first write until `GET /notes` returns the field; `codegen dev` writes and
 * applies a migration for each. Between saves it waits `--pause` seconds, as a user does.
 * Then, 10 s after the last save, the whole process tree of `codegen dev` (PostgreSQL, the
 * backend, the interpreters started ahead) is left alone for `--idle` seconds and its CPU
 * read from /proc.
 *
 * Prints the median and each save's time, the CPU the tree used per save (from the save to
 * the next one), the idle CPU in % of one core, and the machine's load: on a shared
 * machine the wall times follow the load, the CPU figures much less.
 *
 * Flags: `--saves N` (default 7), `--pause S` (default 3), `--idle S` (default 20),
 * `--no-build` (time dist/ as it is).
 */
import { readFileSync, readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { CLI, ensureBuilt } from "./dist.js";
import { freePort } from "../src/dev/processes.js";
import { type RunningProcess, exitWithin, startProcess } from "../test/support/processes.js";
import { ensureVenv } from "../test/support/venv.js";

/** How long `codegen dev` is left alone after the last save before its idle CPU is read. */
const IDLE_SETTLE_MS = 10_000;

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

const { values: flags } = parseArgs({
  options: { saves: { type: "string", default: "7" }, pause: { type: "string", default: "3" }, idle: { type: "string", default: "20" }, "no-build": { type: "boolean", default: false } },
});
const saves = Number(flags.saves);
const pauseMs = Number(flags.pause) * 1000;
const idleMs = Number(flags.idle) * 1000;
if (!(saves >= 1 && pauseMs >= 0 && idleMs > 0)) throw new Error("--saves must be 1 or more, --pause 0 or more, --idle more than 0");

/** CPU seconds used by `root` and every process under it, reaped ones included (their parents' cutime). */
function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name, which may hold spaces: state ppid ... utime(14) stime cutime cstime.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    stats.set(Number(entry), { ppid: Number(fields[1]), ticks });
  }
  let total = 0;
  const inTree = new Set([root]);
  // Parents before children is not guaranteed by pid order: repeat until no process joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { ppid }] of stats) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  for (const pid of inTree) total += stats.get(pid)?.ticks ?? 0;
  return total / CLOCK_TICKS;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const load = () => loadavg().map((value) => value.toFixed(1)).join(", ");

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not hold ${from}`);
  await writeFile(file, text.replace(from, to));
}

async function main(): Promise<void> {
  if (!flags["no-build"]) await ensureBuilt();
  const venv = await ensureVenv();
  const root = await mkdtemp(join(tmpdir(), "codegen-bench-dev-"));
  await chmod(root, 0o755); // PostgreSQL runs as its own user under root
  const project = join(root, "shop");
  const { DATABASE_URL: _none, ...rest } = process.env;
  const env = { ...rest, VIRTUAL_ENV: dirname(dirname(venv.python)), NODE_OPTIONS: "" };
  let dev: RunningProcess | undefined;
  try {
    await writeFile(join(root, "be_root.jsonnet"), "{ name: 'shop' }\n");
    await mkdir(project);
    const scaffold = startProcess(process.execPath, [CLI, "generate", "-t", "be_root", "-c", "../be_root.jsonnet", "-o", "."], { cwd: project, env });
    if ((await exitWithin(scaffold, 60_000)) !== 0) throw new Error(`be_root failed:\n${scaffold.output()}`);
    const port = await freePort();
    dev = startProcess(process.execPath, [CLI, "dev", "--port", String(port)], { cwd: project, env });
    const started = performance.now();
    const served = async (field: string | undefined, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        if (dev!.exited()) throw new Error(`codegen dev exited:\n${dev!.output()}`);
        try {
          const response = await fetch(`http://127.0.0.1:${port}/notes`, { signal: AbortSignal.timeout(2000) });
          const body = (await response.json()) as { items?: Record<string, unknown>[] };
          if (response.ok && (field === undefined || body.items?.[0]?.[field] === 0)) return;
        } catch {
          // Not listening, or not yet serving the field.
        }
        await sleep(20);
      }
      throw new Error(`not served within ${timeoutMs} ms${field ? `: ${field}` : ""}\n${dev!.output()}`);
    };
    await served(undefined, 300_000);
    process.stdout.write(`codegen dev served a new project in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})\n`);
    await sleep(pauseMs);

    const models = join(project, "shop", "models.py");
    const config = join(project, "config", "project.jsonnet");
    const times: number[] = [];
    const cpus: number[] = [];
    const loads: number[] = [];
    for (let i = 1; i <= saves; i++) {
      const field = `bench_${i}`;
      const cpuBefore = treeCpuSeconds(dev.child.pid!);
      const saved = performance.now();
      await edit(models, "    pinned: Mapped[bool]", `    ${field}: Mapped[int] = mapped_column(default=0, server_default="0")\n    pinned: Mapped[bool]`);
      await edit(config, "f.bool('pinned'),", `f.bool('pinned'), f.int('${field}'),`);
      await served(field, 120_000);
      times.push(performance.now() - saved);
      loads.push(loadavg()[0]!);
      // What the save cost in all: the run, and whatever it leaves to do before the next save.
      await sleep(pauseMs);
      cpus.push(treeCpuSeconds(dev.child.pid!) - cpuBefore);
      process.stdout.write(`save ${i}: served in ${(times.at(-1)! / 1000).toFixed(2)} s, ${cpus.at(-1)!.toFixed(2)} CPU s (load ${loads.at(-1)!.toFixed(1)})\n`);
    }
    if (!/migration migrations\/versions\/\S+_add_notes_bench_1\.py written and applied/.test(dev.output())) throw new Error(`no migration was written for the first save:\n${dev.output()}`);

    // The interpreters started ahead after the last save finish their imports first.
    await sleep(IDLE_SETTLE_MS);
    const idleBefore = treeCpuSeconds(dev.child.pid!);
    const idleStarted = performance.now();
    await sleep(idleMs);
    const idlePercent = ((treeCpuSeconds(dev.child.pid!) - idleBefore) / ((performance.now() - idleStarted) / 1000)) * 100;

    process.stdout.write(
      `\nsave -> served (a new field, migration included): median ${(median(times) / 1000).toFixed(2)} s of ${saves} saves ` +
        `(${times.map((ms) => (ms / 1000).toFixed(2)).join(", ")}); CPU per save: median ${median(cpus).toFixed(2)} s\n` +
        `idle codegen dev (every process of it): ${idlePercent.toFixed(1)} % of one core over ${(idleMs / 1000).toFixed(0)} s\n` +
        `load average while saving: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; now ${load()}\n`,
    );
    process.kill(-dev.child.pid!, "SIGINT");
    if ((await exitWithin(dev, 60_000)) !== 0) throw new Error(`codegen dev did not stop cleanly:\n${dev.output()}`);
  } finally {
    await dev?.stop();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
