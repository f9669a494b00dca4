// What the assembler rendered in the last run of a process (watch mode), for one template
// environment: a file or snippet whose template and context are the same plain data again
// (compared as JSON text) gets the last text back instead of a nunjucks render, and a file
// whose imports are the same gets the last import block. Anything JSON cannot carry exactly
// (class instances, functions, undefined, NaN) is rendered afresh.

import type nunjucks from "nunjucks";
import { type ImportCollector, type ImportFormatOptions, type ImportFormatter, formatImports, importFormatterFor } from "./imports.js";
import { renderTemplate } from "./templating.js";

/** Memory of one environment's renders, between runs; bound to the environment it was made for. */
export class RenderMemo {
  readonly env: nunjucks.Environment;
  // Files by path: the context's JSON when last rendered, and the text.
  #files = new Map<string, { key: string; text: string }>();
  #nextFiles = new Map<string, { key: string; text: string }>();
  // Snippets by template and context's JSON.
  #snippets = new Map<string, string>();
  #nextSnippets = new Map<string, string>();
  // Import blocks by path, with the formatter that made them.
  #imports = new Map<string, { formatter: ImportFormatter; key: string; text: string }>();
  #nextImports = new Map<string, { formatter: ImportFormatter; key: string; text: string }>();

  constructor(env: nunjucks.Environment) {
    this.env = env;
  }

  /** Starts a run: what the previous successful run rendered stays reusable, a failed run's leftovers go. */
  begin(): void {
    this.#nextFiles = new Map();
    this.#nextSnippets = new Map();
    this.#nextImports = new Map();
  }

  /** Ends a successful run: only what it rendered is kept, so memory follows the output's size. */
  settle(): void {
    this.#files = this.#nextFiles;
    this.#snippets = this.#nextSnippets;
    this.#imports = this.#nextImports;
    this.begin();
  }

  /** `renderTemplate(env, template, context)` of the file at `path`, reused when nothing changed. */
  file(path: string, template: string, context: object): string {
    const json = plainJson(context);
    if (json === undefined) return renderTemplate(this.env, template, context);
    const key = `${template}\0${json}`;
    const last = this.#files.get(path);
    const text = last !== undefined && last.key === key ? last.text : renderTemplate(this.env, template, context);
    this.#nextFiles.set(path, { key, text });
    return text;
  }

  /**
   * `formatImports(collector, language, options)` of the file at `path`, reused while the
   * collector holds the same imports and the language's formatter is the same function.
   */
  imports(path: string, collector: ImportCollector, language: string, options: ImportFormatOptions | undefined): string {
    const formatter = importFormatterFor(language);
    const json = plainJson(options ?? {});
    if (formatter === undefined || json === undefined) return formatImports(collector, language, options);
    const key = `${language}\0${json}\0${JSON.stringify([collector.bareModules, collector.sortedFromImports])}`;
    const last = this.#imports.get(path);
    const text = last !== undefined && last.formatter === formatter && last.key === key ? last.text : formatImports(collector, language, options);
    this.#nextImports.set(path, { formatter, key, text });
    return text;
  }

  /** `renderTemplate(env, template, context)` of a snippet, reused when nothing changed. */
  snippet(template: string, context: object): string {
    const json = plainJson(context);
    if (json === undefined) return renderTemplate(this.env, template, context);
    const key = `${template}\0${json}`;
    const text = this.#snippets.get(key) ?? this.#nextSnippets.get(key) ?? renderTemplate(this.env, template, context);
    this.#nextSnippets.set(key, text);
    return text;
  }
}

/**
 * `JSON.stringify(value)` when that text determines what a template sees: only plain objects
 * (enumerable data properties only, no symbol keys), arrays, strings, booleans, null and finite numbers other
 * than -0. Otherwise undefined.
 */
export function plainJson(value: unknown): string | undefined {
  return isPlainData(value, 0) ? JSON.stringify(value) : undefined;
}

function isPlainData(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  // Deeper than this is no template context; a cycle would also end here.
  if (depth > 64) return false;
  if (Array.isArray(value)) {
    // Holes read as undefined but stringify as null.
    for (let index = 0; index < value.length; index++) {
      if (!(index in value) || !isPlainData(value[index], depth + 1)) return false;
    }
    return Object.getPrototypeOf(value) === Array.prototype;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const key of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!descriptor.enumerable || !("value" in descriptor) || !isPlainData(descriptor.value, depth + 1)) return false;
  }
  return true;
}
