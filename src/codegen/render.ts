// The render registry maps output classes to renderers (output → fragments). Targets register
// their renderers explicitly (Target.registerRenderers); `StaticFile` is registered here
// because the engine owns it. Lookup follows the prototype chain so subclasses inherit.

import type nunjucks from "nunjucks";
import { LookupError } from "./errors.js";
import { FileFragment, type Fragment } from "./fragments.js";
import { StaticFile } from "./outputs.js";
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

/** Output class → renderer. Every registry renders the engine's own `StaticFile`. */
export class RenderRegistry {
  private readonly renderers = new Map<object, Renderer<unknown>>();

  constructor() {
    this.renders(StaticFile, renderStaticFile);
  }

  /** Registers `renderer` for outputs of `Type` (and its subclasses). A later registration replaces an earlier one. */
  renders<T>(Type: OutputClass<T>, renderer: Renderer<T>): void {
    this.renderers.set(Type, renderer as Renderer<unknown>);
  }

  /** True when a renderer is registered for exactly this class. */
  has(Type: OutputClass<unknown>): boolean {
    return this.renderers.has(Type);
  }

  /** Renders one output. Throws `LookupError` when no renderer is registered for its class. */
  render(output: unknown, ctx: RenderCtx): Fragment[] {
    for (let proto = Object.getPrototypeOf(output); proto; proto = Object.getPrototypeOf(proto)) {
      const renderer = this.renderers.get(proto.constructor);
      if (renderer) return [...renderer(output, ctx)];
    }
    const name = (output as object | null)?.constructor?.name ?? typeof output;
    throw new LookupError(`no renderer registered for output type ${name}`);
  }
}

/** A `StaticFile` is one file fragment, as is. */
function renderStaticFile(file: StaticFile): Fragment[] {
  return [
    new FileFragment({
      path: file.path,
      template: file.template,
      context: file.context,
      ifExists: file.ifExists,
      executable: file.executable,
      banner: file.banner,
    }),
  ];
}

/** The process-wide registry the CLI renders with. */
export const registry = new RenderRegistry();
