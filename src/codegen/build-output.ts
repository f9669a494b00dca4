// A validated config to files in memory: the engine builds the outputs, the renderers turn
// them into fragments (a config's template overrides first) and the assembler joins those
// into files. No output directory is read or written.

import type nunjucks from "nunjucks";

import { assemble } from "./assembler.js";
import { Engine } from "./engine.js";
import { ConfigError, GenerationError } from "./errors.js";
import { formatFiles } from "./format.js";
import type { Fragment } from "./fragments.js";
import { loadImportFormatters } from "./import-formatters.js";
import { type OperationRegistry, loadRegistry } from "./registry.js";
import { RenderRegistry, type RenderCtx, registry as processRenderers } from "./render.js";
import { discoverScopes } from "./scopes.js";
import type { BuildStore } from "./store.js";
import { type Target, packagePrefixOf } from "./target.js";
import { createTemplateEnv } from "./templating.js";
import { checkOverrides, overrideRenderError, userTemplatesOf } from "./user-templates.js";
import type { GeneratedFile } from "./writer.js";

/** Runs the engine, the renderers and the target's formatter over an already validated config. */
export async function buildFiles(target: Target, config: unknown, options: { configFile?: string; cwd?: string } = {}): Promise<GeneratedFile[]> {
  const built = renderStore(target, config, buildStore(target, config, await loadPlugins(target, options), options.configFile), options.configFile);
  return target.formatter === undefined ? built.files : (await formatFiles(built.files, target.formatter)).files;
}

/** The files, and for each output path the config paths of the scope instances whose outputs made it. */
export interface BuiltOutput {
  files: GeneratedFile[];
  originsOf: (outputPath: string) => string[];
}

/** The target's operation registry, with the installed import formatters registered: the plugins a build needs whatever the config says. */
export async function loadPlugins(target: Target, options: { cwd?: string }): Promise<OperationRegistry> {
  const [registry] = await Promise.all([loadRegistry(target.operationsEntryPoint, options), loadImportFormatters(options)]);
  return registry;
}

/**
 * Runs the target's operations over `config`.
 * @throws ConfigError naming the file and the target for invalid operation options.
 */
export function buildStore(target: Target, config: unknown, registry: OperationRegistry, configFile: string | undefined): BuildStore {
  const engine = new Engine(registry, { packagePrefix: packagePrefixOf(target, config), scopes: discoverScopes(target.schema) });
  try {
    return engine.build(config);
  } catch (error) {
    // The engine knows neither the file nor the target; say both, as the loader does.
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`invalid configuration for target "${target.name}"`, { file: error.file ?? configFile, issues: error.issues });
  }
}

/** Renders every output of a built store with the target's templates (a config's overrides first) and assembles the files. */
export function renderStore(target: Target, config: unknown, store: BuildStore, configFile: string | undefined): BuiltOutput {
  const overrides = configFile === undefined ? undefined : userTemplatesOf(config, configFile);
  if (overrides) checkOverrides(target, overrides);
  const env = overrides ? createTemplateEnv(overrides.dir, target.templateDir) : createTemplateEnv(target.templateDir);
  try {
    return renderWith(target, config, store, env, configFile);
  } catch (error) {
    // A failing override is the user's mistake: say which file and line, not where we called it.
    throw (overrides && overrideRenderError(error, overrides)) ?? error;
  }
}

/** Renders every output of a built store and assembles the files: the `render` phase alone (bench/render.ts times it). */
export function renderWith(target: Target, config: unknown, store: BuildStore, env: nunjucks.Environment, configFile: string | undefined): BuiltOutput {
  const packagePrefix = packagePrefixOf(target, config);
  const renderers = new RenderRegistry({ fallback: processRenderers });
  target.registerRenderers?.(renderers);
  // Weakly: the assembler takes each fragment as it is rendered and lets it go once merged.
  const origins = new WeakMap<Fragment, string>();
  // Kept past assembly for errors in planning, in place of the fragments: one set per path.
  const originsByPath = new Map<string, Set<string>>();
  function* fragments(): Generator<Fragment> {
    for (const [instanceId, , outputs] of store.entries()) {
      if (outputs.length === 0) continue;
      const ctx: RenderCtx = { env, config, packagePrefix, language: target.language, targetName: target.name, store, instanceId };
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
  try {
    const files = assemble(fragments(), {
      env,
      language: target.language,
      targetName: target.name,
      importOptions: target.importOptions?.(config),
      originOf: (fragment) => origins.get(fragment),
    });
    return { files, originsOf: originsLookup(originsByPath) };
  } catch (error) {
    throw error instanceof GenerationError && configFile ? error.withContext({ file: configFile }) : error;
  }
}

// Made out here, not in `renderWith`: a closure made there would keep its whole scope, the
// build store with it, alive until the files are written (peak memory).
function originsLookup(originsByPath: ReadonlyMap<string, ReadonlySet<string>>): (outputPath: string) => string[] {
  return (outputPath) => [...(originsByPath.get(outputPath) ?? [])];
}
