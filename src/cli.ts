#!/usr/bin/env node
// The `codegen` command: parses flags, calls the engine, renders errors. User mistakes
// (`CLIError`) print `<prefix>: <message>` and exit 1; usage errors exit 2; anything else
// is a bug and says so. Heavy modules load lazily so `--help` starts fast.

import { readFileSync } from "node:fs";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { GenerateOptions } from "./codegen/generate.js";
import type { Target } from "./codegen/target.js";
import { collectGarbageBefore, compileEarly, optimiseLate } from "./cli-v8-flags.js";
import { EXIT_ERROR, announceWait, check, cleaned, dryRun, files, reportError, reportKept, reportRecovery, reportTimings, reportWarnings, write } from "./cli-report.js";

compileEarly();

/** Usage mistakes (unknown target, missing --target): exit status 2 like commander's own. */
class UsageError extends Error {}

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
  const { loadTarget } = await import("./codegen/target.js");
  const picked = await pickTargetName(name);
  const target = await loadTarget(picked);
  if (!target) throw new UsageError(`unknown target "${picked}" (installed: ${await installedNames()})`);
  return target;
}

/** The target's name (`--target`, or the only one installed), read from the manifests without loading any. */
async function pickTargetName(name: string | undefined): Promise<string> {
  const { targetNames } = await import("./codegen/target.js");
  const installed = await targetNames();
  if (name === undefined) {
    if (installed.length !== 1) throw new UsageError(`--target is required when several targets are installed (installed: ${await installedNames()})`);
    return installed[0]!;
  }
  if (!installed.includes(name)) throw new UsageError(`unknown target "${name}" (installed: ${await installedNames()})`);
  return name;
}

async function installedNames(): Promise<string> {
  const { targetNames } = await import("./codegen/target.js");
  return (await targetNames()).join(", ") || "(none)";
}

interface ConfigFlags {
  target?: string;
  config: string;
}

/** The run's target and the targets whose stdlib the config may import. */
async function targetsFor(flags: ConfigFlags): Promise<{ target: Target; stdlibTargets: Target[] }> {
  const target = await pickTarget(flags.target);
  // Only a jsonnet config can import the other targets' stdlibs: only then load them all.
  return { target, stdlibTargets: flags.config.endsWith(".jsonnet") ? await installedTargets() : [target] };
}

interface GenerateFlags extends ConfigFlags {
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
  if (!flags.watch) optimiseLate();
  const { target, stdlibTargets } = await targetsFor(flags);
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
    beforePhase: collectGarbageBefore,
  };
  // A watch's reruns keep what they reuse alive: a full collection each time would cost, not free.
  if (flags.watch) return (await import("./cli-watch.js")).watchForever({ ...options, timer: undefined, beforePhase: undefined }, flags.timings);
  let status: number;
  if (flags.check || flags.dryRun) {
    const result = await generation.planGeneration(options);
    reportWarnings(result, options.configFile);
    reportKept(result);
    status = flags.check ? check(result) : dryRun(result);
  } else {
    const result = await generation.generate(options);
    reportWarnings(result, options.configFile);
    reportRecovery(result.recovered, result.outDir);
    reportKept(result);
    status = write(result);
  }
  if (timer) reportTimings(timer, flags.timings === "json");
  return status;
}

/** `validate`: the config checked as `generate` checks it, nothing written. Returns the exit status. */
async function runValidate(flags: ConfigFlags): Promise<number> {
  const { validateGeneration } = await import("./codegen/validate.js");
  const targets = await targetsFor(flags);
  const result = await validateGeneration({ ...targets, configFile: flags.config });
  reportWarnings(result, flags.config);
  process.stdout.write(`codegen: ${flags.config} is valid for target "${targets.target.name}" (${files(result.files)} to generate)\n`);
  return 0;
}

interface CleanFlags extends ConfigFlags {
  out?: string;
  lockTimeout: number;
}

/** `clean`: deletes the files the target generated into the output directory, nothing else. */
async function runClean(flags: CleanFlags): Promise<number> {
  if (flags.out === "") throw new UsageError('--out: the output directory is empty; use "-o ." for the current directory');
  const { clean } = await import("./codegen/clean.js");
  const result = await clean({
    ...(await targetsFor(flags)),
    configFile: flags.config,
    outDir: flags.out,
    lock: { timeoutMs: flags.lockTimeout * 1000, onWait: announceWait },
  });
  reportRecovery(result.recovered, result.outDir);
  return cleaned(result);
}

/** `schema`: the JSON Schema of a target's config (or its Markdown reference) on stdout. */
async function runSchema(flags: { target?: string; markdown?: boolean }): Promise<void> {
  const target = await pickTarget(flags.target);
  // The target's operations, a package's too, describe the options they parse.
  const { loadRegistry } = await import("./codegen/registry.js");
  const operations = await loadRegistry(target.operationsEntryPoint);
  if (flags.markdown) {
    const { configReference } = await import("./codegen/schema-reference.js");
    process.stdout.write(configReference(target, operations));
    return;
  }
  const { configJsonSchema } = await import("./codegen/json-schema.js");
  process.stdout.write(`${JSON.stringify(configJsonSchema(target, operations), null, 2)}\n`);
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

interface DevFlags {
  port?: number;
  frontend?: string | false;
  migrate: boolean;
  allowDataLoss?: boolean;
}

/** `dev`: runs the project's stack until Ctrl-C (SIGINT), SIGTERM or a closed terminal (SIGHUP). */
async function runDevCommand(flags: DevFlags): Promise<number> {
  const { runDev } = await import("./dev/index.js");
  const stopRequested = new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => resolve());
  });
  return runDev({
    root: process.cwd(),
    port: flags.port,
    frontend: flags.frontend,
    migrate: flags.migrate,
    allowDataLoss: flags.allowDataLoss,
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
    .command("validate")
    .description("check a config as generate does (schema, operations, output paths), writing nothing")
    .option("-t, --target <name>", "target to check it for (optional when one target is installed)")
    .requiredOption("-c, --config <file>", "config file (.jsonnet or .json)")
    .action(async (flags: ConfigFlags) => {
      exitCode = await runValidate(flags);
    });

  program
    .command("clean")
    .description("delete the files the target generated (as the output directory's manifest records them), never any other")
    .option("-t, --target <name>", "target whose files to delete (optional when one target is installed)")
    .requiredOption("-c, --config <file>", "config file (.jsonnet or .json)")
    .option("-o, --out <dir>", "output directory (default: the config's package_prefix as a path)")
    .addOption(
      new Option("--lock-timeout <seconds>", "wait this long for another run writing to the same directory, then fail")
        .default(60)
        .argParser(parseSeconds),
    )
    .action(async (flags: CleanFlags) => {
      exitCode = await runClean(flags);
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
    .option("--no-migrate", "write no migrations: apply the project's, and say what a new one would hold")
    .option("--allow-data-loss", "apply migrations that drop tables or columns (their data is lost)")
    .action(async (flags: DevFlags) => {
      exitCode = await runDevCommand(flags);
    });
  program
    .command("check")
    .description("in a project made by be_root: check every model, field and relationship the be config names against the models")
    .action(async () => {
      exitCode = await (await import("./dev/check.js")).checkCommand(process.cwd());
    });
  addDbCommands(program);
  return program;
}

/** `db` subcommands: the database steps of `dev`, run in the project in the current directory. */
function addDbCommands(program: Command): void {
  const db = program.command("db").description("the project's database (the one codegen dev uses): its URL, migrations, a reset, sample data");
  db.command("url")
    .description("print the database's URL (the running codegen dev's embedded one, or the project's variable)")
    .option("--test", "the test database's URL instead")
    .action(async (flags: { test?: boolean }) => {
      exitCode = await (await import("./dev/db.js")).printDatabaseUrl({ root: process.cwd(), test: flags.test });
    });
  db.command("migrate")
    .description("generate the API, apply the migrations, then write and apply a named one for what the models and the API need beyond them")
    .option("--allow-data-loss", "apply it even when it drops tables or columns (their data is lost)")
    .action(async (flags: { allowDataLoss?: boolean }) => {
      exitCode = await (await import("./dev/db.js")).migrateCommand({ root: process.cwd(), allowDataLoss: flags.allowDataLoss });
    });
  db.command("reset")
    .description("drop every table of the database, with its data, then migrate it")
    .option("--yes", "confirm: the data is lost")
    .option("--allow-data-loss", "apply a new migration even when it drops tables or columns")
    .action(async (flags: { yes?: boolean; allowDataLoss?: boolean }) => {
      exitCode = await (await import("./dev/db.js")).resetCommand({ root: process.cwd(), yes: flags.yes, allowDataLoss: flags.allowDataLoss });
    });
  db.command("seed")
    .description("run the seed module's seed(session) on the database (codegen dev does on an empty one)")
    .action(async () => {
      exitCode = await (await import("./dev/db.js")).seedCommand({ root: process.cwd() });
    });
  program
    .command("test")
    .description("generate the API, create and migrate the test database (<name>_test, beside the development one), run pytest on it")
    .argument("[pytest-args...]", "passed to pytest (after --)")
    .allowUnknownOption()
    .action(async (args: string[]) => {
      exitCode = await (await import("./dev/db.js")).testCommand({ root: process.cwd(), args });
    });
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
