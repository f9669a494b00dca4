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
  // Made on first use: most collectors (a snippet's, a parameter's) stay empty.
  #bare: Set<string> | undefined;
  #from: Map<string, Set<string>> | undefined;

  /** Adds a bare import of `module`. Returns the collector for chaining. */
  add(module: string): this {
    (this.#bare ??= new Set()).add(module);
    return this;
  }

  /** Adds `names` imported from `module`; no names adds nothing. Returns the collector for chaining. */
  addFrom(module: string, ...names: string[]): this {
    return names.length === 0 ? this : this.#addNames(module, names);
  }

  /** Merges every import of `other` into this collector. Returns the collector for chaining. */
  update(other: ImportCollector): this {
    for (const module of other.#bare ?? []) this.add(module);
    // Set into set, never spread: a run merges collectors tens of thousands of times.
    for (const [module, names] of other.#from ?? []) this.#addNames(module, names);
    return this;
  }

  #addNames(module: string, names: Iterable<string>): this {
    const existing = (this.#from ??= new Map()).get(module);
    if (existing === undefined) this.#from.set(module, new Set(names));
    else for (const name of names) existing.add(name);
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

  /** Modules imported bare, sorted. */
  get bareModules(): string[] {
    return this.#bare === undefined ? [] : [...this.#bare].sort();
  }

  /** From-imports by module: a read-only copy, modules and names in sorted order. */
  get fromImports(): ReadonlyMap<string, ReadonlySet<string>> {
    return new Map(this.sortedFromImports.map(([module, names]) => [module, new Set(names)]));
  }

  /** From-imports as `[module, names]` pairs sorted by module, names sorted within each. */
  get sortedFromImports(): [module: string, names: string[]][] {
    const from = this.#from;
    if (from === undefined) return [];
    return [...from.keys()].sort().map((module) => [module, [...from.get(module)!].sort()]);
  }

  /** True when nothing has been added. */
  get isEmpty(): boolean {
    return (this.#bare === undefined || this.#bare.size === 0) && (this.#from === undefined || this.#from.size === 0);
  }
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
