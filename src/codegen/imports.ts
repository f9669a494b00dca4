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

/**
 * Registers the formatter for `language`, replacing any earlier one.
 *
 * @example registerImportFormatter("python", pythonImports);
 */
export function registerImportFormatter(language: string, formatter: ImportFormatter): void {
  formatters.set(language, formatter);
}

/**
 * The formatter registered for `language`, if any.
 *
 * @example importFormatterFor("python")?.(collector, {});
 */
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
  // Flat lists, duplicates and all, made on first use (most collectors stay empty): a run holds
  // tens of thousands of collectors until its files are assembled, and a Set per module made
  // them a quarter of the build's memory. Reading sorts and deduplicates; a list that keeps
  // growing by merges is compacted, so repeats never pile up.
  #bare: string[] | undefined;
  /** Pairs, flat: module, name, module, name, … */
  #from: string[] | undefined;
  #compactedAt = 0;

  /** Adds a bare import of `module`. Returns the collector for chaining. */
  add(module: string): this {
    this.#bare = append(this.#bare, [module]);
    return this.#compactIfLong();
  }

  /** Adds `names` imported from `module`; no names adds nothing. Returns the collector for chaining. */
  addFrom(module: string, ...names: string[]): this {
    if (names.length === 0) return this;
    const from = this.#from;
    if (from === undefined) {
      // Made the size of its pairs: a list grown from empty by push reserves 17 slots.
      const pairs: string[] = new Array<string>(2 * names.length);
      names.forEach((name, index) => {
        pairs[2 * index] = module;
        pairs[2 * index + 1] = name;
      });
      this.#from = pairs;
    } else for (const name of names) from.push(module, name);
    return this.#compactIfLong();
  }

  /** Merges every import of `other` into this collector. Returns the collector for chaining. */
  update(other: ImportCollector): this {
    if (other.#bare !== undefined) this.#bare = append(this.#bare, other.#bare);
    if (other.#from !== undefined) this.#from = append(this.#from, other.#from);
    return this.#compactIfLong();
  }

  /** Drops repeats once the lists have doubled since they were last without any. */
  #compactIfLong(): this {
    const length = (this.#bare?.length ?? 0) + (this.#from?.length ?? 0);
    if (length <= 256 || length <= 2 * this.#compactedAt) return this;
    if (this.#bare !== undefined) this.#bare = [...new Set(this.#bare)];
    if (this.#from !== undefined) {
      const pairs: string[] = [];
      for (const [module, names] of namesByModule(this.#from)) for (const name of names) pairs.push(module, name);
      this.#from = pairs;
    }
    this.#compactedAt = (this.#bare?.length ?? 0) + (this.#from?.length ?? 0);
    return this;
  }

  /** A collector holding the same imports, unchanged by later additions to this one. */
  copy(): ImportCollector {
    return new ImportCollector().update(this);
  }

  /**
   * Formats the imports with the formatter registered for `language`.
   *
   * @throws KeyError when no formatter is registered for `language`.
   */
  format(language: string, options: ImportFormatOptions = {}): string {
    const formatter = importFormatterFor(language);
    if (!formatter) {
      const known = [...formatters.keys()].sort();
      const hint = known.length > 0 ? `registered: ${known.join(", ")}` : "none is registered";
      throw new KeyError(`no import formatter for language "${language}" (${hint})`);
    }
    return formatter(this, options);
  }

  /** Modules imported bare, sorted, each once. */
  get bareModules(): string[] {
    return this.#bare === undefined ? [] : [...new Set(this.#bare)].sort();
  }

  /** From-imports by module: a read-only copy, modules and names in sorted order. */
  get fromImports(): ReadonlyMap<string, ReadonlySet<string>> {
    return new Map(this.sortedFromImports.map(([module, names]) => [module, new Set(names)]));
  }

  /** From-imports as `[module, names]` pairs sorted by module, names sorted within each, each once. */
  get sortedFromImports(): [module: string, names: string[]][] {
    if (this.#from === undefined) return [];
    const byModule = namesByModule(this.#from);
    return [...byModule.keys()].sort().map((module) => [module, [...byModule.get(module)!].sort()]);
  }

  /** True when nothing has been added. */
  get isEmpty(): boolean {
    return (this.#bare === undefined || this.#bare.length === 0) && (this.#from === undefined || this.#from.length === 0);
  }
}

/** Flat module, name pairs as each module's names, once each, in the order first added. */
function namesByModule(pairs: readonly string[]): Map<string, Set<string>> {
  const byModule = new Map<string, Set<string>>();
  for (let index = 0; index < pairs.length; index += 2) {
    const names = byModule.get(pairs[index]!);
    if (names === undefined) byModule.set(pairs[index]!, new Set([pairs[index + 1]!]));
    else names.add(pairs[index + 1]!);
  }
  return byModule;
}

/**
 * `list` with `more` appended, `more` read to its length before the call (it may be `list`
 * itself); without `list`, a copy of `more` the size of it: a list grown by `push` from empty
 * reserves room for 17 items, and most collectors hold one or two imports.
 */
function append(list: string[] | undefined, more: readonly string[]): string[] {
  if (list === undefined) return more.slice();
  const length = more.length;
  // A loop: spreading a long list into `push` overflows the stack.
  for (let index = 0; index < length; index++) list.push(more[index]!);
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
