// Collects the imports a generated file needs and hands them to a language's formatter.
// The collector is language-neutral (modules and names only); formatters live outside the
// engine and are registered per language, so the engine never knows a language's syntax.

import { KeyError } from "./errors.js";

/** Settings a formatter may honour. */
export interface ImportFormatOptions {
  /** Top-level packages of the generated project itself, grouped after third-party ones. @default [] */
  firstParty?: readonly string[];
}

/**
 * Turns a collector into the import block of one language, without a trailing newline.
 *
 * @example const plain: ImportFormatter = (c) => c.bareModules.map((m) => `import ${m}`).join("\n");
 */
export type ImportFormatter = (collector: ImportCollector, options: ImportFormatOptions) => string;

const formatters = new Map<string, ImportFormatter>();

/** Registers the formatter for `language`, replacing any earlier one. @example registerImportFormatter("python", pythonImports); */
export function registerImportFormatter(language: string, formatter: ImportFormatter): void {
  formatters.set(language, formatter);
}

/** The formatter registered for `language`, if any. @example importFormatterFor("python")?.(collector, {}); */
export function importFormatterFor(language: string): ImportFormatter | undefined {
  return formatters.get(language);
}

/**
 * Bare imports (`import os`) and from-imports (`from os import path`) of one file.
 * Adding the same module or name twice keeps one copy; every view is sorted.
 *
 * @example
 * const imports = new ImportCollector().add("uuid").addFrom("requests", "Session", "Request");
 * imports.format("python"); // "import uuid\n\nfrom requests import Request, Session"
 */
export class ImportCollector {
  // Flat lists with repeats, made on first use (most collectors stay empty): a run holds tens of
  // thousands of collectors until its files are assembled, and a Set per module made them a
  // quarter of the build's memory. Reads deduplicate; lists that merges keep doubling are compacted.
  #bare: string[] | undefined;
  #from: string[] | undefined; // module, name, module, name, …
  #compactedAt = 0;

  /** Adds a bare import of `module`. Returns the collector for chaining. */
  add(module: string): this {
    return this.#append([module], undefined);
  }

  /** Adds `names` imported from `module`; no names adds nothing. Returns the collector for chaining. */
  addFrom(module: string, ...names: string[]): this {
    const pairs = new Array<string>(2 * names.length);
    for (let index = 0; index < names.length; index++) {
      pairs[2 * index] = module;
      pairs[2 * index + 1] = names[index]!;
    }
    return this.#append(undefined, pairs);
  }

  /** Merges every import of `other` into this collector. Returns the collector for chaining. */
  update(other: ImportCollector): this {
    return this.#append(other.#bare, other.#from);
  }

  /** Appends the lists, then drops repeats once the lists have doubled since they last had none. */
  #append(bare: readonly string[] | undefined, from: readonly string[] | undefined): this {
    if (bare?.length) this.#bare = appended(this.#bare, bare);
    if (from?.length) this.#from = appended(this.#from, from);
    const length = (this.#bare?.length ?? 0) + (this.#from?.length ?? 0);
    if (length <= 256 || length <= 2 * this.#compactedAt) return this;
    this.#bare &&= [...new Set(this.#bare)];
    this.#from &&= [...namesByModule(this.#from)].flatMap(([module, names]) => [...names].flatMap((name) => [module, name]));
    this.#compactedAt = (this.#bare?.length ?? 0) + (this.#from?.length ?? 0);
    return this;
  }

  /** A collector holding the same imports, unchanged by later additions to this one. */
  copy(): ImportCollector {
    return new ImportCollector().update(this);
  }

  /** Formats the imports with the formatter registered for `language`. @throws KeyError when none is. */
  format(language: string, options: ImportFormatOptions = {}): string {
    const formatter = importFormatterFor(language);
    if (formatter) return formatter(this, options);
    const known = [...formatters.keys()].sort();
    throw new KeyError(`no import formatter for language "${language}" (${known.length > 0 ? `registered: ${known.join(", ")}` : "none is registered"})`);
  }

  /** Modules imported bare, sorted, each once. */
  get bareModules(): string[] {
    return [...new Set(this.#bare)].sort();
  }

  /** From-imports as `[module, names]` pairs sorted by module, names sorted within each, each once. */
  get sortedFromImports(): [module: string, names: string[]][] {
    const byModule = namesByModule(this.#from ?? []);
    return [...byModule.keys()].sort().map((module) => [module, [...byModule.get(module)!].sort()]);
  }

  /** True when nothing has been added. */
  get isEmpty(): boolean {
    return !this.#bare?.length && !this.#from?.length;
  }
}

/** Flat module, name pairs as each module's names, once each, in the order first added. */
function namesByModule(pairs: readonly string[]): Map<string, Set<string>> {
  const byModule = new Map<string, Set<string>>();
  for (let index = 0; index < pairs.length; index += 2) byModule.set(pairs[index]!, (byModule.get(pairs[index]!) ?? new Set()).add(pairs[index + 1]!));
  return byModule;
}

/** `list` with `more` appended, read to its length first (`more` may be `list`), by a loop (a spread into `push` overflows the stack); no `list`, a copy of `more` its size (grown from empty by `push`, a list reserves 17 slots, and most collectors hold one or two imports). */
function appended(list: string[] | undefined, more: readonly string[]): string[] {
  if (list === undefined) return more.slice();
  for (let index = 0, length = more.length; index < length; index++) list.push(more[index]!);
  return list;
}

/**
 * Formats `collector` for `language`; an empty language (a target without one) gives "".
 *
 * @throws KeyError when `language` is non-empty and has no registered formatter.
 * @example formatImports(collector, ""); // ""
 */
export function formatImports(collector: ImportCollector, language: string, options: ImportFormatOptions = {}): string {
  return language === "" ? "" : collector.format(language, options);
}
