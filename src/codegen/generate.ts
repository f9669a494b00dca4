// The whole run for one target: load the config, build outputs with the engine, render
// them to fragments, assemble files in memory, then plan: each file's action, the stale files
// of earlier runs to delete, the manifest to record. Writing, a dry run and a check all read
// that one plan, so nothing reaches disk unless everything rendered.

import { resolve } from "node:path";
import { loadConfig } from "./config.js";
import { Engine } from "./engine.js";
import { ConfigError, GenerationError } from "./errors.js";
import { assemble } from "./assembler.js";
import type { Fragment } from "./fragments.js";
import { loadImportFormatters } from "./import-formatters.js";
import { formatManifest, isEmptyManifest, manifestPath, readManifest, updateManifest } from "./manifest.js";
import { loadRegistry } from "./registry.js";
import { RenderRegistry, type RenderCtx, registry as processRenderers } from "./render.js";
import { discoverScopes } from "./scopes.js";
import type { BuildStore } from "./store.js";
import { type Target, packagePrefixOf } from "./target.js";
import { createTemplateEnv } from "./templating.js";
import {
  GeneratedFile,
  type KeptFile,
  type ManifestWrite,
  type PlanAction,
  type PlannedChange,
  applyPlan,
  planWrites,
} from "./writer.js";
import { planDeletions } from "./prune.js";

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
}

/** What a run produced and decided, before or after writing: the one result every mode reads. */
export interface GenerateResult {
  /** Absolute output directory. */
  outDir: string;
  /** Every generated file, sorted by path. */
  files: GeneratedFile[];
  /**
   * Every generated file with its action (`create`, `overwrite`, `unchanged`, `skip`) and every
   * stale file of an earlier run to `delete`, sorted by path.
   */
  plan: PlannedChange[];
  /** Stale files left in place because they changed since codegen wrote them. */
  kept: KeptFile[];
  /** The manifest to write, or undefined when it is already up to date (or there is nothing to record). */
  manifest: ManifestWrite | undefined;
}

/**
 * Builds every file in memory and plans the run: writes, deletions of stale files recorded in
 * the output directory's manifest, and the new manifest. Writes nothing.
 * @throws ConfigError for a bad config; GenerationError for bad output paths, conflicting
 * fragments or a corrupt manifest, naming the config file and paths when they are the cause.
 */
export async function planGeneration(options: GenerateOptions): Promise<GenerateResult> {
  const { target, configFile } = options;
  const config = await loadConfig(configFile, target, { stdlibTargets: options.stdlibTargets ?? [target] });
  const { files, originsOf } = await buildOutput(target, config, { configFile, cwd: options.cwd });
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? defaultOutDir(packagePrefixOf(target, config)));
  try {
    const writes = await planWrites(files, outDir, { force: options.force, forcePaths: options.forcePaths });
    const stored = await readManifest(outDir);
    const { next, stale } = updateManifest(stored.recorded, target.name, writes);
    const { deletions, kept } = await planDeletions(stale, outDir);
    const plan: PlannedChange[] = [...writes, ...deletions].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const content = formatManifest(next);
    // Rewritten only when it changes; not created at all while there is nothing to record.
    const needed = stored.text === undefined ? !isEmptyManifest(next) : stored.text !== content;
    const manifest = needed ? { absolutePath: manifestPath(outDir), content } : undefined;
    return { outDir, files, plan, kept, manifest };
  } catch (error) {
    // Only a problem with generated paths is the config's doing; name it and where it came from.
    if (error instanceof GenerationError && error.outputPaths.length > 0) {
      throw error.withContext({ file: configFile, sources: error.outputPaths.flatMap(originsOf) });
    }
    throw error;
  }
}

/** Generates and writes (deleting stale files, updating the manifest); returns the result with the number of files written. */
export async function generate(options: GenerateOptions): Promise<GenerateResult & { written: number }> {
  const result = await planGeneration(options);
  const written = await applyPlan(result.plan, { manifest: result.manifest });
  return { ...result, written };
}

/** How many plan entries have each action. */
export function countActions(plan: readonly PlannedChange[]): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, overwrite: 0, unchanged: 0, skip: 0, delete: 0 };
  for (const entry of plan) counts[entry.action]++;
  return counts;
}

/**
 * The entries that make the output directory differ from what this run generates: files to
 * create or overwrite and stale files to delete (an existing `skip` file is not drift).
 */
export function driftOf(plan: readonly PlannedChange[]): PlannedChange[] {
  return plan.filter((entry) => entry.action === "create" || entry.action === "overwrite" || entry.action === "delete");
}

/** Runs the engine and renderers over an already validated config. */
export async function buildFiles(target: Target, config: unknown, options: { configFile?: string; cwd?: string } = {}): Promise<GeneratedFile[]> {
  return (await buildOutput(target, config, options)).files;
}

/** The files, and for each output path the config paths of the scope instances whose outputs made it. */
interface BuiltOutput {
  files: GeneratedFile[];
  originsOf: (outputPath: string) => string[];
}

async function buildOutput(target: Target, config: unknown, options: { configFile?: string; cwd?: string }): Promise<BuiltOutput> {
  await loadImportFormatters({ cwd: options.cwd });
  const packagePrefix = packagePrefixOf(target, config);
  const registry = await loadRegistry(target.operationsEntryPoint, { cwd: options.cwd });
  let store: BuildStore;
  try {
    store = new Engine(registry, { packagePrefix, scopes: discoverScopes(target.schema) }).build(config);
  } catch (error) {
    // The engine knows neither the file nor the target; say both, as the loader does.
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`invalid configuration for target "${target.name}"`, { file: error.file ?? options.configFile, issues: error.issues });
  }

  const renderers = new RenderRegistry({ fallback: processRenderers });
  target.registerRenderers?.(renderers);
  const env = createTemplateEnv(target.templateDir);
  const fragments: Fragment[] = [];
  const origins = new Map<Fragment, string>();
  const pathOrigins = new Map<string, Set<string>>();
  for (const [instanceId, , outputs] of store.entries()) {
    const ctx: RenderCtx = { env, config, packagePrefix, language: target.language, targetName: target.name, store, instanceId };
    const origin = store.configPathOf(instanceId);
    for (const output of outputs) {
      for (const fragment of renderers.render(output, ctx)) {
        fragments.push(fragment);
        origins.set(fragment, origin);
        if (!pathOrigins.has(fragment.path)) pathOrigins.set(fragment.path, new Set());
        pathOrigins.get(fragment.path)!.add(origin);
      }
    }
  }
  try {
    const assembled = assemble(fragments, {
      env,
      language: target.language,
      targetName: target.name,
      importOptions: target.importOptions?.(config),
      originOf: (fragment) => origins.get(fragment),
    });
    const files = target.formatFile ? await formatFiles(assembled, target.formatFile.bind(target)) : assembled;
    return { files, originsOf: (outputPath) => [...(pathOrigins.get(outputPath) ?? [])] };
  } catch (error) {
    throw error instanceof GenerationError && options.configFile ? error.withContext({ file: options.configFile }) : error;
  }
}

/** Each file through the target's formatter; a file it leaves as it is keeps its object. */
async function formatFiles(files: GeneratedFile[], format: (path: string, content: string) => Promise<string>): Promise<GeneratedFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const content = await format(file.path, file.content);
      return content === file.content ? file : new GeneratedFile({ path: file.path, content, ifExists: file.ifExists, executable: file.executable });
    }),
  );
}

/** `blog.api` → `blog/api`; an empty prefix → the current directory. */
export function defaultOutDir(packagePrefix: string): string {
  return packagePrefix === "" ? "." : packagePrefix.split(".").join("/");
}
