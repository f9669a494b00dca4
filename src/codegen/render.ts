// The render registry maps output classes to renderers (output → fragments). Targets register
// their renderers explicitly (Target.registerRenderers) into a fresh registry per run, which
// falls back to the process-wide `registry`; `StaticFile` is registered in every registry
// because the engine owns it. Lookup follows the prototype chain so subclasses inherit.

import type nunjucks from "nunjucks";
import { LookupError } from "./errors.js";
import { FileFragment, type Fragment, SnippetFragment } from "./fragments.js";
import { Handle, StaticFile } from "./outputs.js";
import type { BuildStore } from "./store.js";

/** What a renderer knows besides the output it renders. */
export interface RenderCtx<C = any> {
  env: nunjucks.Environment;
  config: C;
  packagePrefix: string;
  language: string;
  targetName: string;
  store: BuildStore;
  /** Id of the scope instance whose operation produced the output. */
  instanceId: string;
}

/** Turns one output into the fragments of the files it contributes to. */
export type Renderer<T> = (output: T, ctx: RenderCtx) => Iterable<Fragment>;

type OutputClass<T> = abstract new (...args: any[]) => T;

/** Output class → renderer. Every registry renders the engine's own `StaticFile`, and renders every `Handle` as nothing. */
export class RenderRegistry {
  private readonly renderers = new Map<object, Renderer<unknown>>();
  private readonly fallback: RenderRegistry | undefined;

  /**
   * @param options.fallback consulted for an output whose class (and ancestors) has no
   *   renderer here. @default none
   * @example const perRun = new RenderRegistry({ fallback: registry });
   */
  constructor(options: { fallback?: RenderRegistry } = {}) {
    this.fallback = options.fallback;
    this.renders(StaticFile, renderStaticFile);
    this.renders(Handle, () => []); // a handle is a value for other outputs, not a file
  }

  /** Every class with a renderer here or in the fallback registry. */
  #renderedTypes(): object[] {
    return [...this.renderers.keys(), ...(this.fallback === undefined ? [] : this.fallback.#renderedTypes())];
  }

  /** The renderer of `output`'s class or nearest ancestor class here, else in the fallback registry. */
  #rendererOf(output: unknown): Renderer<unknown> | undefined {
    for (let proto: { constructor: object } | null = Object.getPrototypeOf(output); proto; proto = Object.getPrototypeOf(proto)) {
      const renderer = this.renderers.get(proto.constructor);
      if (renderer) return renderer;
    }
    return this.fallback === undefined ? undefined : this.fallback.#rendererOf(output);
  }

  /** Registers `renderer` for outputs of `Type` (and its subclasses). A later registration replaces an earlier one. */
  renders<T>(Type: OutputClass<T>, renderer: Renderer<T>): void {
    this.renderers.set(Type, renderer as Renderer<unknown>);
  }

  /**
   * Renders one output with the renderer of its class or nearest ancestor class, else with
   * the fallback registry.
   * @throws LookupError when neither this registry nor its fallback has a renderer for it.
   */
  render(output: unknown, ctx: RenderCtx): Fragment[] {
    // Primitives have prototypes too (and no renderer); null and undefined have none.
    const renderer = output === null || output === undefined ? undefined : this.#rendererOf(output);
    if (renderer) return checkFragments([...renderer(output, ctx)], output);
    const name = output === null ? "null" : ((output as object | undefined)?.constructor?.name ?? typeof output);
    // Usually two copies of one module (an engine from src/ and a plugin's "codegen-kit" from dist/).
    const twin = this.#renderedTypes().some((Type) => (Type as { name?: string }).name === name);
    const hint = twin
      ? `; a different class named ${name} has one, so two copies of its module are loaded` +
        " (run TypeScript sources with node --conditions=codegen-source)"
      : "";
    throw new LookupError(`no renderer registered for output type ${name}${hint}`);
  }
}

/** A renderer returning anything but fragments is a plugin bug; say which renderer. */
function checkFragments(items: unknown[], output: unknown): Fragment[] {
  for (const item of items) {
    if (!(item instanceof FileFragment) && !(item instanceof SnippetFragment)) {
      const got = item === null ? "null" : ((item as object | undefined)?.constructor?.name ?? typeof item);
      const of = (output as object).constructor?.name ?? typeof output;
      throw new TypeError(`the renderer of ${of} returned a ${got}, not a FileFragment or SnippetFragment`);
    }
  }
  return items as Fragment[];
}

/** A `StaticFile` is one file fragment, as is. */
function renderStaticFile(file: StaticFile): Fragment[] {
  return [new FileFragment(file)];
}

/**
 * The process-wide registry (SPEC's `codegen.render.registry`). `generate` renders each run
 * with a fresh registry holding the target's renderers, falling back to this one: a package
 * that adds an operation to another target can register its output's renderer here.
 */
export const registry = new RenderRegistry();
