/**
 * A target whose formatter answers a text it has formatted before from memory: for the fuzzer,
 * whose hundreds of runs per target generate the same files again and again (the pages of a
 * resource no mutation touched, the static files). A formatter is a pure function of the path
 * and the text it is given, so the files are the ones the target's own formatter writes; each
 * distinct (path, text) is still formatted by it, once.
 *
 * This module is the formatter module too (`Target.formatter`): imported as
 * `memo-formatter.ts?of=<the target's formatter module>`, its `formatFile` delegates to that
 * module's, one memory per module.
 */
import type { Target } from "../../src/codegen/index.js";

/** Texts longer than this are formatted every time: they are the fuzzer's rare huge strings, and would fill the memory. */
const LONGEST_KEPT = 256 * 1024;

const delegate = new URL(import.meta.url).searchParams.get("of");
const formatted = new Map<string, Promise<string>>();
let hits = 0;

/** `formatFile` of the module this one was imported for (its `?of=`), each (path, content) once. */
export async function formatFile(path: string, content: string): Promise<string> {
  if (delegate === null) throw new Error(`${import.meta.url} is a formatter module only with ?of=<formatter module>`);
  const format = ((await import(delegate)) as { formatFile: (path: string, content: string) => Promise<string> }).formatFile;
  if (content.length > LONGEST_KEPT) return format(path, content);
  const key = `${path}\0${content}`;
  const known = formatted.get(key);
  if (known !== undefined) {
    hits++;
    return known;
  }
  const result = format(path, content);
  formatted.set(key, result);
  return result;
}

/** How many of this module's calls were answered from memory, and how many texts it formatted. */
export function memoCounts(): { hits: number; formatted: number } {
  return { hits, formatted: formatted.size };
}

/** `target` with its formatter (if any) behind a memory of its own. */
export function withMemoizedFormatter(target: Target): Target {
  if (target.formatter === undefined) return target;
  return { ...target, formatter: `${import.meta.url.split("?")[0]}?of=${encodeURIComponent(target.formatter)}` };
}
