// `formatPython`: generated Python as `ruff format` (line length 88) would write it. Templates
// write each logical line on one physical line; lines that fit are copied untouched, longer or
// multi-line statements are parsed and laid out with ruff's rules, long prose is wrapped.

import { DocBuilder } from "./doc.js";
import { propagateExpand } from "./ir.js";
import { parseStatement } from "./parse-stmt.js";
import { LINE_WIDTH, printDoc } from "./printer.js";
import { wrapComment, wrapDocstring } from "./prose.js";
import { statement } from "./stmt.js";
import { tokenize, Unsupported } from "./tokens.js";
import { textWidth } from "./width.js";

const NON_ASCII = /[^\x00-\x7f]/;
const TRIPLE_QUOTED = /^(?:[rRbBfFuU]{0,2})("""|\'\'\')/;

export interface FormatOptions {
  /**
   * Wrap one-line docstrings and `#` comments longer than the line, which ruff leaves alone
   * but `ruff check` (E501) rejects. With `false` the result is exactly `ruff format`'s.
   * @default true
   */
  wrapProse?: boolean;
}

/**
 * Formats generated Python source: byte-identical to `ruff format` for code whose logical
 * lines each sit on one physical line (or are already laid out as ruff would).
 * @throws Error naming the line when a line that needs layout uses an unsupported construct.
 * @example formatPython("x = 1\n") // "x = 1\n"
 */
export function formatPython(source: string, options: FormatOptions = {}): string {
  const wrapProse = options.wrapProse ?? true;
  const ascii = !NON_ASCII.test(source);
  // Unchanged stretches are copied in one piece; `copied` is where the next one starts.
  const out: string[] = [];
  let copied = 0;
  let lineNumber = 1;
  let start = 0;
  while (start < source.length) {
    const end = logicalLineEnd(source, start);
    const newlines = scannedNewlines;
    const oneLine = newlines === 0 && (ascii ? end - start <= LINE_WIDTH : textWidth(source.slice(start, end)) <= LINE_WIDTH);
    if (!oneLine) {
      const text = source.slice(start, end);
      const laidOut = rememberedLayout(text, newlines + 1, lineNumber, wrapProse);
      if (laidOut !== text) {
        out.push(source.slice(copied, start), laidOut);
        copied = end;
      }
    }
    lineNumber += newlines + 1;
    start = end + 1;
  }
  if (copied === 0) return source;
  out.push(source.slice(copied));
  return out.join("");
}

/** Newlines inside the logical line `logicalLineEnd` last scanned. */
let scannedNewlines = 0;

/**
 * The characters the line scanner must look at: newline, brackets, quotes, `#` and backslash.
 * A regex finds the next one: on these sources V8 scans 3-4 times faster than a
 * `charCodeAt` loop does (bench/format.ts).
 */
const SIGNIFICANT = /[\n()[\]{}"'#\\]/g;
/** What ends a one-line string's scan: its quote, a backslash or a newline. */
const SINGLE_QUOTED_STOP = { 34: /["\\\n]/g, 39: /['\\\n]/g } as Record<number, RegExp>;

/**
 * A physical line that is a whole logical line for certain, matched up to its newline: no
 * comment, backslash or triple quote, one-line strings without escapes, and brackets closed
 * on the line (two levels deep at most). Most generated lines are (85% on 1,000 resources);
 * the scanner below decides for the others, and would find the same end for these, only
 * more slowly. Each repetition starts with a different character, so a failing match
 * backtracks in linear time.
 */
const SIMPLE_LINE = (() => {
  const plain = `[^\\n()[\\]{}"'#\\\\]`;
  // `(?!")`: a closing quote right after another quote opens a triple-quoted string.
  const atom = `${plain}|"[^"\\\\\\n]*"(?!")|'[^'\\\\\\n]*'(?!')`;
  const bracketed = (inner: string) => `\\((?:${inner})*\\)|\\[(?:${inner})*\\]|\\{(?:${inner})*\\}`;
  const depthOne = bracketed(atom);
  const depthTwo = bracketed(`${atom}|${depthOne}`);
  return new RegExp(`(?:${atom}|${depthTwo})*(?=\\n|$)`, "y");
})();

/**
 * Where the logical line starting at `start` ends: its newline (or the source's end), with
 * `scannedNewlines` set to the newlines inside it. Brackets, strings, comments and backslash
 * continuations are followed; f-string replacement fields are not (the tokenizer does that).
 */
function logicalLineEnd(source: string, start: number): number {
  SIMPLE_LINE.lastIndex = start;
  if (SIMPLE_LINE.test(source)) {
    scannedNewlines = 0;
    return SIMPLE_LINE.lastIndex;
  }
  let depth = 0;
  let newlines = 0;
  let pos = start;
  const length = source.length;
  for (;;) {
    pos = nextMatch(SIGNIFICANT, source, pos);
    if (pos >= length) break;
    const code = source.charCodeAt(pos);
    if (code === 10) {
      if (depth === 0) break;
      newlines++;
    } else if (code === 40 || code === 91 || code === 123) depth++;
    else if (code === 41 || code === 93 || code === 125) depth = depth > 0 ? depth - 1 : 0;
    else if (code === 34 || code === 39) {
      if (source.charCodeAt(pos + 1) === code && source.charCodeAt(pos + 2) === code) {
        const close = tripleQuoteEnd(source, pos + 3, code);
        for (let index = source.indexOf("\n", pos); index !== -1 && index < close; index = source.indexOf("\n", index + 1)) newlines++;
        pos = close;
        continue;
      }
      const stop = SINGLE_QUOTED_STOP[code]!;
      pos = nextMatch(stop, source, pos + 1);
      while (pos < length && source.charCodeAt(pos) === 92) pos = nextMatch(stop, source, pos + 2);
      if (source.charCodeAt(pos) === 10) continue;
    } else if (code === 35) {
      const commentEnd = source.indexOf("\n", pos);
      if (commentEnd === -1) {
        pos = length;
        break;
      }
      pos = commentEnd;
      continue;
    } else if (code === 92) {
      if (source.charCodeAt(pos + 1) === 10) newlines++;
      pos++;
    }
    pos++;
  }
  scannedNewlines = newlines;
  return pos < length ? pos : length;
}

/**
 * Where `pattern` (global, matching one character) next matches in `source` from `from`, or
 * the source's length. `test` rather than `exec`: no match array to allocate.
 */
function nextMatch(pattern: RegExp, source: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(source) ? pattern.lastIndex - 1 : source.length;
}

/** Past the closing `'''` or `"""` of a triple-quoted string whose content starts at `from`. */
function tripleQuoteEnd(source: string, from: number, quote: number): number {
  const closing = String.fromCharCode(quote).repeat(3);
  for (let index = source.indexOf(closing, from); index !== -1; index = source.indexOf(closing, index + 1)) {
    let backslashes = 0;
    while (source.charCodeAt(index - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return index + 3;
  }
  return source.length;
}

/**
 * Layouts already computed, by line (its indentation included) and `wrapProse`: a layout
 * depends on nothing else, and a generated tree repeats a quarter of its long lines (40,000
 * long lines, 30,000 distinct, on 1,000 resources). Cleared when full, to bound the memory.
 */
const layouts = new Map<string, string>();
const MAX_REMEMBERED_LAYOUTS = 50_000;

function rememberedLayout(text: string, physicalLines: number, lineNumber: number, wrapProse: boolean): string {
  const key = wrapProse ? text : `\0${text}`;
  let laidOut = layouts.get(key);
  if (laidOut === undefined) {
    laidOut = layOut(text, physicalLines, lineNumber, wrapProse);
    if (layouts.size >= MAX_REMEMBERED_LAYOUTS) layouts.clear();
    layouts.set(key, laidOut);
  }
  return laidOut;
}

/** Forgets the layouts computed so far (benchmarks time the work, not the memory). */
export function forgetLayouts(): void {
  layouts.clear();
}

function layOut(text: string, physicalLines: number, lineNumber: number, wrapProse: boolean): string {
  let indentWidth = 0;
  while (text.charCodeAt(indentWidth) === 32) indentWidth++;
  const indent = text.slice(0, indentWidth);
  const body = text.slice(indent.length);
  try {
    if (body.startsWith("#")) return wrapProse && physicalLines === 1 ? (wrapComment(indent, body) ?? text) : text;
    if (TRIPLE_QUOTED.test(body) && isSingleToken(body)) {
      return wrapProse && physicalLines === 1 ? (wrapDocstring(indent, body) ?? text) : text;
    }
    if (indent.length % 4 !== 0 || body.startsWith("\t")) throw new Unsupported("indentation that is not a multiple of four spaces");
    const stmt = parseStatement(tokenize(body));
    const builder = new DocBuilder();
    builder.plainText = physicalLines === 1 && !NON_ASCII.test(body);
    statement(builder, stmt);
    propagateExpand(builder.out);
    // A layout may end in a line break (a broken `global`); the caller separates lines.
    const printed = printDoc(builder.out, indent.length / 4);
    let end = printed.length;
    while (end > 0 && printed.charCodeAt(end - 1) === 10) end--;
    return printed.slice(0, end);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new Error(`formatPython: line ${lineNumber}: cannot lay out ${error.message}: ${shown}`);
  }
}

function isSingleToken(body: string): boolean {
  try {
    const tokens = tokenize(body);
    return tokens.length === 1 && tokens[0].kind === "string";
  } catch (error) {
    if (error instanceof Unsupported) return false;
    throw error;
  }
}

/** `content` through `formatPython` when `path` is a Python module, any other file as it is: the `formatFile` of a target's formatter module. */
export async function formatPythonFile(path: string, content: string): Promise<string> {
  return path.endsWith(".py") ? formatPython(content) : content;
}
