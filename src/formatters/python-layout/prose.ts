// Wraps prose that ruff never reflows but `ruff check` (E501) rejects when too long: a
// one-line docstring becomes a paragraph with the closing quotes on their own line, and a
// `#` comment continues on `# ` lines; both at the original indent, in a form ruff keeps.

import { LINE_WIDTH } from "./printer.js";
import { textWidth } from "./width.js";

/** Greedy word wrap: lines of at most `width` columns (a longer word gets a line of its own). */
function wrapWords(words: readonly string[], firstWidth: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  let currentWidth = 0;
  for (const word of words) {
    const limit = lines.length === 0 ? firstWidth : width;
    const wordWidth = textWidth(word);
    if (current !== "" && currentWidth + 1 + wordWidth <= limit) {
      current += ` ${word}`;
      currentWidth += 1 + wordWidth;
      continue;
    }
    if (current !== "") lines.push(current);
    current = word;
    currentWidth = wordWidth;
  }
  lines.push(current);
  return lines;
}

/**
 * `"""Summary ... words."""` at `indent`, too long for one line, as
 * `"""Summary ...\n<indent>words.\n<indent>"""`; undefined when it cannot be wrapped.
 */
export function wrapDocstring(indent: string, body: string): string | undefined {
  const match = /^([rRuU]?)"""(.*)"""$/s.exec(body);
  if (!match || match[2].includes("\n")) return undefined;
  const words = match[2].trim().split(/\s+/);
  if (words.length < 2) return undefined;
  const open = `${match[1]}"""`;
  const lines = wrapWords(words, LINE_WIDTH - indent.length - open.length, LINE_WIDTH - indent.length);
  // Text that fits but for its closing quotes: ruff would pull lone closing quotes back up,
  // so the last word goes down with them.
  if (lines.length < 2) lines.splice(0, 1, words.slice(0, -1).join(" "), words.at(-1)!);
  return [`${indent}${open}${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`), `${indent}"""`].join("\n");
}

/** `# long comment` at `indent` continued on `# ` lines; undefined when it cannot be wrapped. */
export function wrapComment(indent: string, body: string): string | undefined {
  const match = /^#( +)(.*)$/.exec(body);
  if (!match) return undefined;
  const prefix = `#${match[1]}`;
  const words = match[2].trim().split(/\s+/);
  if (words.length < 2) return undefined;
  const width = LINE_WIDTH - indent.length - prefix.length;
  return wrapWords(words, width, width)
    .map((line) => `${indent}${prefix}${line}`)
    .join("\n");
}
