/**
 * A target whose formatter answers a text it has formatted before from memory: for the fuzzer,
 * whose hundreds of runs per target generate the same files again and again (the pages of a
 * resource no mutation touched, the static files). A formatter is a pure function of the path
 * and the text it is given, so the files are the ones the target's own formatter writes; each
 * distinct (path, text) is still formatted by it, once, and through the same export the engine
 * calls without the memory (`formatAll` where the module has one, else `formatFile`).
 *
 * This module is the formatter module too (`Target.formatter`): imported as
 * `memo-formatter.ts?of=<the target's formatter module>`, its exports delegate to that
 * module's, one memory per module.
 */
import type { FormatContext, Target } from "../../src/codegen/index.js";

/** Texts longer than this are formatted every time: they are the fuzzer's rare huge strings, and would fill the memory. */
const LONGEST_KEPT = 256 * 1024;

interface FormatterModule {
  formatFile: (path: string, content: string) => Promise<string>;
  formatAll?: (files: readonly { path: string; content: string }[], context: FormatContext) => Promise<{ contents: string[]; by: string }>;
}

const delegate = new URL(import.meta.url).searchParams.get("of");
const formatted = new Map<string, Promise<string>>();
let hits = 0;

/** The module this one was imported for (its `?of=`). */
async function delegateModule(): Promise<FormatterModule> {
  if (delegate === null) throw new Error(`${import.meta.url} is a formatter module only with ?of=<formatter module>`);
  return (await import(delegate)) as FormatterModule;
}

/** The remembered answer for a file, if it is one to remember and was formatted before (counted as a hit). */
function remembered(file: { path: string; content: string }): Promise<string> | undefined {
  if (file.content.length > LONGEST_KEPT) return undefined;
  const known = formatted.get(`${file.path}\0${file.content}`);
  if (known !== undefined) hits++;
  return known;
}

/** Keeps `answer` for `file` (unless it is too long to keep), and returns it. */
function remember(file: { path: string; content: string }, answer: Promise<string>): Promise<string> {
  if (file.content.length <= LONGEST_KEPT) formatted.set(`${file.path}\0${file.content}`, answer);
  return answer;
}

/** `formatFile` of the module this one was imported for, each (path, content) once. */
export async function formatFile(path: string, content: string): Promise<string> {
  const { formatFile: format } = await delegateModule();
  return remembered({ path, content }) ?? remember({ path, content }, format(path, content));
}

/** `formatAll` of the module this one was imported for (its `formatFile` where it has none), given only the files not formatted before. */
export async function formatAll(files: readonly { path: string; content: string }[], context: FormatContext): Promise<{ contents: string[]; by: string }> {
  const { formatAll: formatBatch } = await delegateModule();
  if (formatBatch === undefined) return { contents: await Promise.all(files.map((file) => formatFile(file.path, file.content))), by: "formatFile" };
  const known = files.map(remembered);
  const misses = files.filter((_, index) => known[index] === undefined);
  const batch = misses.length > 0 ? formatBatch(misses, context) : undefined;
  let next = 0;
  const contents = files.map((file, index) => {
    const answer = known[index];
    if (answer !== undefined) return answer;
    const missed = next++;
    return remember(file, batch!.then((answer) => answer.contents[missed]!));
  });
  return { contents: await Promise.all(contents), by: batch === undefined ? "memory" : (await batch).by };
}

/** How many of this module's answers came from memory, and how many texts it formatted. */
export function memoCounts(): { hits: number; formatted: number } {
  return { hits, formatted: formatted.size };
}

/** `target` with its formatter (if any) behind a memory of its own. */
export function withMemoizedFormatter(target: Target): Target {
  if (target.formatter === undefined) return target;
  return { ...target, formatter: `${import.meta.url.split("?")[0]}?of=${encodeURIComponent(target.formatter)}` };
}
