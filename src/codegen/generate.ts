// The whole run for one target: load the config, build outputs with the engine, render
// them to fragments, assemble files in memory, then plan and write. Every later step reads
// the same in-memory result, so nothing reaches disk unless everything rendered.

import { resolve } from "node:path";
import { loadConfig } from "./config.js";
import { Engine } from "./engine.js";
import { ConfigError } from "./errors.js";
import { assemble } from "./assembler.js";
import type { Fragment } from "./fragments.js";
import { loadImportFormatters } from "./import-formatters.js";
import { loadRegistry } from "./registry.js";
import { RenderRegistry, type RenderCtx, registry as processRenderers } from "./render.js";
import { discoverScopes } from "./scopes.js";
import type { BuildStore } from "./store.js";
import { type Target, packagePrefixOf } from "./target.js";
import { createTemplateEnv } from "./templating.js";
import { type GeneratedFile, type PlannedWrite, applyPlan, planWrites } from "./writer.js";

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

/** What a run produced and decided, before or after writing. */
export interface GenerateResult {
  outDir: string;
  files: GeneratedFile[];
  plan: PlannedWrite[];
}

/** Builds every file in memory and plans the writes; writes nothing. */
export async function planGeneration(options: GenerateOptions): Promise<GenerateResult> {
  const { target } = options;
  const config = await loadConfig(options.configFile, target, { stdlibTargets: options.stdlibTargets ?? [target] });
  const files = await buildFiles(target, config, { configFile: options.configFile, cwd: options.cwd });
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? defaultOutDir(packagePrefixOf(target, config)));
  const plan = await planWrites(files, outDir, { force: options.force, forcePaths: options.forcePaths });
  return { outDir, files, plan };
}

/** Generates and writes; returns the result with the number of files written. */
export async function generate(options: GenerateOptions): Promise<GenerateResult & { written: number }> {
  const result = await planGeneration(options);
  const written = await applyPlan(result.plan);
  return { ...result, written };
}

/** Runs the engine and renderers over an already validated config. */
export async function buildFiles(target: Target, config: unknown, options: { configFile?: string; cwd?: string } = {}): Promise<GeneratedFile[]> {
  await loadImportFormatters({ cwd: options.cwd });
  const packagePrefix = packagePrefixOf(target, config);
  const registry = await loadRegistry(target.operationsEntryPoint, { cwd: options.cwd });
  let store: BuildStore;
  try {
    store = new Engine(registry, { packagePrefix, scopes: discoverScopes(target.schema) }).build(config);
  } catch (error) {
    throw error instanceof ConfigError && options.configFile ? error.withFile(options.configFile) : error;
  }

  const renderers = new RenderRegistry({ fallback: processRenderers });
  target.registerRenderers?.(renderers);
  const env = createTemplateEnv(target.templateDir);
  const fragments: Fragment[] = [];
  for (const [instanceId, , outputs] of store.entries()) {
    const ctx: RenderCtx = { env, config, packagePrefix, language: target.language, targetName: target.name, store, instanceId };
    for (const output of outputs) fragments.push(...renderers.render(output, ctx));
  }
  return assemble(fragments, {
    env,
    language: target.language,
    targetName: target.name,
    importOptions: target.importOptions?.(config),
  });
}

/** `blog.api` → `blog/api`; an empty prefix → the current directory. */
export function defaultOutDir(packagePrefix: string): string {
  return packagePrefix === "" ? "." : packagePrefix.split(".").join("/");
}
