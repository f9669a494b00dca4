// A validated config to files in memory: the engine builds the outputs, the renderers turn
// them into fragments (a config's template overrides first), the assembler joins those into
// files, and the target's formatter lays them out. No output directory is read or written.

import type nunjucks from "nunjucks";

import { assemble } from "./assembler.js";
import { Engine } from "./engine.js";
import { ConfigError, GenerationError } from "./errors.js";
import { type FormatMemory, formatFiles } from "./format-pool.js";
import type { Fragment } from "./fragments.js";
import type { GenerationCache } from "./generation-cache.js";
import type { BuildMemory } from "./incremental.js";
import { Frame, inFrame, judgingReuse } from "./read-tracking.js";
import { loadImportFormatters } from "./import-formatters.js";
import { type OperationRegistry, loadRegistry } from "./registry.js";
import type { RenderMemo } from "./render-memo.js";
import { RenderRegistry, type RenderCtx, registry as processRenderers } from "./render.js";
import { discoverScopes } from "./scopes.js";
import type { BuildStore } from "./store.js";
import { type Target, packagePrefixOf } from "./target.js";
import { createTemplateEnv } from "./templating.js";
import { type Phase, type PhaseTimer, timed } from "./timings.js";
import { type UserTemplates, checkOverrides, overrideRenderError, userTemplatesOf } from "./user-templates.js";
import type { GeneratedFile } from "./writer.js";

/** Runs the engine and renderers over an already validated config. */
export async function buildFiles(target: Target, config: unknown, options: { configFile?: string; cwd?: string } = {}): Promise<GeneratedFile[]> {
  return (await buildOutput(target, config, options)).files;
}

/** The files, and for each output path the config paths of the scope instances whose outputs made it. */
export interface BuiltOutput {
  files: GeneratedFile[];
  originsOf: (outputPath: string) => string[];
  userTemplatesDir?: string;
}

/** Where plugins are found and what earlier runs loaded (watch mode). */
interface PluginOptions {
  cwd?: string;
  cache?: GenerationCache;
}

/**
 * The target's operation registry, with the installed import formatters registered: the
 * plugins a build needs whatever the config says. `generate` starts loading them while the
 * config evaluates (a jsonnet evaluation runs in a child process).
 */
export async function loadPlugins(target: Target, options: PluginOptions): Promise<OperationRegistry> {
  const { cache, cwd } = options;
  const [registry] = await Promise.all([
    cache ? cache.registry(target.operationsEntryPoint, cwd) : loadRegistry(target.operationsEntryPoint, { cwd }),
    cache ? cache.importFormatters(cwd) : loadImportFormatters({ cwd }),
  ]);
  return registry;
}

export async function buildOutput(
  target: Target,
  config: unknown,
  options: {
    configFile?: string;
    cwd?: string;
    timer?: PhaseTimer;
    cache?: GenerationCache;
    signal?: AbortSignal;
    beforePhase?: (phase: Phase) => void;
    /** The plugins, when their loading has already started ({@link loadPlugins}). */
    plugins?: Promise<OperationRegistry>;
    /** The formatter's earlier answers to reuse. @default the watch's (`cache.formatted`), else none */
    formatMemory?: FormatMemory;
  },
): Promise<BuiltOutput> {
  // The store and the fragments die with `renderOutput`'s frame: formatting a large run must
  // not hold them too (peak memory, bench/README.md).
  const rendered = await renderOutput(target, config, options);
  const formatter = target.formatter;
  if (formatter === undefined) return rendered;
  const formatted = await timed(options, "format", () => formatFiles(rendered.files, formatter, { memory: options.formatMemory ?? options.cache?.formatted }));
  return { ...rendered, files: formatted };
}

/** Builds the store and renders it into assembled, unformatted files. */
async function renderOutput(
  target: Target,
  config: unknown,
  options: { configFile?: string; cwd?: string; timer?: PhaseTimer; cache?: GenerationCache; plugins?: Promise<OperationRegistry> },
): Promise<BuiltOutput> {
  const { cache } = options;
  // Watch mode: the last good run's memory, for a target that says what its units are.
  const incremental = typeof config === "object" && config !== null ? await cache?.incrementalMemory(target) : undefined;
  const memory = incremental?.build;
  let live = config;
  const store = await timed(options, "build", async () => {
    const registry = await (options.plugins ?? loadPlugins(target, options));
    const packagePrefix = packagePrefixOf(target, config);
    const engine = new Engine(registry, { packagePrefix, scopes: discoverScopes(target.schema) });
    try {
      if (!incremental) return engine.build(config);
      const { buildIncrementally } = await import("./watch-build.js");
      const { validation, build } = incremental;
      // The parses the validation reused are live objects already: the patch moves them, never merges into them.
      const landing = validation.landing();
      live = build.begin(config as object, [registry, packagePrefix], { reused: validation.reused, landed: landing.landed });
      landing.settle();
      return buildIncrementally(engine.prepare(live, build.keptSubtrees(target.unitScope!)), { memory: build, unitScope: target.unitScope! });
    } catch (error) {
      // The engine knows neither the file nor the target; say both, as the loader does.
      if (!(error instanceof ConfigError)) throw error;
      throw new ConfigError(`invalid configuration for target "${target.name}"`, { file: error.file ?? options.configFile, issues: error.issues });
    }
  });
  const overrides = options.configFile === undefined ? undefined : userTemplatesOf(config, options.configFile);
  if (overrides) checkOverrides(target, overrides);
  const templateDirs = overrides ? [overrides.dir, target.templateDir] : [target.templateDir];
  const env = cache ? cache.templateEnv(templateDirs) : createTemplateEnv(...templateDirs);
  const rendered = await timed(options, "render", () =>
    renderStore(target, live, store, env, options.configFile, overrides, { memo: cache?.renderMemo(env), memory }),
  );
  memory?.commit();
  return { ...rendered, userTemplatesDir: overrides?.dir };
}

/** Renders every output of the store and assembles the files. */
function renderStore(
  target: Target,
  config: unknown,
  store: BuildStore,
  env: nunjucks.Environment,
  configFile: string | undefined,
  overrides: UserTemplates | undefined,
  remembered: Remembered,
): BuiltOutput {
  try {
    return renderWith(target, config, store, env, configFile, remembered);
  } catch (error) {
    // A failing override is the user's mistake: say which file and line, not where we called it.
    throw (overrides && overrideRenderError(error, overrides)) ?? error;
  }
}

/** Renders every output of a built store and assembles the files: the `render` phase alone (bench/render.ts times it). */
export function renderWith(
  target: Target,
  config: unknown,
  store: BuildStore,
  env: nunjucks.Environment,
  configFile: string | undefined,
  { memo, memory }: Remembered = {},
): BuiltOutput {
  const packagePrefix = packagePrefixOf(target, config);

  const renderers = new RenderRegistry({ fallback: processRenderers });
  target.registerRenderers?.(renderers);
  const contextAt = (instanceId: string): RenderCtx => ({ env, config, packagePrefix, language: target.language, targetName: target.name, store, instanceId });
  const homeOf = (instanceId: string) => (target.unitScope === undefined ? undefined : store.ancestorIdOf(instanceId, target.unitScope));
  const assembling = { env, language: target.language, targetName: target.name, importOptions: target.importOptions?.(config), memo, memory };
  try {
    if (!memory) {
      // Weakly: the assembler takes each fragment as it is rendered and lets it go once merged.
      const origins = new WeakMap<Fragment, string>();
      // Kept past assembly for errors in planning, in place of the fragments: one set per path.
      const originsByPath = new Map<string, Set<string>>();
      function* fragments(): Generator<Fragment> {
        for (const [instanceId, , outputs] of store.entries()) {
          if (outputs.length === 0) continue;
          const ctx = contextAt(instanceId);
          const origin = store.configPathOf(instanceId);
          for (const output of outputs) {
            for (const fragment of renderers.render(output, ctx)) {
              origins.set(fragment, origin);
              const pathOrigins = originsByPath.get(fragment.path);
              if (pathOrigins) pathOrigins.add(origin);
              else originsByPath.set(fragment.path, new Set([origin]));
              yield fragment;
            }
          }
        }
      }
      const files = assemble(fragments(), { ...assembling, originOf: (fragment) => origins.get(fragment) });
      return { files, originsOf: originsLookup(originsByPath) };
    }
    // A watch: its memory keeps every fragment with its origin, so only the fragments rendered
    // this run are noted, and a path's origins are looked up only for an error. Cached
    // per-item work of the last good run is reused while rendering (weak-cache.ts).
    return judgingReuse(
      (frame) => memory.reusable(frame, store),
      () => {
        const rendered: Fragment[] = [];
        const byOutput: [origin: string, fragments: readonly Fragment[]][] = [];
        for (const [instanceId, , outputs] of store.entries()) {
          if (outputs.length === 0) continue;
          const ctx = contextAt(instanceId);
          const origin = store.configPathOf(instanceId);
          for (const output of outputs) {
            const fragments = renderRemembered(memory, renderers, output, ctx, () => homeOf(instanceId), origin);
            for (const fragment of fragments) rendered.push(fragment);
            byOutput.push([origin, fragments]);
          }
        }
        const files = assemble(rendered, { ...assembling, originOf: (fragment) => memory.originOf(fragment) });
        return { files, originsOf: originsFinder(byOutput) };
      },
    );
  } catch (error) {
    throw error instanceof GenerationError && configFile ? error.withContext({ file: configFile }) : error;
  }
}

/** What earlier runs of a watch rendered: texts by place (`memo`) and fragments by output (`memory`). */
interface Remembered {
  memo?: RenderMemo;
  memory?: BuildMemory;
}

/**
 * The output's fragments from its last render, if nothing that render read or asked changed;
 * else rendered afresh, tracked, each fragment's `origin` noted in the memory.
 */
function renderRemembered(memory: BuildMemory, renderers: RenderRegistry, output: unknown, ctx: RenderCtx, homeOf: () => string | undefined, origin: string): Fragment[] {
  if (typeof output !== "object" || output === null) return memory.noteOrigins(renderers.render(output, ctx), origin);
  if (renderers.rendersNothing(output)) return [];
  const last = memory.render(output, ctx.env);
  if (last && memory.answersHold(last.frame, ctx.store)) {
    memory.keepRender(output, last);
    return last.fragments;
  }
  // The output's unit was reused whenever this output is, so queries within the unit need no check.
  const frame = new Frame({ home: homeOf() });
  const fragments = inFrame(frame, () => renderers.render(output, ctx));
  // Work that gave nothing and read nothing costs less to do again than to remember.
  if (fragments.length > 0 || !frame.isEmpty) memory.keepRender(output, { env: ctx.env, frame, fragments });
  return memory.noteOrigins(fragments, origin);
}

// The two lookups below are made out here, not in `renderWith`: a closure made there would keep
// its whole scope, the build store with it, alive until the files are written (at 1,000
// resources, peak RSS 260 -> 316 MB).

/** A path's origins, from the sets a fresh run noted per path. */
function originsLookup(originsByPath: ReadonlyMap<string, ReadonlySet<string>>): (outputPath: string) => string[] {
  return (outputPath) => [...(originsByPath.get(outputPath) ?? [])];
}

/** A path's origins, found among a watch run's fragments by output, in order of first appearance. */
function originsFinder(byOutput: readonly (readonly [string, readonly Fragment[]])[]): (outputPath: string) => string[] {
  return (outputPath) => {
    const origins = new Set<string>();
    for (const [origin, fragments] of byOutput) if (fragments.some((fragment) => fragment.path === outputPath)) origins.add(origin);
    return [...origins];
  };
}
