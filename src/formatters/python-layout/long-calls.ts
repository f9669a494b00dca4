// A very long `name = callee(argument, ...)` (a catalog of every resource: 400 KB on one
// line for 1,000 resources) laid out argument by argument. Its arguments cannot share a line,
// so each goes on lines of its own followed by a comma, laid out as it would be beside any
// other argument: as the first of `name = callee(argument, argument,)`, a line short enough
// to lay out quickly and of one shape for every argument of one shape.

import { tokenize, Unsupported } from "./tokens.js";

/** Lines at least this long are laid out argument by argument when they are such a call. */
export const LONG_CALL_WIDTH = 2_000;

const HEAD = /^( *)[A-Za-z_][A-Za-z0-9_]* = [A-Za-z_][A-Za-z0-9_.]*\(/;

/**
 * The layout of `text` when it is a one-line `name = callee(a, b, ...)` of at least
 * `LONG_CALL_WIDTH` characters with two or more arguments and no trailing comma, else
 * undefined. `layOutLine` lays out the line of each argument (and may remember it); when one
 * throws or does not come out as `name = callee(\n<lines>\n<lines>\n)` with the two argument
 * copies alike, the answer is undefined too: the caller lays out `text` whole.
 */
export function longCallLayout(text: string, layOutLine: (line: string) => string): string | undefined {
  if (text.length < LONG_CALL_WIDTH || text.includes("\n") || !text.endsWith(")")) return undefined;
  const header = HEAD.exec(text)?.[0];
  if (header === undefined) return undefined;
  const args = topLevelArguments(text.slice(header.length, -1));
  if (args === undefined || args.length < 2) return undefined;
  const close = `${" ".repeat(header.length - header.trimStart().length)})`;
  const lines = [header];
  for (const arg of args) {
    let laidOut: string;
    try {
      laidOut = layOutLine(`${header}${arg}, ${arg},)`);
    } catch {
      return undefined;
    }
    if (!laidOut.startsWith(`${header}\n`) || !laidOut.endsWith(`\n${close}`)) return undefined;
    // Both copies, each ending in a newline: one argument's lines twice.
    const copies = laidOut.slice(header.length + 1, laidOut.length - close.length);
    const half = copies.length / 2;
    if (!Number.isInteger(half) || copies.slice(0, half) !== copies.slice(half)) return undefined;
    lines.push(copies.slice(0, half - 1));
  }
  lines.push(close);
  return lines.join("\n");
}

/** The top-level arguments of an argument list's text, trimmed; undefined for an empty one or a trailing comma. */
function topLevelArguments(inner: string): string[] | undefined {
  let tokens;
  try {
    tokens = tokenize(inner);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  let pos = 0;
  for (const token of tokens) {
    // Only blanks lie between tokens on one line: the token is the next occurrence of its text.
    pos = inner.indexOf(token.text, pos);
    if (token.kind === "op") {
      const text = token.text;
      if (text === "(" || text === "[" || text === "{") depth++;
      else if (text === ")" || text === "]" || text === "}") depth--;
      else if (text === "," && depth === 0) {
        args.push(inner.slice(start, pos).trim());
        start = pos + 1;
      }
      if (depth < 0) return undefined;
    }
    pos += token.text.length;
  }
  args.push(inner.slice(start).trim());
  return depth === 0 && args.every((arg) => arg !== "") ? args : undefined;
}
