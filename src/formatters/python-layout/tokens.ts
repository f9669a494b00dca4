// Splits one Python logical line (possibly spanning physical lines inside brackets) into
// tokens: names, numbers, strings (with prefixes; f-strings as one opaque token), operators.
// An own-line comment rides on the token after it; end-of-line comments and stray
// backslashes are reported as unsupported.

export type TokenKind = "name" | "number" | "string" | "op";

export interface Token {
  kind: TokenKind;
  text: string;
  /** Whether a line break separates this token from the previous one. */
  afterNewline: boolean;
  /** Whether a backslash continuation separates this token from the previous one. */
  afterBackslash: boolean;
  /**
   * The own-line comments right before this token, as ruff writes them. A parser that lays
   * them out sets `commentsTaken`; a statement with comments nobody took is unsupported.
   */
  comments: string[] | undefined;
  commentsTaken: boolean;
}

/** A construct the formatter does not lay out; the caller names the line. */
export class Unsupported extends Error {}

const THREE = new Set(["**=", "//=", ">>=", "<<=", "..."]);
const TWO = new Set(["->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="]);
const ONE = new Set("+-*/%@&|^~<>()[]{},:.;=");
const NUMBER = /(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d[\d_]*)?[jJ]?|\d[\d_]*\.(?:[eE][+-]?\d[\d_]*)?[jJ]?)/y;

const isDigit = (code: number) => code >= 48 && code <= 57;
const isNameStart = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code >= 128;
const isNameChar = (code: number) => isNameStart(code) || isDigit(code);
const isQuote = (code: number) => code === 34 || code === 39;
/** The string prefix letters: b, f, r, u in either case. */
const isPrefixLetter = (code: number) => "bfruBFRU".includes(String.fromCharCode(code));

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let afterNewline = false;
  let afterBackslash = false;
  let comments: string[] | undefined;
  const push = (kind: TokenKind, text: string) => {
    // Every token gets every field, in one order: one object shape for the parser's reads.
    tokens.push({ kind, text, afterNewline, afterBackslash, comments, commentsTaken: false });
    comments = undefined;
    afterNewline = false;
    afterBackslash = false;
  };
  let pos = 0;
  const length = source.length;
  while (pos < length) {
    const code = source.charCodeAt(pos);
    if (code === 32 || code === 9 || code === 13) {
      pos++;
    } else if (code === 10) {
      afterNewline = true;
      pos++;
    } else if (code === 35) {
      // Only blanks lie between the line break that `afterNewline` records and the `#`.
      if (!afterNewline) throw new Unsupported("a comment inside a statement");
      let end = source.indexOf("\n", pos);
      if (end === -1) end = length;
      (comments ??= []).push(normalizeComment(source.slice(pos, end)));
      pos = end;
    } else if (code === 92) {
      if (source.charCodeAt(pos + 1) !== 10) throw new Unsupported("a stray backslash");
      afterBackslash = true;
      pos += 2;
    } else if (isNameStart(code)) {
      let end = pos + 1;
      while (end < length && isNameChar(source.charCodeAt(end))) end++;
      // A name of at most two prefix letters right before a quote opens a string (`f"..."`, `rb'...'`).
      if (end - pos <= 2 && isQuote(source.charCodeAt(end)) && isStringPrefix(source.slice(pos, end))) {
        const stop = stringEnd(source, end, /[fF]/.test(source.slice(pos, end)));
        push("string", source.slice(pos, stop));
        pos = stop;
      } else {
        push("name", source.slice(pos, end));
        pos = end;
      }
    } else if (isQuote(code)) {
      const stop = stringEnd(source, pos, false);
      push("string", source.slice(pos, stop));
      pos = stop;
    } else if (isDigit(code) || (code === 46 && isDigit(source.charCodeAt(pos + 1)))) {
      NUMBER.lastIndex = pos;
      const match = NUMBER.exec(source)!;
      push("number", match[0]);
      pos += match[0].length;
    } else {
      const op = operatorAt(source, pos);
      push("op", op);
      pos += op.length;
    }
  }
  if (comments) throw new Unsupported("a comment inside a statement");
  return tokens;
}

/**
 * A comment as ruff writes it: trailing whitespace dropped, a space after `#` unless the
 * text starts with one of ` !:#'` (type pragmas after a no-break space are not handled).
 */
function normalizeComment(comment: string): string {
  const trimmed = comment.trimEnd();
  const content = trimmed.slice(1);
  if (content === "" || /^[ !:#']/.test(content)) return trimmed;
  if (content.charCodeAt(0) === 0xa0) throw new Unsupported("a comment starting with a no-break space");
  return `# ${content}`;
}

/** The longest operator starting at `pos`. */
function operatorAt(source: string, pos: number): string {
  const one = source[pos];
  const next = source.charCodeAt(pos + 1);
  // Only `=`, `>`, `<`, `*`, `/`, `.`, `-` and `:` can be followed by another operator character.
  if (next === 61 || next === 62 || next === 60 || next === 42 || next === 47 || next === 46) {
    const three = source.slice(pos, pos + 3);
    if (THREE.has(three)) return three;
    const two = three.slice(0, 2);
    if (TWO.has(two)) return two;
  }
  if (!ONE.has(one)) throw new Unsupported(`the character ${JSON.stringify(one)}`);
  return one;
}

/** Whether `letters` (a name right before a quote) are a string prefix Python accepts: `f`, `rb`, `Fr`... */
export function isStringPrefix(letters: string): boolean {
  const lower = letters.toLowerCase();
  return lower === "r" || lower === "b" || lower === "f" || lower === "u" || lower === "rb" || lower === "br" || lower === "rf" || lower === "fr";
}

/** The offset just past the string whose opening quote is at `quoteAt`. */
export function stringEnd(source: string, quoteAt: number, formatted: boolean): number {
  const quote = source.charCodeAt(quoteAt);
  const triple = source.charCodeAt(quoteAt + 1) === quote && source.charCodeAt(quoteAt + 2) === quote;
  let pos = quoteAt + (triple ? 3 : 1);
  const length = source.length;
  while (pos < length) {
    const code = source.charCodeAt(pos);
    if (code === 92) {
      pos += 2;
    } else if (code === quote) {
      if (!triple) return pos + 1;
      if (source.charCodeAt(pos + 1) === quote && source.charCodeAt(pos + 2) === quote) return pos + 3;
      pos++;
    } else if (code === 10 && !triple) {
      break;
    } else if (formatted && code === 123) {
      if (source.charCodeAt(pos + 1) === 123) pos += 2;
      else pos = replacementFieldEnd(source, pos + 1);
    } else {
      pos++;
    }
  }
  throw new Unsupported("an unterminated string");
}

/** The offset just past the `}` closing an f-string replacement field whose content starts at `pos`. */
function replacementFieldEnd(source: string, pos: number): number {
  let depth = 0;
  while (pos < source.length) {
    const code = source.charCodeAt(pos);
    if (isQuote(code)) {
      let prefixStart = pos;
      while (prefixStart > 0 && pos - prefixStart < 2 && isPrefixLetter(source.charCodeAt(prefixStart - 1))) prefixStart--;
      pos = stringEnd(source, pos, /[fF]/.test(source.slice(prefixStart, pos)));
      continue;
    }
    if (code === 40 || code === 91 || code === 123) depth++;
    else if (code === 41 || code === 93) depth--;
    else if (code === 125) {
      if (depth === 0) return pos + 1;
      depth--;
    }
    pos++;
  }
  throw new Unsupported("an unterminated f-string");
}
