// `codegen validate`: everything a run checks before it touches the output directory, and
// nothing after. The config is evaluated, validated against the target's schema (with the
// files it names), the operations' options and rules are checked, and the files are built,
// rendered and their paths checked, all in memory: a config this accepts is one `generate`
// accepts, up to what only the disk can refuse (a symbolic link, a full disk). Formatting,
// the manifest and the output directory are left alone.

import { buildStore, loadPlugins, renderStore } from "./build-output.js";
import { configWarningsOf, evaluateConfigFile, validateConfig, withConfigFiles } from "./config.js";
import { type ConfigIssue, blamingConfig } from "./errors.js";
import { refuseManifestPath } from "./manifest.js";
import { validatePaths } from "./paths.js";
import type { Target } from "./target.js";

/** What {@link validateGeneration} and {@link loadValidConfig} read. */
export interface ValidateOptions {
  target: Target;
  configFile: string;
  /** Targets whose jsonnet stdlib the config may import. @default [target] */
  stdlibTargets?: readonly Target[];
  /** Where plugins are discovered from. @default process.cwd() */
  cwd?: string;
}

/** A config that passed the target's schema, with the files it names read. */
export interface ValidConfig {
  config: unknown;
  /** Config keys the target accepts but that change nothing, with their paths. */
  warnings: ConfigIssue[];
}

/**
 * The config evaluated and validated against the target's schema, the files it names read.
 * @throws ConfigError naming the file and every failing config path.
 */
export async function loadValidConfig(options: ValidateOptions): Promise<ValidConfig> {
  const { target, configFile } = options;
  const raw = await evaluateConfigFile(configFile, options.stdlibTargets ?? [target]);
  const { config } = withConfigFiles(target, validateConfig(raw, target, configFile), configFile);
  return { config, warnings: configWarningsOf(raw, target) };
}

/** A valid config, and how many files a run of it generates. */
export interface ValidateResult extends ValidConfig {
  files: number;
}

/**
 * Checks the config as a run would, up to planning against the disk, writing nothing.
 * @throws ConfigError for a bad config or bad operation options; GenerationError for
 * conflicting fragments or an output path that leaves the output directory, naming the
 * config file and the config paths that produced it.
 * @example const { files, warnings } = await validateGeneration({ target, configFile: "config/project.jsonnet" });
 */
export async function validateGeneration(options: ValidateOptions): Promise<ValidateResult> {
  const { target, configFile } = options;
  const valid = await loadValidConfig(options);
  const registry = await loadPlugins(target, { cwd: options.cwd });
  const built = renderStore(target, valid.config, buildStore(target, valid.config, registry, configFile), configFile);
  await blamingConfig(configFile, built.originsOf, () => refuseManifestPath(validatePaths(built.files).map(([file, relative]) => [file.path, relative])));
  return { ...valid, files: built.files.length };
}
