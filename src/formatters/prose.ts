// Prose that `ruff format` leaves longer than the line and `ruff check` (E501) rejects: a
// one-line docstring (or other lone string statement) becomes a paragraph with its closing
// quotes on their own line, and a `#` comment continues on `# ` lines, both at their indent,
// in forms `ruff format` keeps. Generated docstrings and comments carry names from the config,
// so their length is the config's.

/** ruff's default line length, which generated projects keep. */
const LINE_LENGTH = 88;
const NON_ASCII = /[^\x00-\x7f]/;
// Lines that start as a docstring or a comment, and those of them longer than the line: only such a line can change.
// The start is tested first: most lines fail it within their indent, before 89 characters are read.
const PROSE_LINES = /^ *(?:[rRuU]?"""|#)/gm;
const LONG_PROSE_LINES = new RegExp(`^(?= *(?:[rRuU]?"""|#))(?=[^\\n]{${LINE_LENGTH + 1}})`, "gm");
const DOCSTRING = /^([rRuU]?)"""([^\\]*)"""$/;
const COMMENT = /^#( +)(.*)$/;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/**
 * `source` (as `ruff format` wrote it) with its too-long one-line docstrings and comments
 * wrapped at word boundaries; a single word too long for the line stays as it is.
 * @example wrapProse(`    # ${"word ".repeat(20)}\n`) // two comment lines
 */
export function wrapProse(source: string): string {
  // Most modules are ASCII: their lines are as wide as they are long, so regex finds the long ones.
  const ascii = !NON_ASCII.test(source);
  const startsStatement = statementStarts(source);
  let wrapped: string | undefined;
  let copied = 0;
  for (const { index: start } of source.matchAll(ascii ? LONG_PROSE_LINES : PROSE_LINES)) {
    // `^` also matches after a \r, \u2028 or \u2029: only lines that follow a \n are lines here.
    if (start > 0 && source.charCodeAt(start - 1) !== NEWLINE) continue;
    const end = source.indexOf("\n", start);
    const line = source.slice(start, end === -1 ? undefined : end);
    if ((!ascii && textWidth(line) <= LINE_LENGTH) || !startsStatement(start)) continue;
    const indent = /^ */.exec(line)![0];
    const replacement = wrapDocstring(indent, line.slice(indent.length)) ?? wrapComment(indent, line.slice(indent.length));
    if (replacement === undefined) continue;
    wrapped = (wrapped ?? "") + source.slice(copied, start) + replacement;
    copied = start + line.length;
  }
  return wrapped === undefined ? source : wrapped + source.slice(copied);
}

/**
 * Whether the line starting at an offset begins a statement or a comment line of its own, that
 * is outside any string, bracket or backslash continuation; asked of increasing offsets, it
 * reads the source once, only as far as the last line asked about. Strings are scanned as
 * Python 3.11 writes them (no quote of the string's own kind inside an f-string's fields).
 * Character codes, not one-character strings: this reads every character of a module.
 */
function statementStarts(source: string): (lineStart: number) => boolean {
  let depth = 0;
  let quote = 0; // the open string's quote character, 0 outside strings
  let triple = false;
  let startsAfterLastNewline = true;
  let i = 0;
  return (lineStart) => {
    for (; i < lineStart; i++) {
      const char = source.charCodeAt(i);
      if (char === NEWLINE) {
        if (quote !== 0 && !triple) quote = 0; // an unterminated one-line string: ruff refused it already
        startsAfterLastNewline = quote === 0 && depth === 0 && source.charCodeAt(i - 1) !== BACKSLASH;
      } else if (quote !== 0) {
        if (char === BACKSLASH) {
          // An escaped line end continues the string on the next line.
          if (source.charCodeAt(i + 1) === NEWLINE) startsAfterLastNewline = false;
          i++;
        } else if (char === quote && (!triple || (source.charCodeAt(i + 1) === quote && source.charCodeAt(i + 2) === quote))) {
          if (triple) i += 2;
          quote = 0;
        }
      } else if (char === HASH) {
        const end = source.indexOf("\n", i);
        i = (end === -1 ? source.length : end) - 1;
      } else if (char === DOUBLE_QUOTE || char === SINGLE_QUOTE) {
        quote = char;
        triple = source.charCodeAt(i + 1) === char && source.charCodeAt(i + 2) === char;
        if (triple) i += 2;
      } else if (char === 0x28 || char === 0x5b || char === 0x7b) depth++; // ( [ {
      else if (char === 0x29 || char === 0x5d || char === 0x7d) depth--; // ) ] }
    }
    return lineStart === 0 || startsAfterLastNewline;
  };
}

/** `"""Summary ... words."""` at `indent` as `"""Summary ...\n<indent>words.\n<indent>"""`; undefined when it cannot be wrapped. */
function wrapDocstring(indent: string, body: string): string | undefined {
  const match = DOCSTRING.exec(body);
  if (!match || match[2]!.includes('"""')) return undefined;
  const words = match[2]!.trim().split(/\s+/);
  if (words.length < 2) return undefined;
  const open = `${match[1]}"""`;
  const lines = wrapWords(words, LINE_LENGTH - indent.length - open.length, LINE_LENGTH - indent.length);
  // Text that fits but for its closing quotes: ruff would pull lone closing quotes back up,
  // so the last word goes down with them.
  if (lines.length < 2) lines.splice(0, 1, words.slice(0, -1).join(" "), words.at(-1)!);
  return [`${indent}${open}${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`), `${indent}"""`].join("\n");
}

/** `# long comment` at `indent` continued on `# ` lines; undefined when it cannot be wrapped. */
function wrapComment(indent: string, body: string): string | undefined {
  const match = COMMENT.exec(body);
  if (!match) return undefined;
  const prefix = `#${match[1]}`;
  const words = match[2]!.trim().split(/\s+/);
  if (words.length < 2) return undefined;
  const width = LINE_LENGTH - indent.length - prefix.length;
  return wrapWords(words, width, width)
    .map((line) => `${indent}${prefix}${line}`)
    .join("\n");
}

/** Greedy word wrap: lines of at most `firstWidth`, then `width` columns (a longer word gets a line of its own). */
function wrapWords(words: readonly string[], firstWidth: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  let currentWidth = 0;
  for (const word of words) {
    const wordWidth = textWidth(word);
    if (current !== "" && currentWidth + 1 + wordWidth <= (lines.length === 0 ? firstWidth : width)) {
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
 * Columns `text` takes as ruff measures line length (Unicode East Asian width): wide and
 * fullwidth characters two, combining marks and zero-width characters none, the rest one.
 */
function textWidth(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0)!);
  return width;
}

const ZERO_WIDTH: readonly (readonly [number, number])[] = [
  [0x300, 0x36f], [0x483, 0x489], [0x591, 0x5bd], [0x610, 0x61a], [0x64b, 0x65f], [0x1ab0, 0x1aff], [0x1dc0, 0x1dff],
  [0x200b, 0x200f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f], [0xfeff, 0xfeff],
];
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

function charWidth(code: number): number {
  if (code < 0x300) return 1;
  const within = (ranges: typeof WIDE) => ranges.some(([low, high]) => code >= low && code <= high);
  if (within(ZERO_WIDTH)) return 0;
  return within(WIDE) ? 2 : 1;
}
