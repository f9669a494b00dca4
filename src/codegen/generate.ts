// The whole run for one target, one step after another, each a function of the one before:
// load the config, validate it, build the outputs, render and assemble the files, format them,
// plan against the output directory, write. Writing, a dry run and a check all read that one
// plan, so nothing reaches disk unless everything rendered; a watch runs it again. A writing
// run plans and writes holding the output directory's lock, after completing an interrupted run.
// A run whose evaluated config, the files the last run read, and code hash to what the manifest
// recorded for its target, over files that still hold what was written, has nothing to do: it
// stops once the config is evaluated, before validating it.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { buildStore, loadPlugins, renderStore } from "./build-output.js";
import { type ConfigReads, configWarningsOf, evaluateConfigFile, validateConfig, withConfigFiles } from "./config.js";
import { type ConfigIssue, GenerationError, blamingConfig } from "./errors.js";
import { formatFiles, writtenText } from "./format.js";
import { codeHash, inputsHash } from "./input-hash.js";
import { type Recovery, hasJournal, isTempName, recoverInterruptedRun } from "./journal.js";
import { type LockOptions, waitForUnlocked, withOutputLock } from "./lock.js";
import { type RunRecord, type StoredManifest, formatManifest, isEmptyManifest, manifestPath, readManifest, updateManifest } from "./manifest.js";
import { OutputTree } from "./output-tree.js";
import { comparePaths } from "./paths.js";
import { planDeletionsIn } from "./prune.js";
import { type Target, packagePrefixOf } from "./target.js";
import { userTemplatesOf } from "./user-templates.js";
import { type Phase, type PhaseTimer, timed } from "./timings.js";
import {
  GeneratedFile,
  type KeptFile,
  type ManifestWrite,
  type PlannedChange,
  type PlannedWrite,
  applyPlan,
  forcedBy,
  planTempRemovals,
  planWritesIn,
} from "./writer.js";

export { countActions, driftOf } from "./plan-summary.js";

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
  /** Stops the run at the next phase boundary (never inside the write): it rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called as each phase starts, before it is timed. The CLI collects garbage before `render`
   * and `format` in a large run (peak memory, cli-v8-flags.ts). @default none
   */
  beforePhase?: (phase: Phase) => void;
  /** Told what evaluating the config read (config.ts, `evaluateConfigFile`): a watch watches it. @default none */
  onConfigRead?: (reads: ConfigReads) => void;
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
  /** The config's directory of template overrides, absolute, if it names one. */
  userTemplatesDir: string | undefined;
}

/** A writing run's result: with the number of files written and what was recovered, if anything. */
export type WriteResult = GenerateResult & { written: number; recovered: Recovery | undefined };

/** An evaluated config, not validated yet, with the output directory's manifest and the code's hash. */
interface Evaluated {
  /** The config as evaluated (plain JSON data). */
  raw: unknown;
  /** Absolute output directory. */
  outDir: string;
  /** The output directory's manifest as the run found it. */
  stored: StoredManifest;
  /** {@link codeHash} of the running code. */
  code: string;
  /** The validated config, when finding the output directory needed it (no `outDir` given). */
  loaded: Loaded | undefined;
}

/** A validated config with what the rest of the run needs to know of it. */
interface Loaded {
  target: Target;
  configFile: string;
  config: unknown;
  /** Absolute output directory. */
  outDir: string;
  warnings: ConfigIssue[];
  userTemplatesDir: string | undefined;
  /** What to record for the run in the manifest; undefined when the target does not say which files it read. */
  record: Omit<RunRecord, "skip"> | undefined;
  /** The output directory's manifest as the run found it. */
  stored: StoredManifest;
}

/** The files of a run, built and formatted in memory; the output directory is not touched yet. */
interface Built extends Loaded {
  /** Every generated file, sorted by path. */
  files: GeneratedFile[];
  /** The SHA-256 of the assembled text of each file the formatter changed. */
  assembled: ReadonlyMap<string, string>;
  /** The config paths of the scope instances whose outputs made `outputPath`. */
  originsOf: (outputPath: string) => string[];
}

/**
 * Builds every file in memory and plans the run: writes, deletions of stale files recorded in
 * the output directory's manifest, and the new manifest. Writes nothing; waits while another
 * run holds the output directory's lock, so it never plans against a half-written tree.
 * @throws ConfigError for a bad config; GenerationError for bad output paths, conflicting
 * fragments or a corrupt manifest, naming the config file and paths when they are the cause.
 */
export async function planGeneration(options: GenerateOptions): Promise<GenerateResult> {
  const evaluated = await evaluate(options);
  const done = await nothingToDo(evaluated, options);
  if (done) return done;
  const built = await build(evaluated.loaded ?? (await load(evaluated, options)), options);
  return timed(options, "write", async () => {
    await waitForUnlocked(built.outDir, options.lock);
    return plan(built, options);
  });
}

/**
 * Generates and writes (deleting stale files, updating the manifest), holding the output
 * directory's lock; an interrupted earlier run is completed or rolled back first.
 */
export async function generate(options: GenerateOptions): Promise<WriteResult> {
  const evaluated = await evaluate(options);
  const done = await nothingToDo(evaluated, options);
  if (done) return { ...done, written: done.plan.filter((entry) => entry.action === "unchanged").length, recovered: undefined };
  const built = await build(evaluated.loaded ?? (await load(evaluated, options)), options);
  return timed(options, "write", () =>
    withOutputLock(
      built.outDir,
      async () => {
        const recovered = recoverInterruptedRun(built.outDir);
        const result = await plan(built, options);
        const written = await applyPlan(result.plan, { manifest: result.manifest });
        return { ...result, written, recovered };
      },
      options.lock,
    ),
  );
}

/**
 * Evaluates the config and finds the output directory, its manifest and the code's hash. The
 * config is validated here only when the output directory depends on it (no `outDir` given).
 */
async function evaluate(options: GenerateOptions): Promise<Evaluated> {
  const { target, configFile } = options;
  if (options.outDir === "") throw new GenerationError('the output directory is empty (""); use "." for the current directory');
  const cwd = options.cwd ?? process.cwd();
  const raw = await timed(options, "load config", () => evaluateConfigFile(configFile, options.stdlibTargets ?? [target], options.onConfigRead));
  const code = await codeHash(cwd);
  if (options.outDir === undefined) {
    const loaded = await load({ raw, code, outDir: undefined }, options);
    return { raw, code, outDir: loaded.outDir, stored: loaded.stored, loaded };
  }
  const outDir = path.resolve(cwd, options.outDir);
  return { raw, code, outDir, stored: await readManifest(outDir), loaded: undefined };
}

/** Validates the config, reads the files it names, and hashes the run's inputs. */
async function load(evaluated: Pick<Evaluated, "raw" | "code"> & Partial<Pick<Evaluated, "stored">> & { outDir: string | undefined }, options: GenerateOptions): Promise<Loaded> {
  const { target, configFile } = options;
  const { raw, code } = evaluated;
  const cwd = options.cwd ?? process.cwd();
  return timed(options, "validate", async () => {
    const { config, filesRead } = withConfigFiles(target, validateConfig(raw, target, configFile), configFile);
    const userTemplatesDir = userTemplatesOf(config, configFile)?.dir;
    const outDir = evaluated.outDir ?? path.resolve(cwd, defaultOutDir(packagePrefixOf(target, config)));
    const read = filesRead && [...(userTemplatesDir ? [userTemplatesDir] : []), ...filesRead];
    const record = read && {
      inputs: runInputsHash(raw, read, code, options),
      code,
      read: read.map((file) => path.relative(configDirOf(options), file).split(path.sep).join("/") || "."),
    };
    return {
      target,
      configFile,
      config,
      outDir,
      stored: await readManifest(outDir, evaluated.stored),
      warnings: configWarningsOf(raw, target),
      userTemplatesDir,
      record,
    };
  });
}

/** The hash of a run's inputs (input-hash.ts), `read` being the files it read besides the config, absolute. */
function runInputsHash(raw: unknown, read: readonly string[], code: string, options: GenerateOptions): string {
  return inputsHash({
    targetName: options.target.name,
    config: raw,
    configDir: configDirOf(options),
    files: read,
    force: options.force ?? false,
    forcePaths: options.forcePaths ?? [],
    code,
  });
}

/** The config file's directory, absolute: the files a config names are relative to it. */
function configDirOf(options: Pick<GenerateOptions, "configFile">): string {
  return path.dirname(path.resolve(options.configFile));
}

/**
 * The result of a run with nothing to do, or undefined when the full run must decide: the
 * manifest records this run's code, and the hash of its evaluated config with the files the
 * recorded run read (the same files, since the same config and code name them), for the
 * target; every file it recorded still hashes to what was written, every `skip` file it made
 * still exists, and no interrupted run or temp file is in the way. A forced run always runs.
 * Nothing here needs the config validated: it was, by the run that recorded it.
 */
async function nothingToDo(evaluated: Evaluated, options: GenerateOptions): Promise<GenerateResult | undefined> {
  const { target, configFile } = options;
  const run = evaluated.stored.runs.get(target.name);
  if (!run?.read || run.code !== evaluated.code) return undefined;
  if (options.force || (options.forcePaths?.length ?? 0) > 0) return undefined;
  return timed(options, "write", () => {
    const read = run.read!.map((file) => path.resolve(configDirOf(options), file));
    if (runInputsHash(evaluated.raw, read, evaluated.code, options) !== run.inputs) return undefined;
    const context = { warnings: configWarningsOf(evaluated.raw, target), userTemplatesDir: userTemplatesOf(evaluated.raw, configFile)?.dir };
    return verified({ ...evaluated, target, ...context }, run);
  });
}

/** {@link nothingToDo}'s check of the output directory, for a run whose inputs are those `run` recorded. */
function verified(
  loaded: Pick<Loaded, "target" | "outDir" | "stored" | "warnings" | "userTemplatesDir">,
  run: RunRecord,
): GenerateResult | undefined {
  const { stored } = loaded;
  if (hasJournal(loaded.outDir)) return undefined;
  const root = loaded.outDir;
  const files: GeneratedFile[] = [];
  const entries: PlannedWrite[] = [];
  const dirs = new Set<string>();
  const add = (relative: string, action: "unchanged" | "skip", content: string) => {
    const file = new GeneratedFile({ path: relative, content, ifExists: action === "skip" ? "skip" : "overwrite" });
    files.push(file);
    entries.push({ file, path: relative, absolutePath: path.join(root, relative), action });
    dirs.add(path.posix.dirname(relative));
  };
  try {
    for (const recorded of stored.recorded.get(loaded.target.name) ?? []) {
      const content = writtenText(path.join(root, recorded.path), recorded.sha256);
      if (content === undefined) return undefined;
      add(recorded.path, "unchanged", content);
    }
    for (const relative of run.skip) add(relative, "skip", readFileSync(path.join(root, relative), "utf8"));
    for (const dir of dirs) {
      if (readdirSync(path.join(root, dir)).some(isTempName)) return undefined;
    }
  } catch {
    // A file gone or unreadable: the full run decides, and says why if it must.
    return undefined;
  }
  const byPath = (a: { path: string }, b: { path: string }) => comparePaths(a.path, b.path);
  return {
    outDir: root,
    files: files.sort(byPath),
    plan: entries.sort(byPath),
    kept: [],
    manifest: undefined,
    interrupted: false,
    warnings: loaded.warnings,
    userTemplatesDir: loaded.userTemplatesDir,
  };
}

/**
 * The validated config to formatted files, in memory: run the engine, render, assemble, format.
 * Files the manifest recorded are formatted again only when their assembled text changed.
 * @throws ConfigError for bad operation options; GenerationError for conflicting fragments.
 */
async function build(loaded: Loaded, options: GenerateOptions): Promise<Built> {
  const { target, config, configFile, stored } = loaded;
  const registry = await loadPlugins(target, { cwd: options.cwd });
  // The store and the fragments die with this frame: formatting a large run must not hold them too.
  const rendered = await timed(options, "build", () => buildStore(target, config, registry, configFile)).then((store) =>
    timed(options, "render", () => renderStore(target, config, store, configFile)),
  );
  const formatter = target.formatter;
  if (formatter === undefined) return { ...loaded, files: rendered.files, assembled: new Map(), originsOf: rendered.originsOf };
  const run = stored.runs.get(target.name);
  const earlier = run && run.code === loaded.record?.code ? { outDir: loaded.outDir, recorded: new Map((stored.recorded.get(target.name) ?? []).map((file) => [file.path, file])) } : undefined;
  // A `skip` file already there is left as it is: its text is never used, so it is not formatted.
  const forced = forcedBy(options);
  const unused = (file: GeneratedFile) => file.ifExists === "skip" && !forced(file.path) && existsSync(path.join(loaded.outDir, file.path));
  const formatted = await timed(options, "format", () => formatFiles(rendered.files, formatter, { earlier, unused, outDir: loaded.outDir }));
  if (formatted.by !== undefined) options.timer?.notes.set("format", formatted.by);
  return { ...loaded, files: formatted.files, assembled: formatted.assembled, originsOf: rendered.originsOf };
}

/** Plans built files against the output directory as it is now. */
async function plan(built: Built, options: Pick<GenerateOptions, "force" | "forcePaths">): Promise<GenerateResult> {
  const { outDir, files, target } = built;
  return blamingConfig(built.configFile, built.originsOf, async () => {
    const tree = new OutputTree(outDir);
    const writes = planWritesIn(tree, files, { force: options.force, forcePaths: options.forcePaths, aggregates: target.aggregates?.bind(target) });
    const stored = await readManifest(outDir, built.stored);
    const { next, stale } = updateManifest(stored.recorded, target.name, writes, built.assembled);
    const { deletions, kept } = planDeletionsIn(tree, stale);
    const temps = planTempRemovals(tree, writes);
    const planned: PlannedChange[] = [...writes, ...deletions, ...temps].sort((a, b) => comparePaths(a.path, b.path));
    // A run that kept stale files is not recorded: the next one must warn about them again.
    const runs = new Map(stored.runs);
    if (built.record && kept.length === 0) {
      const skip = writes.filter((write) => write.file.ifExists === "skip").map((write) => write.path);
      runs.set(target.name, { ...built.record, skip });
    } else runs.delete(target.name);
    const content = formatManifest(next, runs);
    // Rewritten only when it changes; not created at all while there is nothing to record.
    const needed = stored.text === undefined ? !isEmptyManifest(next) : stored.text !== content;
    const manifest = needed ? { absolutePath: manifestPath(outDir), content } : undefined;
    return {
      outDir,
      files,
      plan: planned,
      kept,
      manifest,
      interrupted: hasJournal(outDir),
      warnings: built.warnings,
      userTemplatesDir: built.userTemplatesDir,
    };
  });
}

/** `blog.api` → `blog/api`; an empty prefix → the current directory. */
export function defaultOutDir(packagePrefix: string): string {
  return packagePrefix === "" ? "." : packagePrefix.split(".").join("/");
}
