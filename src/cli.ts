#!/usr/bin/env node
// The `codegen` command: parses flags, calls the engine, renders errors. User mistakes
// (`CLIError`) print `<prefix>: <message>` and exit 1; usage errors exit 2; anything else
// is a bug and says so. Heavy modules load lazily so `--help` starts fast.

import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import type { GenerateResult } from "./codegen/generate.js";
import type { Target } from "./codegen/target.js";

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

function pickTarget(targets: Target[], name: string | undefined): Target {
  const names = targets.map((target) => target.name).join(", ") || "(none)";
  if (name === undefined) {
    if (targets.length === 1) return targets[0]!;
    throw new UsageError(`--target is required when several targets are installed (installed: ${names})`);
  }
  const target = targets.find((candidate) => candidate.name === name);
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
}

/**
 * Plans the run once, then either writes it, prints it (`--dry-run`) or compares it with the
 * disk (`--check`): three readers of the same plan. Returns the exit status.
 */
async function runGenerate(flags: GenerateFlags): Promise<number> {
  const targets = await installedTargets();
  const target = pickTarget(targets, flags.target);
  const { planGeneration } = await import("./codegen/generate.js");
  const result = await planGeneration({
    target,
    configFile: flags.config,
    outDir: flags.out,
    force: flags.force,
    forcePaths: flags.forcePaths,
    stdlibTargets: targets,
  });
  for (const kept of result.kept) {
    process.stderr.write(`codegen: warning: kept ${kept.path}: no longer generated, but ${kept.reason}; delete it yourself if unneeded\n`);
  }
  if (flags.check) return check(result);
  if (flags.dryRun) return dryRun(result);
  return write(result);
}

const files = (count: number) => `${count} ${count === 1 ? "file" : "files"}`;

/** `--check`: the entries that would change the tree, one `<action> <path>` per line; exit 1 if any. */
async function check(result: GenerateResult): Promise<number> {
  const { driftOf } = await import("./codegen/generate.js");
  const drift = driftOf(result.plan);
  if (drift.length === 0) {
    process.stdout.write(`codegen: up to date, ${files(result.plan.length)} checked, in ${result.outDir}\n`);
    return 0;
  }
  process.stdout.write(drift.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stderr.write(`codegen: ${files(drift.length)} out of date in ${result.outDir}; run codegen generate without --check\n`);
  return EXIT_ERROR;
}

/** `--dry-run`: every entry of the plan, then the summary saying nothing was written. */
async function dryRun(result: GenerateResult): Promise<number> {
  const { countActions } = await import("./codegen/generate.js");
  const counts = countActions(result.plan);
  process.stdout.write(result.plan.map((entry) => `${entry.action} ${entry.path}\n`).join(""));
  process.stdout.write(
    `codegen: dry run, nothing written: ${files(counts.create + counts.overwrite)} to write, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} to delete, in ${result.outDir}\n`,
  );
  return 0;
}

/** The plain run: carry out the plan, then one summary line. */
async function write(result: GenerateResult): Promise<number> {
  const [{ countActions }, { applyPlan }] = await Promise.all([import("./codegen/generate.js"), import("./codegen/writer.js")]);
  await applyPlan(result.plan, { manifest: result.manifest });
  const counts = countActions(result.plan);
  process.stdout.write(
    `codegen: ${files(counts.create + counts.overwrite)} written, ${counts.unchanged} unchanged, ` +
      `${counts.skip} skipped, ${counts.delete} deleted, in ${result.outDir}\n`,
  );
  return 0;
}

/** `schema`: the JSON Schema of a target's config (or its Markdown reference) on stdout. */
async function runSchema(flags: { target?: string; markdown?: boolean }): Promise<void> {
  const target = pickTarget(await installedTargets(), flags.target);
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
  return program;
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
    const { CLIError } = await import("./codegen/errors.js");
    if (error instanceof CLIError) {
      process.stderr.write(`${error.prefix}: ${error.message}\n`);
      if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
      return EXIT_ERROR;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Error: internal error in codegen: ${message}\n`);
    process.stderr.write(verbose && error instanceof Error ? `${error.stack}\n` : "(run with --verbose for the stack trace)\n");
    return EXIT_ERROR;
  }
}

process.exitCode = await main(process.argv);
