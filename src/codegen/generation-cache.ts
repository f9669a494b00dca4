// What one process carries from a run of a generation to the next (watch mode): the loaded
// operation registry, compiled templates and what they rendered, each file's formatted text,
// a jsonnet config's evaluation while none of the files it read changed, and what the output
// directory holds. Every entry is checked against what it was made from (or dropped when
// that changes), so a reused value is never stale.

import { extname } from "node:path";
import type nunjucks from "nunjucks";

import { evaluateConfigFile, evaluateJsonnetText, jsonnetLibraryDirs } from "./config.js";
import { type JsonnetInputs, jsonnetInputs } from "./jsonnet-imports.js";
import { type FormatMemory, FormatAnswers } from "./format-pool.js";
import { loadImportFormatters } from "./import-formatters.js";
import type { BuildMemory } from "./incremental.js";
import { OutputMemory } from "./output-memory.js";
import type { ValidationMemory } from "./validation-memory.js";
import { type OperationRegistry, loadRegistry } from "./registry.js";
import { RenderMemo } from "./render-memo.js";
import type { Target } from "./target.js";
import { createTemplateEnv } from "./templating.js";

/** A watch's memory of one target's last good validation and build. */
export interface IncrementalMemory {
  validation: ValidationMemory;
  build: BuildMemory;
}

/**
 * Reusable results of earlier runs in this process; pass the same one to every run of a watch.
 * Plugins are loaded once; templates stay compiled until {@link templatesChanged}.
 * @example const cache = new GenerationCache(); await generate({ ...options, cache });
 */
export class GenerationCache {
  #registries = new Map<string, Promise<OperationRegistry>>();
  #formatters: Promise<unknown> | undefined;
  #envs = new Map<string, nunjucks.Environment>();
  #renderMemos = new WeakMap<nunjucks.Environment, RenderMemo>();
  #config: { file: string; inputs: Map<string, string>; json: string } | undefined;
  #inputs: JsonnetInputs | undefined;
  #outputs = new Map<string, OutputMemory>();
  #incremental = new Map<string, IncrementalMemory>();

  /**
   * What the last good run of `target` parsed (validation-memory.ts) and built
   * (incremental.ts), for a watch to redo only what changed; undefined for a target that names
   * no `unitScope`, which a watch rebuilds whole.
   */
  async incrementalMemory(target: Target): Promise<IncrementalMemory | undefined> {
    if (target.unitScope === undefined) return undefined;
    // Imported here, not above: a run that is not a watch never loads the incremental machinery.
    const { BuildMemory, ValidationMemory } = await import("./watch-build.js");
    let memory = this.#incremental.get(target.name);
    if (!memory) this.#incremental.set(target.name, (memory = { validation: new ValidationMemory(), build: new BuildMemory() }));
    return memory;
  }

  /** What earlier runs wrote to (or found in) the output directory `outDir` (absolute). */
  outputMemory(outDir: string): OutputMemory {
    let memory = this.#outputs.get(outDir);
    if (!memory) {
      memory = new OutputMemory(outDir);
      this.#outputs.set(outDir, memory);
    }
    return memory;
  }

  /** Reads ahead the identities of the files earlier runs wrote, for the next run's planning (watch mode, while a change settles). */
  readOutputsAhead(): void {
    for (const memory of this.#outputs.values()) memory.readAhead();
  }

  /** Forgets what {@link readOutputsAhead} read (a run failed before planning). */
  dropOutputsAhead(): void {
    for (const memory of this.#outputs.values()) memory.dropReadAhead();
  }

  /** The registry of `group`, loaded once per working directory. */
  registry(group: string, cwd: string | undefined): Promise<OperationRegistry> {
    const key = `${cwd ?? ""}\0${group}`;
    let registry = this.#registries.get(key);
    if (!registry) {
      registry = loadRegistry(group, { cwd });
      // A failed load (a broken plugin) is tried again next run rather than remembered.
      registry.catch(() => this.#registries.delete(key));
      this.#registries.set(key, registry);
    }
    return registry;
  }

  /** Registers the installed import formatters, once. */
  async importFormatters(cwd: string | undefined): Promise<void> {
    this.#formatters ??= loadImportFormatters({ cwd });
    await this.#formatters;
  }

  /** A template environment over `dirs` that keeps its compiled templates until {@link templatesChanged}. */
  templateEnv(dirs: readonly string[]): nunjucks.Environment {
    const key = dirs.join("\0");
    let env = this.#envs.get(key);
    if (!env) {
      env = createTemplateEnv(...dirs);
      this.#envs.set(key, env);
    }
    return env;
  }

  /** What the last run rendered with `env` (a cached {@link templateEnv}), to reuse where nothing changed. */
  renderMemo(env: nunjucks.Environment): RenderMemo {
    let memo = this.#renderMemos.get(env);
    if (!memo) {
      memo = new RenderMemo(env);
      this.#renderMemos.set(env, memo);
    }
    return memo;
  }

  /** A template file changed (or appeared, or went): the next run compiles templates afresh. */
  templatesChanged(): void {
    this.#envs.clear();
  }

  /**
   * The formatter's last answer per path: a file whose assembled text did not change is not
   * formatted again (`Target.formatter` answers by path and content alone).
   */
  readonly formatted: FormatMemory = new FormatAnswers();

  /**
   * The config's data, as `evaluateConfigFile` gives it. A jsonnet config is evaluated again
   * only when the config or a file it imports changed (compared by content); otherwise the
   * last evaluation's JSON is parsed again, so no run sees another's objects.
   */
  async evaluatedConfig(configFile: string, stdlibTargets: readonly Target[]): Promise<unknown> {
    if (extname(configFile) !== ".jsonnet") {
      this.#inputs = undefined;
      return evaluateConfigFile(configFile, stdlibTargets);
    }
    const libraryDirs = jsonnetLibraryDirs(stdlibTargets);
    const inputs = jsonnetInputs(configFile, libraryDirs);
    this.#inputs = inputs;
    const last = this.#config;
    if (last?.file === configFile && sameContents(last.inputs, inputs.files)) return JSON.parse(last.json);
    this.#config = undefined;
    // The evaluating process stays for the next run (jsonnet-process.ts); after a crash, a new one starts.
    const json = await evaluateJsonnetText(configFile, libraryDirs, { keepChild: true });
    this.#config = { file: configFile, inputs: inputs.files, json };
    return JSON.parse(json);
  }

  /** The files the last jsonnet evaluation read and the unresolved imports, or undefined for a JSON config. */
  get lastConfigInputs(): JsonnetInputs | undefined {
    return this.#inputs;
  }
}

function sameContents(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [file, content] of a) if (b.get(file) !== content) return false;
  return true;
}
