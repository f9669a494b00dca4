// Splits one Python logical line (possibly spanning physical lines inside brackets) into
// tokens: names, numbers, strings (with prefixes; f-strings as one opaque token), operators.
// Comments and backslash continuations are reported as unsupported: they need no layout here.

export type TokenKind = "name" | "number" | "string" | "op";

export interface Token {
  kind: TokenKind;
  text: string;
  /** Whether a line break separates this token from the previous one. */
  afterNewline: boolean;
}

/** A construct the formatter does not lay out; the caller names the line. */
export class Unsupported extends Error {}

const OPERATORS = [
  "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=",
  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
  "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
];
const STRING_START = /^(?:[rRbBfFuU]|[rR][bBfF]|[bBfF][rR])?["']/;
const NAME = /^[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/;
const NUMBER = /^(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d[\d_]*)?[jJ]?|\d[\d_]*\.(?:[eE][+-]?\d[\d_]*)?[jJ]?)/;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let afterNewline = false;
  const push = (kind: TokenKind, text: string) => {
    tokens.push({ kind, text, afterNewline });
    afterNewline = false;
  };
  while (pos < source.length) {
    const char = source[pos];
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      if (char === "\n") afterNewline = true;
      pos++;
      continue;
    }
    if (char === "#") throw new Unsupported("a comment inside a statement");
    if (char === "\\") throw new Unsupported("a backslash continuation");
    const rest = source.slice(pos, pos + 4);
    const stringStart = STRING_START.exec(rest);
    if (stringStart) {
      const end = stringEnd(source, pos + stringStart[0].length - 1, /[fF]/.test(stringStart[0]));
      push("string", source.slice(pos, end));
      pos = end;
      continue;
    }
    if (/[\d.]/.test(char) && /^\.?\d/.test(source.slice(pos, pos + 2))) {
      const match = NUMBER.exec(source.slice(pos))!;
      push("number", match[0]);
      pos += match[0].length;
      continue;
    }
    const name = NAME.exec(source.slice(pos, pos + 200));
    if (name) {
      let text = name[0];
      if (text.length === 200) text = NAME.exec(source.slice(pos))![0];
      push("name", text);
      pos += text.length;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, pos));
    if (!op) throw new Unsupported(`the character ${JSON.stringify(char)}`);
    push("op", op);
    pos += op.length;
  }
  return tokens;
}

/** The offset just past the string whose opening quote is at `quoteAt`. */
export function stringEnd(source: string, quoteAt: number, formatted: boolean): number {
  const quote = source[quoteAt];
  const triple = source.startsWith(quote.repeat(3), quoteAt);
  const closing = triple ? quote.repeat(3) : quote;
  let pos = quoteAt + closing.length;
  while (pos < source.length) {
    const char = source[pos];
    if (char === "\\") {
      pos += 2;
      continue;
    }
    if (!triple && char === "\n") break;
    if (source.startsWith(closing, pos)) return pos + closing.length;
    if (formatted && char === "{") {
      if (source[pos + 1] === "{") {
        pos += 2;
        continue;
      }
      pos = replacementFieldEnd(source, pos + 1);
      continue;
    }
    pos++;
  }
  throw new Unsupported("an unterminated string");
}

/** The offset just past the `}` closing an f-string replacement field whose content starts at `pos`. */
function replacementFieldEnd(source: string, pos: number): number {
  let depth = 0;
  while (pos < source.length) {
    const char = source[pos];
    const prefixed = STRING_START.exec(source.slice(pos, pos + 3));
    if (prefixed) {
      pos = stringEnd(source, pos + prefixed[0].length - 1, /[fF]/.test(prefixed[0]));
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (char === "}") {
      if (depth === 0) return pos + 1;
      depth--;
    }
    pos++;
  }
  throw new Unsupported("an unterminated f-string");
}
