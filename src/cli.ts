#!/usr/bin/env node
// The `codegen` command: parses flags, calls the engine, renders errors. User mistakes
// (`CLIError`) print `<prefix>: <message>` and exit 1; usage errors exit 2; anything else
// is a bug and says so. Heavy modules load lazily so `--help` starts fast.

import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { GenerateOptions, GenerateResult } from "./codegen/generate.js";
import type { Recovery } from "./codegen/journal.js";
import type { LockHolder } from "./codegen/lock.js";
import type { Target } from "./codegen/target.js";
import type { PhaseTimer } from "./codegen/timings.js";

/** Usage mistakes (unknown target, missing --target): exit status 2 like commander's own. */
class UsageError extends Error {}

const EXIT_ERROR = 1;
const EXIT_USAGE = 2;

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}

async function installedTargets(): Promise<Target[]> {
  const { discoverTargets } = await import("./codegen/target.js");
  return discoverTargets();
}

/** Loads only the target the run needs (`--target`, or the only one installed). */
async function pickTarget(name: string | undefined): Promise<Target> {
  const { loadTarget, targetNames } = await import("./codegen/target.js");
  const installed = await targetNames();
  const names = installed.join(", ") || "(none)";
  if (name === undefined) {
    if (installed.length !== 1) throw new UsageError(`--target is required when several targets are installed (installed: ${names})`);
    name = installed[0]!;
  }
  const target = await loadTarget(name);
  if (!target) throw new UsageError(`unknown target "${name}" (installed: ${names})`);
  return target;
}

interface GenerateFlags {
  target?: string;
  config: string;
  out?: string;
  force?: boolean;
  forcePaths?: string[];
  check?: boolean;
  dryRun?: boolean;
  lockTimeout: number;
  timings?: true | string;
  watch?: boolean;
}

/**
 * Plans the run once, then either writes it, prints it (`--dry-run`) or compares it with the
 * disk (`--check`): three readers of the same plan. Returns the exit status.
 */
async function runGenerate(flags: GenerateFlags): Promise<number> {
  if (flags.out === "") throw new UsageError('--out: the output directory is empty; use "-o ." for the current directory');
  if (flags.timings !== undefined && flags.timings !== true && flags.timings !== "json") {
    throw new UsageError(`--timings: unknown format "${flags.timings}" (use --timings, or --timings json)`);
  }
  const target = await pickTarget(flags.target);
  // Only a jsonnet config can import the other targets' stdlibs: only then load them all.
  const stdlibTargets = flags.config.endsWith(".jsonnet") ? await installedTargets() : [target];
  const [generation, { PhaseTimer }] = await Promise.all([import("./codegen/generate.js"), import("./codegen/timings.js")]);
  const timer = flags.timings === undefined ? undefined : new PhaseTimer();
  const options: GenerateOptions = {
    target,
    configFile: flags.config,
    outDir: flags.out,
    force: flags.force,
    forcePaths: flags.forcePaths,
    stdlibTargets,
    timer,
    lock: { timeoutMs: flags.lockTimeout * 1000, onWait: announceWait },
  };
  if (flags.watch) return watchForever({ ...options, timer: undefined }, flags.timings);
  let status: number;
  if (flags.check || flags.dryRun) {
    const result = await generation.planGeneration(options);
    reportWarnings(result, options.configFile);
    reportKept(result);
    status = flags.check ? check(result, generation.driftOf) : dryRun(result, generation.countActions);
  } else {
    const result = await generation.generate(options);
    reportWarnings(result, options.configFile);
    reportRecovery(result.recovered, result.outDir);
    reportKept(result);
    status = write(result, generation.countActions);
  }
  if (timer) reportTimings(timer, flags.timings === "json");
  return status;
}

/**
 * `--watch`: regenerate on every change until SIGINT or SIGTERM; a failing run is reported and
 * the watch goes on. The first signal stops the run in progress at its next phase boundary (a
 * write completes and releases the lock) and exits 0; a second one exits at once with 130.
 */
async function watchForever(options: GenerateOptions, timings: true | string | undefined): Promise<number> {
  const stop = new AbortController();
  const onSignal = (): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
  const [{ watchGeneration }, { countActions }] = await Promise.all([import("./codegen/watch.js"), import("./codegen/generate.js")]);
  let first = true;
  const watcher = await watchGeneration(
    { ...options, signal: stop.signal },
    {
      onRun(result, run) {
        reportWarnings(result, options.configFile);
        reportRecovery(result.recovered, result.outDir);
        reportKept(result);
        const counts = countActions(result.plan);
        process.stdout.write(
          `codegen: ${files(counts.create + counts.overwrite)} written, ${counts.unchanged} unchanged, ${counts.delete} deleted, ` +
            `in ${result.outDir} (${run.ms.toFixed(0)} ms); watching for changes\n`,
        );
        if (timings !== undefined) reportTimings(run.timer, timings === "json", first ? undefined : run.ms);
        first = false;
      },
      async onError(error) {
        await reportError(error, process.argv.includes("--verbose"));
        process.stderr.write("codegen: the output was left as it was; watching for changes\n");
        first = false;
      },
    },
  );
  if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener("abort", resolve, { once: true }));
  watcher.close();
  await watcher.idle();
  process.stderr.write("codegen: stopped watching\n");
  return 0;
}

/** Config keys accepted but without effect: one line each, naming the file and the config path. */
function reportWarnings(result: GenerateResult, configFile: string): void {
  for (const warning of result.warnings) {
    process.stderr.write(`codegen: warning: ${configFile}: ${warning.path || "(root)"}: ${warning.message}\n`);
  }
}

function reportKept(result: GenerateResult): void {
  for (const kept of result.kept) {
    process.stderr.write(`codegen: warning: kept ${kept.path}: no longer generated, but ${kept.reason}; delete it yourself if unneeded\n`);
  }
}

function announceWait(holder: LockHolder): void {
  process.stderr.write(`codegen: waiting for the codegen run of pid ${holder.pid} (since ${holder.since}) to finish writing there\n`);
}

function reportRecovery(recovered: Recovery | undefined, outDir: string): void {
  if (!recovered) return;
  const which = recovered.pid === undefined ? "an interrupted run" : `the run of pid ${recovered.pid} interrupted since ${recovered.started}`;
  const done = recovered.outcome === "completed" ? "completed" : "rolled back";
  process.stderr.write(`codegen: ${done} ${which} in ${outDir} before writing\n`);
}

/**
 * `--timings`: one line of milliseconds per phase on stderr; `--timings json`: one JSON line
 * with absolute times. A rerun of `--watch` (`runMs` given) has no start-up: its line ends with
 * the run's time from the change instead of the process's total.
 */
function reportTimings(timer: PhaseTimer, json: boolean, runMs?: number): void {
  const startupMs = runMs === undefined ? spanStartMs(timer) : undefined;
  if (json) {
    process.stderr.write(`codegen-timings ${JSON.stringify(runMs === undefined ? { startupMs, spans: timer.spans } : { runMs, spans: timer.spans })}\n`);
    return;
  }
  const phases = [...timer.totals()].map(([phase, ms]) => `${phase} ${ms.toFixed(0)} ms`);
  const parts = startupMs === undefined ? phases : [`start-up ${startupMs.toFixed(0)} ms`, ...phases];
  const total = runMs === undefined ? `total ${performance.now().toFixed(0)} ms` : `run ${runMs.toFixed(0)} ms`;
  process.stderr.write(`codegen: timings: ${parts.join(", ")}; ${total}\n`);
}

/** Milliseconds from the process's start to the first timed phase: Node, module loading, target discovery. */
function spanStartMs(timer: PhaseTimer): number {
  const first = timer.spans[0];
  if (!first) return performance.now();
  const nowUs = Number(process.hrtime.bigint() / 1000n);
  return performance.now() - (nowUs - first.startUs) / 1000;
}

const files = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;

/** `--check`: the entries that would change the tree, one `<action> <path>` per line; exit 1 if any. */
function check(result: GenerateResult, driftOf: typeof import("./codegen/generate.js").driftOf): number {
  const drift = driftOf(result.plan);
  if (result.interrupted) {
    process.stdout.write(drift.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
    process.stderr.write(`codegen: an interrupted run left ${result.outDir} half-written; run codegen generate without --check to complete it\n`);
    return EXIT_ERROR;
  }
  if (drift.length === 0) {
    process.stdout.write(`codegen: up to date, ${files(result.plan.length)} checked, in ${result.outDir}\n`);
    return 0;
  }
  process.stdout.write(drift.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stderr.write(`codegen: ${files(drift.length)} out of date in ${result.outDir}; run codegen generate without --check\n`);
  return EXIT_ERROR;
}

/** `--dry-run`: every entry of the plan, then the summary saying nothing was written. */
function dryRun(result: GenerateResult, countActions: typeof import("./codegen/generate.js").countActions): number {
  const counts = countActions(result.plan);
  if (result.interrupted) {
    process.stderr.write(`codegen: an interrupted run left ${result.outDir} half-written; a real run completes it first\n`);
  }
  process.stdout.write(result.plan.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stdout.write(
    `codegen: dry run, nothing written: ${files(counts.create + counts.overwrite)} to write, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} to delete, in ${result.outDir}\n`,
  );
  return 0;
}

/** The plain run, already written: one summary line. */
function write(result: GenerateResult, countActions: typeof import("./codegen/generate.js").countActions): number {
  const counts = countActions(result.plan);
  process.stdout.write(
    `codegen: ${files(counts.create + counts.overwrite)} written, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} deleted, in ${result.outDir}\n`,
  );
  return 0;
}

/** `schema`: the JSON Schema of a target's config (or its Markdown reference) on stdout. */
async function runSchema(flags: { target?: string; markdown?: boolean }): Promise<void> {
  const target = await pickTarget(flags.target);
  if (flags.markdown) {
    const { configReference } = await import("./codegen/schema-reference.js");
    process.stdout.write(configReference(target));
    return;
  }
  const { configJsonSchema } = await import("./codegen/json-schema.js");
  process.stdout.write(`${JSON.stringify(configJsonSchema(target), null, 2)}\n`);
}

async function runTargets(): Promise<void> {
  for (const target of await installedTargets()) {
    process.stdout.write(`${target.name}\t${target.configClass ?? "(config class not named)"}\n`);
  }
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new InvalidArgumentError("expected a port number from 1 to 65535");
  return port;
}

/** `dev`: runs the project's stack until Ctrl-C (SIGINT) or SIGTERM. */
async function runDevCommand(flags: { port?: number; frontend?: string | false }): Promise<number> {
  const { runDev } = await import("./dev/index.js");
  const stopRequested = new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  return runDev({
    root: process.cwd(),
    port: flags.port,
    frontend: flags.frontend,
    stopRequested,
    onGenerateError: (error) => void reportError(error, process.argv.includes("--verbose")),
  });
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError("expected a number of seconds, 0 or more");
  }
  return seconds;
}

function buildProgram(): Command {
  const program = new Command("codegen")
    .description("Generate backends and front ends from a jsonnet config.")
    .version(packageVersion(), "-V, --version")
    .option("--verbose", "show stack traces for errors")
    .exitOverride()
    .showHelpAfterError(false);

  program
    .command("generate")
    .description("generate files for one target from a config file")
    .option("-t, --target <name>", "target to run (optional when one target is installed)")
    .requiredOption("-c, --config <file>", "config file (.jsonnet or .json)")
    .option("-o, --out <dir>", "output directory (default: the config's package_prefix as a path)")
    .option("--force", "overwrite files whose policy is skip")
    .addOption(new Option("--force-paths <glob...>", "overwrite these paths (fnmatch globs) despite skip"))
    .addOption(new Option("--check", "write nothing; exit 1 listing the files that would change, 0 when up to date").conflicts("dryRun"))
    .addOption(new Option("--dry-run", "write nothing; print what each file would get (create, overwrite, unchanged, skip, delete)"))
    .addOption(
      new Option("--lock-timeout <seconds>", "wait this long for another run writing to the same directory, then fail")
        .default(60)
        .argParser(parseSeconds),
    )
    .addOption(
      new Option(
        "--watch",
        "stay running: regenerate whenever the config, a file it imports or a template changes, writing only changed files (Ctrl-C stops)",
      ).conflicts(["check", "dryRun"]),
    )
    .option("--timings [format]", "print how long each phase took on stderr (format json: one line with absolute times)")
    .action(async (flags: GenerateFlags) => {
      exitCode = await runGenerate(flags);
    });

  program
    .command("schema")
    .description("print the JSON Schema of a target's config, for editors and validators")
    .option("-t, --target <name>", "target whose config to describe (optional when one target is installed)")
    .option("--markdown", "print the config reference as Markdown instead")
    .action(runSchema);

  program.command("targets").description("list installed targets and their config classes").action(runTargets);

  program
    .command("dev")
    .description("in a project made by be_root: database, generate, migrate, serve with reload, regenerate on change, serve the front end")
    .addOption(new Option("-p, --port <port>", "port of the backend (default: $PORT, else 8000)").argParser(parsePort))
    .option("--frontend <dir>", "the fe_root project to serve (default: frontend/ or ../frontend, when there)")
    .option("--no-frontend", "serve no front end")
    .action(async (flags: { port?: number; frontend?: string | false }) => {
      exitCode = await runDevCommand(flags);
    });
  return program;
}

/** Prints an error: a user's mistake as `<prefix>: <message>`, anything else as an internal error. */
async function reportError(error: unknown, verbose: boolean): Promise<void> {
  const { CLIError } = await import("./codegen/errors.js");
  if (error instanceof CLIError) {
    process.stderr.write(`${error.prefix}: ${error.message}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: internal error in codegen: ${message}\n`);
  process.stderr.write(verbose && error instanceof Error ? `${error.stack}\n` : "(run with --verbose for the stack trace)\n");
}

/** Set by a command that ends with a status other than 0 without an error (`generate --check`). */
let exitCode = 0;

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const verbose = argv.includes("--verbose");
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are normal exits; commander already printed its message.
      return error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`Error: ${error.message}\n`);
      return EXIT_USAGE;
    }
    await reportError(error, verbose);
    return EXIT_ERROR;
  }
}

process.exitCode = await main(process.argv);
