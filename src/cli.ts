#!/usr/bin/env node
// The `codegen` command: parses flags, calls the engine, renders errors. User mistakes
// (`CLIError`) print `<prefix>: <message>` and exit 1; usage errors exit 2; anything else
// is a bug and says so. Heavy modules load lazily so `--help` starts fast.

import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import type { Target } from "./codegen/target.js";
import type { WriteAction } from "./codegen/writer.js";

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
}

async function runGenerate(flags: GenerateFlags): Promise<void> {
  const targets = await installedTargets();
  const target = pickTarget(targets, flags.target);
  const { generate } = await import("./codegen/generate.js");
  const result = await generate({
    target,
    configFile: flags.config,
    outDir: flags.out,
    force: flags.force,
    forcePaths: flags.forcePaths,
    stdlibTargets: targets,
  });
  const count = (action: WriteAction) => result.plan.filter((write) => write.action === action).length;
  const written = count("create") + count("overwrite");
  process.stdout.write(
    `codegen: ${written} ${written === 1 ? "file" : "files"} written, ${count("unchanged")} unchanged, ` +
      `${count("skip")} skipped, in ${result.outDir}\n`,
  );
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
    .action(runGenerate);

  program.command("targets").description("list installed targets and their config classes").action(runTargets);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const verbose = argv.includes("--verbose");
  try {
    await program.parseAsync(argv);
    return 0;
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
