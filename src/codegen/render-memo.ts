// What the assembler rendered in the last run of a process (watch mode), for one template
// environment: a file or snippet whose template and context are the same plain data as at the
// same place last run (compared with a copy of that context, plain-data.ts) gets the last text
// back instead of a nunjucks render, and a file whose imports are the same gets the last import
// block. A context holding anything but plain data (class instances, functions, undefined,
// NaN) is rendered afresh.

import type nunjucks from "nunjucks";
import { type ImportCollector, type ImportFormatOptions, type ImportFormatter, formatImports, importFormatterFor } from "./imports.js";
import { type Snapshot, matchesSnapshot, snapshotPlain } from "./plain-data.js";
import { renderTemplate } from "./templating.js";

/** A render kept for the next run: its template, a copy of its context as rendered, and the text. */
interface Rendered {
  template: string;
  context: Snapshot;
  text: string;
}

/** Kept for a place whose context was not plain data: rendered afresh, with no copy attempted while the process lives. */
const NOT_PLAIN = "not plain";

/** An import block kept for the next run, with what made it: the formatter, a copy of its options and of the imports. */
interface ImportBlock {
  formatter: ImportFormatter;
  options: Snapshot;
  imports: ImportCollector;
  text: string;
}

/** Memory of one environment's renders, between runs; bound to the environment it was made for. */
export class RenderMemo {
  readonly env: nunjucks.Environment;
  // Files by path, snippets by place (path, slot, count of snippets before it there): what the last run rendered there.
  #files = new Map<string, Rendered | typeof NOT_PLAIN>();
  #nextFiles = new Map<string, Rendered | typeof NOT_PLAIN>();
  #snippets = new Map<string, Rendered | typeof NOT_PLAIN>();
  #nextSnippets = new Map<string, Rendered | typeof NOT_PLAIN>();
  // Snippets of this run so far per file and slot, which place the next one.
  #arrivals = new Map<string, number>();
  // Import blocks by path.
  #imports = new Map<string, ImportBlock>();
  #nextImports = new Map<string, ImportBlock>();

  constructor(env: nunjucks.Environment) {
    this.env = env;
  }

  /** Starts a run: what the previous successful run rendered stays reusable, a failed run's leftovers go. */
  begin(): void {
    this.#nextFiles = new Map();
    this.#nextSnippets = new Map();
    this.#nextImports = new Map();
    this.#arrivals = new Map();
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
    return this.#render(this.#files, this.#nextFiles, path, template, context);
  }

  /**
   * `renderTemplate(env, template, context)` of the next snippet of this run for `slot` of the
   * file at `path`, reused when the snippet at that place (the same file, slot and count of
   * snippets before it) had the same template and context last run.
   */
  snippet(path: string, slot: string, template: string, context: object): string {
    const slotKey = `${path}\0${slot}`;
    const index = this.#arrivals.get(slotKey) ?? 0;
    this.#arrivals.set(slotKey, index + 1);
    return this.#render(this.#snippets, this.#nextSnippets, `${slotKey}\0${index}`, template, context);
  }

  /**
   * `formatImports(collector, language, options)` of the file at `path`, reused while the
   * collector holds the same imports and the language's formatter is the same function.
   */
  imports(path: string, collector: ImportCollector, language: string, options: ImportFormatOptions | undefined): string {
    const formatter = importFormatterFor(language);
    if (formatter === undefined) return formatImports(collector, language, options);
    const last = this.#imports.get(path);
    if (
      last !== undefined &&
      last.formatter === formatter &&
      matchesSnapshot(options ?? {}, last.options) &&
      last.imports.hasSameImports(collector)
    ) {
      this.#nextImports.set(path, last);
      return last.text;
    }
    const optionsSnapshot = snapshotPlain(options ?? {});
    const text = formatImports(collector, language, options);
    if (optionsSnapshot === undefined) return text;
    // A copy: the collector may be shared with a renderer, and the kept one must not change.
    this.#nextImports.set(path, { formatter, options: optionsSnapshot, imports: collector.copy(), text });
    return text;
  }

  #render(last: Map<string, Rendered | typeof NOT_PLAIN>, next: Map<string, Rendered | typeof NOT_PLAIN>, place: string, template: string, context: object): string {
    const previous = last.get(place);
    if (previous === NOT_PLAIN) {
      // The renderers' code is the same all process long, so such a context most likely is again.
      next.set(place, NOT_PLAIN);
      return renderTemplate(this.env, template, context);
    }
    if (previous !== undefined && previous.template === template && matchesSnapshot(context, previous.context)) {
      next.set(place, previous);
      return previous.text;
    }
    // Copied before rendering: the context as this render saw it is what the next run compares with.
    const snapshot = snapshotPlain(context);
    const text = renderTemplate(this.env, template, context);
    next.set(place, snapshot === undefined ? NOT_PLAIN : { template, context: snapshot, text });
    return text;
  }
}
