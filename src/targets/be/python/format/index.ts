// `formatPython`: generated Python as `ruff format` (line length 88) would write it. Templates
// write each logical line on one physical line; lines that fit are copied untouched, longer or
// multi-line statements are parsed and laid out with ruff's rules, long prose is wrapped.

import { propagateExpand, DocBuilder } from "./doc.js";
import { parseStatement } from "./parse-stmt.js";
import { LINE_WIDTH, printDoc } from "./printer.js";
import { wrapComment, wrapDocstring } from "./prose.js";
import { statement } from "./stmt.js";
import { stringEnd, tokenize, Unsupported } from "./tokens.js";
import { textWidth } from "./width.js";

/** Characters after which a line may continue onto the next one. */
const MAY_CONTINUE = /[([{"'\\]/;
const STRING_PREFIX = /[rRbBfFuU]/;
const ONLY_STRING = /^(?:[rRbBfFuU]{0,2})("""|''')/;

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
  const out: string[] = [];
  let start = 0;
  let lineNumber = 1;
  while (start < source.length) {
    const end = logicalLineEnd(source, start);
    const text = source.slice(start, end);
    const physicalLines = countNewlines(text) + 1;
    if (physicalLines === 1 && fitsOnOneLine(text)) out.push(text);
    else out.push(layOut(text, physicalLines, lineNumber, wrapProse));
    lineNumber += physicalLines;
    if (end < source.length) out.push("\n");
    start = end + 1;
  }
  return out.join("");
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return count;
}

function fitsOnOneLine(line: string): boolean {
  return textWidth(line) <= LINE_WIDTH;
}

/** The offset of the newline ending the logical line that starts at `start` (or the source's end). */
function logicalLineEnd(source: string, start: number): number {
  const newline = source.indexOf("\n", start);
  const lineEnd = newline === -1 ? source.length : newline;
  if (!MAY_CONTINUE.test(source.slice(start, lineEnd))) return lineEnd;
  let depth = 0;
  let pos = start;
  while (pos < source.length) {
    const char = source[pos];
    if (char === "\n") {
      if (depth === 0) return pos;
    } else if (char === "#") {
      const commentEnd = source.indexOf("\n", pos);
      if (commentEnd === -1) return source.length;
      pos = commentEnd;
      continue;
    } else if (char === "\\") {
      pos += 2;
      continue;
    } else if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth = Math.max(0, depth - 1);
    else if (char === '"' || char === "'") {
      pos = stringEndOrLineEnd(source, pos);
      continue;
    }
    pos++;
  }
  return source.length;
}

/** Past the string opening at `quoteAt` (prefix letters before it are ordinary name characters here). */
function stringEndOrLineEnd(source: string, quoteAt: number): number {
  let prefixStart = quoteAt;
  while (prefixStart > 0 && STRING_PREFIX.test(source[prefixStart - 1])) prefixStart--;
  const formatted = /[fF]/.test(source.slice(prefixStart, quoteAt));
  try {
    return stringEnd(source, quoteAt, formatted);
  } catch {
    const newline = source.indexOf("\n", quoteAt);
    return newline === -1 ? source.length : newline;
  }
}

function layOut(text: string, physicalLines: number, lineNumber: number, wrapProse: boolean): string {
  const indent = /^ */.exec(text)![0];
  const body = text.slice(indent.length);
  try {
    if (body.startsWith("#")) return wrapProse && physicalLines === 1 ? (wrapComment(indent, body) ?? text) : text;
    if (ONLY_STRING.test(body) && isSingleToken(body)) {
      return wrapProse && physicalLines === 1 ? (wrapDocstring(indent, body) ?? text) : text;
    }
    if (indent.length % 4 !== 0 || body.startsWith("\t")) throw new Unsupported("indentation that is not a multiple of four spaces");
    const stmt = parseStatement(tokenize(body));
    const builder = new DocBuilder();
    statement(builder, stmt);
    propagateExpand(builder.out);
    return printDoc(builder.out, indent.length / 4);
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
