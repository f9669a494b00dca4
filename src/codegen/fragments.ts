// Fragments are what renderers produce: pieces of files, keyed by path. A `FileFragment`
// declares a file (its template and context); a `SnippetFragment` appends one item to a
// list in that file's context. The assembler merges all fragments of a path into one file.

import { ImportCollector } from "./imports.js";
import type { IfExists } from "./outputs.js";

/** Declares a file: its template, context and imports. Several may declare the same path if they agree. */
export class FileFragment {
  readonly path: string;
  /** Template name; a blank template means an empty file. */
  readonly template: string;
  readonly context: Record<string, unknown>;
  readonly imports: ImportCollector;
  /** @default "overwrite" */
  readonly ifExists: IfExists;
  /** @default false */
  readonly executable: boolean;
  /** @default true */
  readonly banner: boolean;

  constructor(options: {
    path: string;
    template: string;
    context?: Record<string, unknown>;
    imports?: ImportCollector;
    ifExists?: IfExists;
    executable?: boolean;
    banner?: boolean;
  }) {
    this.path = options.path;
    this.template = options.template;
    this.context = options.context ?? {};
    this.imports = options.imports ?? new ImportCollector();
    this.ifExists = options.ifExists ?? "overwrite";
    this.executable = options.executable ?? false;
    this.banner = options.banner ?? true;
  }
}

/**
 * Appends one item to `context[slot]` of the file at `path`: either a rendered `template`
 * (surrounding whitespace stripped) or a `value` passed through as is. Exactly one of the two.
 */
export class SnippetFragment {
  readonly path: string;
  readonly slot: string;
  readonly template: string | undefined;
  readonly context: Record<string, unknown>;
  readonly value: unknown;
  readonly imports: ImportCollector;

  constructor(options: {
    path: string;
    slot: string;
    template?: string;
    context?: Record<string, unknown>;
    value?: unknown;
    imports?: ImportCollector;
  }) {
    const hasTemplate = options.template !== undefined;
    const hasValue = "value" in options && options.value !== undefined;
    if (hasTemplate === hasValue) {
      throw new TypeError(
        `SnippetFragment for ${options.path} slot "${options.slot}" needs exactly one of template or value`,
      );
    }
    this.path = options.path;
    this.slot = options.slot;
    this.template = options.template;
    this.context = options.context ?? {};
    this.value = options.value;
    this.imports = options.imports ?? new ImportCollector();
  }
}

/** Anything a renderer may yield. */
export type Fragment = FileFragment | SnippetFragment;
