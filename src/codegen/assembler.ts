// The assembler merges every fragment of a path into one file, in memory. SPEC's merge
// rules: fragments agree on the template; contexts unify (a conflicting shared key is an
// error); overwrite beats skip; executable true wins; banner false wins. Snippets append to
// a list slot of the file's context. Output order is sorted by path, so runs are reproducible.

import { isDeepStrictEqual } from "node:util";
import type nunjucks from "nunjucks";
import { bannerFor, withBanner } from "./banner.js";
import { GenerationError } from "./errors.js";
import { FileFragment, type Fragment, SnippetFragment } from "./fragments.js";
import { ImportCollector, type ImportFormatOptions, formatImports } from "./imports.js";
import type { IfExists } from "./outputs.js";
import { comparePaths } from "./paths.js";
import { renderTemplate } from "./templating.js";
import { GeneratedFile } from "./writer.js";

/** What the assembler needs besides the fragments. */
export interface AssembleOptions {
  env: nunjucks.Environment;
  /** Language of the target, for import formatting and the banner's fallback comment syntax. */
  language: string;
  /** Named in the banner (`codegen generate --target <name>`). */
  targetName: string;
  importOptions?: ImportFormatOptions;
  /**
   * Where a fragment came from: the config path of the scope instance whose output it
   * rendered (`people[1]`). Conflict errors name them. @default none known
   */
  originOf?: (fragment: Fragment) => string | undefined;
}

/** Context key under which a file's formatted imports reach its template. */
export const IMPORTS_KEY = "imports";

interface MergedFile {
  path: string;
  template: string;
  context: Record<string, unknown>;
  /** The file's own collector: a renderer may share a fragment's between files. */
  imports: ImportCollector;
  ifExists: IfExists;
  executable: boolean;
  banner: boolean;
  /** Origin of the fragment that declared the file, and of the one that set each context key. */
  origin: string | undefined;
  keyOrigins: Map<string, string | undefined>;
  /** Context keys holding a list this file owns (copied by its first snippet), so later snippets append in place. */
  ownSlots: Set<string>;
}

/** A snippet as it arrived: its item already rendered (the fragment and its context can go), to be placed once every file is merged. */
interface ArrivedSnippet {
  path: string;
  slot: string;
  item: unknown;
  imports: ImportCollector;
  origin: string | undefined;
}

/**
 * Merges fragments into files. Throws `GenerationError` naming the file, template or key on a conflict.
 * A snippet's template is rendered as the snippet arrives, so its context dies young instead of
 * living (and being promoted by the garbage collector) until every fragment is in.
 */
export function assemble(fragments: Iterable<Fragment>, options: AssembleOptions): GeneratedFile[] {
  const files = new Map<string, MergedFile>();
  const snippets: ArrivedSnippet[] = [];
  const originOf = options.originOf ?? (() => undefined);
  for (const fragment of fragments) {
    if (fragment instanceof FileFragment) mergeFile(files, fragment, originOf(fragment));
    else snippets.push(arrive(fragment, options.env, originOf(fragment)));
  }
  for (const snippet of snippets) appendSnippet(files, snippet);

  return [...files.values()].sort((a, b) => comparePaths(a.path, b.path)).map((file) => renderFile(file, options));
}

function arrive(snippet: SnippetFragment, env: nunjucks.Environment, origin: string | undefined): ArrivedSnippet {
  const item = snippet.template !== undefined ? renderTemplate(env, snippet.template, snippet.context).trim() : snippet.value;
  return { path: snippet.path, slot: snippet.slot, item, imports: snippet.imports, origin };
}

function mergeFile(files: Map<string, MergedFile>, fragment: FileFragment, origin: string | undefined): void {
  const existing = files.get(fragment.path);
  const fail = (problem: string, sources: (string | undefined)[]) =>
    new GenerationError(problem, { sources: defined(sources), outputPaths: [fragment.path] });
  if (!existing) {
    files.set(fragment.path, {
      path: fragment.path,
      template: fragment.template,
      context: { ...fragment.context },
      imports: fragment.imports.copy(),
      ifExists: fragment.ifExists,
      executable: fragment.executable,
      banner: fragment.banner,
      origin,
      keyOrigins: new Map(Object.keys(fragment.context).map((key) => [key, origin])),
      ownSlots: new Set(),
    });
    return;
  }
  if (existing.template !== fragment.template) {
    throw fail(
      `${fragment.path}: fragments disagree on the template ("${existing.template}" and "${fragment.template}")`,
      [existing.origin, origin],
    );
  }
  for (const [key, value] of Object.entries(fragment.context)) {
    if (key in existing.context && !isDeepStrictEqual(existing.context[key], value)) {
      throw fail(
        `${fragment.path}: fragments of template "${fragment.template}" disagree on context key "${key}"`,
        [existing.keyOrigins.get(key), origin],
      );
    }
    if (!(key in existing.context)) existing.keyOrigins.set(key, origin);
    existing.context[key] = value;
  }
  existing.imports.update(fragment.imports);
  if (fragment.ifExists === "overwrite") existing.ifExists = "overwrite";
  existing.executable ||= fragment.executable;
  existing.banner &&= fragment.banner;
}

function appendSnippet(files: Map<string, MergedFile>, snippet: ArrivedSnippet): void {
  const file = files.get(snippet.path);
  if (!file) {
    throw snippetError(snippet, `a snippet for slot "${snippet.slot}" has no file fragment declaring the file`, [snippet.origin]);
  }
  const slot = file.context[snippet.slot] ?? [];
  if (!Array.isArray(slot)) {
    throw snippetError(snippet, `context key "${snippet.slot}" is not a list; snippets cannot append to it`, [file.keyOrigins.get(snippet.slot), snippet.origin]);
  }
  // The first snippet copies the fragment's list (never changed in place); later ones append to the copy.
  if (file.ownSlots.has(snippet.slot)) slot.push(snippet.item);
  else {
    file.context[snippet.slot] = [...slot, snippet.item];
    file.ownSlots.add(snippet.slot);
  }
  file.imports.update(snippet.imports);
}

function snippetError(snippet: ArrivedSnippet, problem: string, sources: (string | undefined)[]): GenerationError {
  return new GenerationError(`${snippet.path}: ${problem}`, { sources: defined(sources), outputPaths: [snippet.path] });
}

function renderFile(file: MergedFile, options: AssembleOptions): GeneratedFile {
  if (IMPORTS_KEY in file.context) {
    throw new GenerationError(`${file.path}: context key "${IMPORTS_KEY}" is reserved for the file's imports`, {
      sources: defined([file.keyOrigins.get(IMPORTS_KEY)]),
      outputPaths: [file.path],
    });
  }
  const imports = file.imports.isEmpty ? "" : formatImports(file.imports, options.language, options.importOptions);
  // The context is the file's own copy (mergeFile), so the imports go in without another copy.
  file.context[IMPORTS_KEY] = imports;
  let content = file.template.trim() === "" ? "" : renderTemplate(options.env, file.template, file.context);
  // trimEnd strips exactly what /\s+$/ matches, without the regex's quadratic backtracking.
  if (content !== "") content = `${content.trimEnd()}\n`;
  if (file.banner && content !== "") content = withBanner(content, bannerFor(file.path, options.targetName, options.language));
  return new GeneratedFile({ path: file.path, content, ifExists: file.ifExists, executable: file.executable });
}

function defined(sources: (string | undefined)[]): string[] {
  return sources.filter((source): source is string => source !== undefined);
}
