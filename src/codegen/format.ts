// Formats assembled files with the target's formatter module (`Target.formatter`), in this
// process. A file whose assembled text is the one the output directory's manifest recorded,
// formatted by the same code, takes its formatted text from the file written then, while that
// file still holds exactly what was written: after a one-resource edit only that resource's
// files are formatted again.

import { readFileSync } from "node:fs";
import path from "node:path";

import { type RecordedFile, sha256 } from "./prune.js";
import { GeneratedFile } from "./writer.js";

type FormatFile = (path: string, content: string) => Promise<string>;

/** Where a formatter module's `formatAll` formats: the run's output directory, absolute, when it has one. */
export interface FormatContext {
  outDir?: string;
}

/**
 * A formatter module's optional `formatAll` export: every file of a run in one call (a tool
 * that pays a start-up per call pays it once), the texts in the files' order, and what
 * formatted them (`--timings` prints it).
 */
export type FormatAll = (files: readonly { path: string; content: string }[], context: FormatContext) => Promise<{ contents: string[]; by?: string }>;

interface FormatterModule {
  formatFile: FormatFile;
  formatAll?: FormatAll;
}

/** The module's `formatFile` and `formatAll` (Node loads a module once per process). */
async function formatterOf(module: string): Promise<FormatterModule> {
  const loaded = (await import(module)) as Partial<FormatterModule>;
  if (typeof loaded.formatFile !== "function") throw new TypeError(`formatter module ${module} has no formatFile export`);
  return { formatFile: loaded.formatFile, formatAll: typeof loaded.formatAll === "function" ? loaded.formatAll : undefined };
}

/** What the last writing run into the output directory recorded, to take formatted texts from. */
export interface EarlierFormatting {
  /** The output directory, absolute. */
  outDir: string;
  /** The target's recorded files by path. */
  recorded: ReadonlyMap<string, RecordedFile>;
}

/** The formatted files, and for each file the formatter changed, the SHA-256 of its assembled text (for the manifest). */
export interface Formatted {
  files: GeneratedFile[];
  assembled: Map<string, string>;
  /** What formatted the files, when the module's `formatAll` said. */
  by?: string;
}

/** What spares formatting a file. */
export interface FormatOptions {
  /** What the last write recorded, to take formatted texts from. @default nothing */
  earlier?: EarlierFormatting;
  /** Whether the file's text will not be used (a `skip` file already there): it stays as assembled. @default none */
  unused?: (file: GeneratedFile) => boolean;
  /** The output directory, for the module's `formatAll`. @default none */
  outDir?: string;
}

/**
 * Each file through the module's `formatAll` (else its `formatFile`), or from `earlier` where
 * it recorded the same assembled text. The array is updated in place and returned: each file's
 * assembled text is dropped as its formatted text takes its place, so through `formatFile` a
 * large run never holds both texts of every file (through `formatAll` it does, briefly).
 * @param module an importable URL of the formatter module (a target's `formatter`)
 */
export async function formatFiles(files: GeneratedFile[], module: string, options: FormatOptions = {}): Promise<Formatted> {
  const { earlier, unused } = options;
  const { formatFile, formatAll } = await formatterOf(module);
  const assembled = new Map<string, string>();
  const pending: { index: number; given?: string; kept?: string }[] = [];
  for (const [index, file] of files.entries()) {
    if (unused?.(file)) continue;
    const recorded = earlier?.recorded.get(file.path);
    const given = recorded === undefined ? undefined : sha256(file.content);
    // Recorded without `assembled`: the formatter left that text as it was.
    if (given !== undefined && given === recorded!.sha256 && recorded!.assembled === undefined) continue;
    const kept = given !== undefined && given === recorded!.assembled ? writtenText(path.join(earlier!.outDir, file.path), recorded!.sha256) : undefined;
    pending.push({ index, given, kept });
  }
  const unformatted = pending.filter((entry) => entry.kept === undefined).map((entry) => files[entry.index]!);
  const all = formatAll && unformatted.length > 0 ? await formatAll(unformatted, { outDir: options.outDir }) : undefined;
  let next = 0;
  for (const { index, given, kept } of pending) {
    const file = files[index]!;
    const content = kept ?? (all ? all.contents[next++]! : await formatFile(file.path, file.content));
    if (content === file.content) continue;
    assembled.set(file.path, given ?? sha256(file.content));
    files[index] = new GeneratedFile({ path: file.path, content, ifExists: file.ifExists, executable: file.executable });
  }
  return { files, assembled, by: all?.by };
}

/** The text of the file at `file` if it hashes to `expected`, else undefined (changed, gone, unreadable). */
export function writtenText(file: string, expected: string): string | undefined {
  try {
    const bytes = readFileSync(file);
    return sha256(bytes) === expected ? bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}
