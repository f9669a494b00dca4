// The whole run for one target: load the config, build outputs with the engine, render
// them to fragments, assemble files in memory, then plan: each file's action, the stale files
// of earlier runs to delete, the manifest to record. Writing, a dry run and a check all read
// that one plan, so nothing reaches disk unless everything rendered. A writing run plans and
// writes holding the output directory's lock, after completing an interrupted run.

import { resolve } from "node:path";

import { buildOutput, loadPlugins } from "./build-output.js";
import { configWarningsOf, evaluateConfigFile, evaluateJsonnetText, jsonnetLibraryDirs, validateConfig } from "./config.js";
import { ConfigError, type ConfigIssue, GenerationError } from "./errors.js";
import type { GenerationCache } from "./generation-cache.js";
import type { FormatMemory } from "./format-pool.js";
import { FormatRecord } from "./format-record.js";
import { type Recovery, hasJournal, recoverInterruptedRun } from "./journal.js";
import { type LockOptions, waitForUnlocked, withOutputLock } from "./lock.js";
import { type Manifest, formatManifest, isEmptyManifest, manifestPath, readManifest, updateManifest } from "./manifest.js";
import { OutputTree } from "./output-tree.js";
import { comparePaths } from "./paths.js";
import { codeFingerprint, inputFingerprint } from "./input-fingerprint.js";
import { planDeletionsIn } from "./prune.js";
import { type Target, packagePrefixOf } from "./target.js";
import { type Phase, type PhaseTimer, timed } from "./timings.js";
import { type StampRecord, recordUpToDate, stampKeyOf } from "./up-to-date.js";

export { countActions, driftOf } from "./plan-summary.js";
import {
  type GeneratedFile,
  type KeptFile,
  type ManifestWrite,
  type PlannedChange,
  type PlannedWrite,
  applyPlan,
  planTempRemovals,
  planWritesIn,
} from "./writer.js";

/** One `codegen generate` run. */
export interface GenerateOptions {
  target: Target;
  configFile: string;
  /** @default the package prefix as a path (`blog.api` → `blog/api`), or the current directory */
  outDir?: string;
  /** Turn every `skip` into `overwrite`. @default false */
  force?: boolean;
  /** fnmatch globs of paths to overwrite despite `skip`. */
  forcePaths?: readonly string[];
  /** Targets whose jsonnet stdlib the config may import. @default [target] */
  stdlibTargets?: readonly Target[];
  /** Where plugins are discovered from. @default process.cwd() */
  cwd?: string;
  /** Records how long each phase takes. @default none */
  timer?: PhaseTimer;
  /** How long to wait for another run writing to the same directory, and who to tell. */
  lock?: LockOptions;
  /** Results of earlier runs in this process to reuse (watch mode). @default none: everything is loaded and computed afresh */
  cache?: GenerationCache;
  /** Stops the run at the next phase boundary (never inside the write): it rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called as each phase starts, before it is timed. The CLI collects garbage before `format`,
   * once the store and the fragments are dropped (peak memory, cli-v8-flags.ts). @default none
   */
  beforePhase?: (phase: Phase) => void;
  /**
   * After writing, record an up-to-date stamp (up-to-date.ts) so a later run with the same
   * inputs and an untouched tree skips the pipeline, and the formatter's answers
   * (format-record.ts) so a later run formats only the files whose text changed; `--check` and
   * `--dry-run` use those answers too. The CLI does. @default false
   */
  recordUpToDate?: boolean;
  /**
   * A jsonnet evaluation of `configFile` begun before the targets were loaded
   * ({@link startEvaluation}), so that it runs while they load. A run (writing, or only
   * planning for `--check` and `--dry-run`) uses it only when the fingerprint of its inputs,
   * taken as it starts, equals the one taken as the evaluation began (the same library paths,
   * the same files); on a mismatch it evaluates the config afresh.
   */
  evaluation?: StartedEvaluation;
}

/** A jsonnet evaluation under way, with the fingerprint of its inputs taken before it began. */
export interface StartedEvaluation {
  fingerprint: string;
  /** The evaluated JSON text; rejects with the ConfigError the evaluation gives. */
  text: Promise<string>;
}

/** What a run produced and decided, before or after writing: the one result every mode reads. */
export interface GenerateResult {
  /** Absolute output directory. */
  outDir: string;
  /** Every generated file, sorted by path. */
  files: GeneratedFile[];
  /**
   * Every generated file with its action (`create`, `overwrite`, `unchanged`, `skip`), every
   * stale file of an earlier run and every temp file a killed run left to `delete`, sorted by path.
   */
  plan: PlannedChange[];
  /** Stale files left in place because they changed since codegen wrote them. */
  kept: KeptFile[];
  /** The manifest to write, or undefined when it is already up to date (or there is nothing to record). */
  manifest: ManifestWrite | undefined;
  /** The output directory holds the journal of an interrupted run (the next writing run completes or undoes it). */
  interrupted: boolean;
  /** Config keys the target accepted but that change nothing, with their paths (`Target.configWarnings`). */
  warnings: ConfigIssue[];
}

/** The files of a run, built in memory; the output directory is not touched yet. */
export interface BuiltGeneration {
  target: Target;
  configFile: string;
  /** Absolute output directory. */
  outDir: string;
  /** Every generated file, sorted by path. */
  files: GeneratedFile[];
  /** The config paths of the scope instances whose outputs made `outputPath`. */
  originsOf: (outputPath: string) => string[];
  /** The config's directory of template overrides, absolute, if it names one. */
  userTemplatesDir: string | undefined;
  /** Config keys the target accepted but that change nothing (`Target.configWarnings`). */
  warnings: ConfigIssue[];
  /** Files the target's `readConfigFiles` read (absolute); undefined when unknown (then no up-to-date stamp is recorded). */
  configFilesRead?: readonly string[];
}

/**
 * Builds every file in memory and plans the run: writes, deletions of stale files recorded in
 * the output directory's manifest, and the new manifest. Writes nothing; waits while another
 * run holds the output directory's lock, so it never plans against a half-written tree.
 * @throws ConfigError for a bad config; GenerationError for bad output paths, conflicting
 * fragments or a corrupt manifest, naming the config file and paths when they are the cause.
 */
export async function planGeneration(options: GenerateOptions): Promise<GenerateResult> {
  const run = options.recordUpToDate || options.evaluation ? await runFingerprint(options) : undefined;
  const evaluation = await startedEvaluationOf(options, run?.fingerprint);
  const formatRecord = options.recordUpToDate && run?.code !== undefined ? FormatRecord.open(run.key, run.code) : undefined;
  const built = await buildGeneration(options, evaluation?.text, formatRecord);
  return timed(options, "write", async () => {
    await waitForUnlocked(built.outDir, options.lock);
    const { next: _recorded, ...result } = await planBuilt(built, options, formatRecord);
    return result;
  });
}

/**
 * Generates and writes (deleting stale files, updating the manifest), holding the output
 * directory's lock; an interrupted earlier run is completed or rolled back first.
 * @returns the result with the number of files written and what was recovered, if anything.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult & { written: number; recovered: Recovery | undefined }> {
  // The inputs' fingerprint is taken before they are read, so a change during the run is seen.
  const stamping = options.recordUpToDate ? await startStamp(options) : undefined;
  const evaluation = await startedEvaluationOf(options, stamping?.before);
  return writeBuilt(await buildGeneration(options, evaluation?.text, stamping?.formatRecord), options, stamping);
}

/**
 * The evaluation begun before this run, if it read this run's inputs: it read them after its
 * own fingerprint was taken, so the same fingerprint now (`fingerprint`, when the caller has
 * just taken it) means the same files.
 */
async function startedEvaluationOf(options: GenerateOptions, fingerprint?: string): Promise<StartedEvaluation | undefined> {
  const { evaluation } = options;
  if (evaluation === undefined) return undefined;
  const now = fingerprint ?? (await runFingerprint(options)).fingerprint;
  return now !== undefined && now === evaluation.fingerprint ? evaluation : undefined;
}

/** What {@link writeBuilt} needs to record an up-to-date stamp and the formatter's answers after its write. */
type Stamping = Pick<StampRecord, "key" | "before" | "startedNs" | "inputs"> & { formatRecord: FormatRecord };

/** What names a run's stamp and the inputs it fingerprints, besides the library paths. */
type StampedRun = Pick<GenerateOptions, "configFile" | "cwd" | "outDir" | "force" | "forcePaths"> & { targetName: string };

/**
 * The stamp's key, the inputs it records with the given library paths, and their fingerprint
 * now (undefined for an unreadable config: the run reports that itself).
 */
async function fingerprintNow(run: StampedRun, libraryDirs: readonly string[]) {
  const key = stampKeyOf({ targetName: run.targetName, configFile: run.configFile, cwd: run.cwd, outDir: run.outDir });
  const inputs = { ...key, libraryDirs: [...libraryDirs], force: run.force ?? false, forcePaths: [...(run.forcePaths ?? [])] };
  // Unreadable code (a broken plugin package) or config: no fingerprint, and the run reports the problem itself.
  const code = await codeFingerprint(key.cwd).catch(() => undefined);
  const fingerprint = code === undefined ? undefined : await inputFingerprint({ ...inputs, extraInputs: [] }, code).catch(() => undefined);
  return { key, inputs, fingerprint, code };
}

/** {@link fingerprintNow} of this run: its target, and the library paths of its stdlib targets. */
function runFingerprint(options: GenerateOptions) {
  return fingerprintNow({ ...options, targetName: options.target.name }, jsonnetLibraryDirs(options.stdlibTargets ?? [options.target]));
}

async function startStamp(options: GenerateOptions): Promise<Stamping | undefined> {
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  const { key, inputs, fingerprint, code } = await runFingerprint(options);
  return fingerprint === undefined || code === undefined ? undefined : { key, before: fingerprint, startedNs, inputs, formatRecord: FormatRecord.open(key, code) };
}

/**
 * Begins evaluating a jsonnet config with `libraryDirs` (the CLI passes those its last run
 * recorded), for {@link GenerateOptions.evaluation}. Undefined when its inputs cannot be
 * fingerprinted (an unreadable config: the run reports that itself).
 */
export async function startEvaluation(run: StampedRun, libraryDirs: readonly string[]): Promise<StartedEvaluation | undefined> {
  const { fingerprint } = await fingerprintNow(run, libraryDirs);
  if (fingerprint === undefined) return undefined;
  const text = evaluateJsonnetText(run.configFile, libraryDirs);
  // Unused (its fingerprint no longer matches), its failure is no one's concern.
  text.catch(() => {});
  return { fingerprint, text };
}

/** The writing half of {@link generate}, for a generation already built (watch mode rebuilds, then calls this). */
export async function writeBuilt(
  built: BuiltGeneration,
  options: Pick<GenerateOptions, "force" | "forcePaths" | "timer" | "lock" | "signal" | "cache">,
  stamping?: Stamping,
): Promise<GenerateResult & { written: number; recovered: Recovery | undefined }> {
  return timed(options, "write", () =>
    withOutputLock(
      built.outDir,
      async () => {
        const memory = options.cache?.outputMemory(built.outDir);
        const recovered = recoverInterruptedRun(built.outDir);
        if (recovered) memory?.forget();
        try {
          const { next, ...result } = await planBuilt(built, options, stamping?.formatRecord);
          const written = await applyPlan(result.plan, { manifest: result.manifest });
          memory?.rememberApplied(result.plan);
          if (result.manifest) memory?.rememberManifest(result.manifest.content, next);
          if (stamping) await stampAfterWrite(stamping, built, result, next);
          return { ...result, written, recovered };
        } catch (error) {
          memory?.forget();
          throw error;
        }
      },
      options.lock,
    ),
  );
}

/** Records the up-to-date stamp and the formatter's answers of a run that just wrote (still under the lock); never throws. */
async function stampAfterWrite(stamping: Stamping, built: BuiltGeneration, result: GenerateResult, next: Manifest): Promise<void> {
  const extraInputs = built.configFilesRead && [...(built.userTemplatesDir ? [built.userTemplatesDir] : []), ...built.configFilesRead];
  const recordedSha256 = new Map((next.get(built.target.name) ?? []).map((file) => [file.path, file.sha256]));
  // Taken once for both: each checks that the code did not change during the run.
  const code = await codeFingerprint(stamping.key.cwd).catch(() => undefined);
  stamping.formatRecord.save(built.outDir, recordedSha256, code);
  await recordUpToDate({
    ...stamping,
    extraInputs,
    outDir: built.outDir,
    warnings: result.warnings,
    writes: result.plan.filter((entry): entry is PlannedWrite => entry.action !== "delete"),
    keptAny: result.kept.length > 0,
    recordedSha256,
    code,
  });
}

/**
 * Config to files, in memory: load and validate the config, run the engine, render, assemble.
 * @param evaluated the config's JSON text, from an evaluation known to have read this run's inputs.
 * @param formatMemory the formatter's earlier answers to reuse (format-record.ts); a watch's cache has its own.
 * @throws ConfigError for a bad config; GenerationError for conflicting fragments.
 */
export async function buildGeneration(options: GenerateOptions, evaluated?: Promise<string>, formatMemory?: FormatMemory): Promise<BuiltGeneration> {
  const { target, configFile } = options;
  if (options.outDir === "") throw new GenerationError('the output directory is empty (""); use "." for the current directory');
  const stdlibTargets = options.stdlibTargets ?? [target];
  // Loaded while the config evaluates; a failure surfaces where the build awaits them, after
  // the config's own errors.
  const plugins = loadPlugins(target, options);
  plugins.catch(() => {});
  const raw = await timed(options, "load config", async (): Promise<unknown> => {
    if (evaluated) return JSON.parse(await evaluated);
    return options.cache ? options.cache.evaluatedConfig(configFile, stdlibTargets) : evaluateConfigFile(configFile, stdlibTargets);
  });
  // A watch parses again only the list items (resources, operations…) whose text changed.
  const validation = (await options.cache?.incrementalMemory(target))?.validation;
  const { config, configFilesRead } = await timed(options, "validate", () =>
    withConfigFiles(target, validation ? validation.validate(raw, target, configFile) : validateConfig(raw, target, configFile), configFile),
  );
  const warnings = configWarningsOf(raw, target);
  const { files, originsOf, userTemplatesDir } = await buildOutput(target, config, { ...options, plugins, formatMemory });
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? defaultOutDir(packagePrefixOf(target, config)));
  return { target, configFile, outDir, files, originsOf, userTemplatesDir, warnings, configFilesRead };
}

/** The validated config with the files it names read (`Target.readConfigFiles`), and which files those were. */
function withConfigFiles<C>(target: Target<C>, config: C, configFile: string): { config: C; configFilesRead: readonly string[] | undefined } {
  if (!target.readConfigFiles) return { config, configFilesRead: [] };
  const read = target.readConfigFiles(config, configFile);
  if (read.issues.length > 0) throw new ConfigError(`invalid configuration for target "${target.name}"`, { file: configFile, issues: read.issues });
  return { config: read.config, configFilesRead: read.files };
}

/** What a run already knows of the files of its output directory: planning need not read or hash those again. */
interface KnownOutputs {
  /** Whether the file at `absolutePath` is known to hold exactly `content`. */
  holds(absolutePath: string, content: string): boolean;
  /** The sha256 of `content`, generated at `path`. */
  sha256(path: string, content: string): string;
}

/**
 * Plans a built generation against the output directory as it is now; `next` is the manifest's new content, parsed.
 * @param formatRecord the formatter's answers this run took from disk (format-record.ts), if not a watch's run
 */
async function planBuilt(
  built: BuiltGeneration,
  options: Pick<GenerateOptions, "force" | "forcePaths" | "cache">,
  formatRecord?: FormatRecord,
): Promise<GenerateResult & { next: Manifest }> {
  const { outDir, files, target } = built;
  // Watch mode: what this process last wrote there spares reading unchanged files and re-hashing them.
  const memory = options.cache?.outputMemory(outDir);
  memory?.startPlanning();
  // Otherwise the files the formatter's answers were read from, just before.
  const known: KnownOutputs | undefined = memory ?? formatRecord;
  try {
    const tree = new OutputTree(outDir);
    const writes = planWritesIn(tree, files, {
      force: options.force,
      forcePaths: options.forcePaths,
      aggregates: target.aggregates?.bind(target),
      knownToHold: known && ((file, content) => known.holds(file, content)),
    });
    const stored = await readManifest(outDir, memory && ((text) => memory.parsedManifest(text)));
    if (stored.text !== undefined) memory?.rememberManifest(stored.text, stored.recorded);
    const { next, stale } = updateManifest(stored.recorded, target.name, writes, known && ((path, content) => known.sha256(path, content)));
    const { deletions, kept } = planDeletionsIn(tree, stale);
    const temps = planTempRemovals(tree, writes);
    const plan: PlannedChange[] = [...writes, ...deletions, ...temps].sort((a, b) => comparePaths(a.path, b.path));
    const content = formatManifest(next);
    // Rewritten only when it changes; not created at all while there is nothing to record.
    const needed = stored.text === undefined ? !isEmptyManifest(next) : stored.text !== content;
    const manifest = needed ? { absolutePath: manifestPath(outDir), content } : undefined;
    return { outDir, files, plan, kept, manifest, interrupted: hasJournal(outDir), warnings: built.warnings, next };
  } catch (error) {
    // Only a problem with generated paths is the config's doing; name it and where it came from.
    if (error instanceof GenerationError && error.outputPaths.length > 0) {
      throw error.withContext({ file: built.configFile, sources: error.outputPaths.flatMap(built.originsOf) });
    }
    throw error;
  }
}

/** `blog.api` → `blog/api`; an empty prefix → the current directory. */
export function defaultOutDir(packagePrefix: string): string {
  return packagePrefix === "" ? "." : packagePrefix.split(".").join("/");
}
