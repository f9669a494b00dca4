// `formatPython`: generated Python as `ruff format` (line length 88) would write it. Templates
// write each logical line on one physical line; lines that fit are copied untouched, longer or
// multi-line statements are parsed and laid out with ruff's rules, long prose is wrapped.

import { DocBuilder } from "./doc.js";
import { propagateExpand } from "./ir.js";
import { logicalLineEnd, scannedNewlines } from "./logical-lines.js";
import { longCallLayout } from "./long-calls.js";
import { parseStatement } from "./parse-stmt.js";
import { LINE_WIDTH, printDoc } from "./printer.js";
import { wrapComment, wrapDocstring } from "./prose.js";
import { statement } from "./stmt.js";
import { tokenize, Unsupported } from "./tokens.js";
import { ShapeMemory } from "./shapes.js";
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

/**
 * Layouts already computed, by line (its indentation included) and `wrapProse`: a layout
 * depends on nothing else, and a generated tree repeats a quarter of its long lines (40,000
 * long lines, 30,000 distinct, on 1,000 resources). Cleared when full, to bound the memory.
 */
const layouts = new Map<string, string>();
const MAX_REMEMBERED_LAYOUTS = 50_000;
/**
 * The layouts of line shapes (shapes.ts): lines of another resource mostly differ from one
 * laid out before only in names and strings (9,000 shapes for those 30,000 lines).
 */
const shapes = new ShapeMemory(MAX_REMEMBERED_LAYOUTS);

function rememberedLayout(text: string, physicalLines: number, lineNumber: number, wrapProse: boolean): string {
  const key = wrapProse ? text : `\0${text}`;
  let laidOut = layouts.get(key);
  if (laidOut === undefined) {
    laidOut = shapes.layoutOf(text);
    if (laidOut === undefined) {
      shapes.remember(text, (laidOut = layOut(text, physicalLines, lineNumber, wrapProse)));
    }
    if (layouts.size >= MAX_REMEMBERED_LAYOUTS) layouts.clear();
    layouts.set(key, laidOut);
  }
  return laidOut;
}

/** The layout of one logical line (its indentation included), even one that fits as it is. */
export function layOutLine(text: string, options: FormatOptions = {}): string {
  return rememberedLayout(text, text.split("\n").length, 1, options.wrapProse ?? true);
}

/** Forgets the layouts computed so far (benchmarks time the work, not the memory). */
export function forgetLayouts(): void {
  layouts.clear();
  shapes.clear();
}

function layOut(text: string, physicalLines: number, lineNumber: number, wrapProse: boolean): string {
  const long = longCallLayout(text, (line) => rememberedLayout(line, 1, lineNumber, wrapProse));
  if (long !== undefined) return long;
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
