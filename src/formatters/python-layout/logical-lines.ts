// Finds where each logical line of generated Python ends: brackets, strings, comments and
// backslash continuations are followed, f-string replacement fields are not (the tokenizer
// does that). Every character of the tree passes through here, so it is one table-driven loop.

/** Newlines inside the logical line `logicalLineEnd` last scanned. */
export let scannedNewlines = 0;

/**
 * What a character means to the scanner. Properties of one object, not module-level `const`
 * numbers: compared against those, the loop below ran twice as slowly on Node 20 (measured).
 */
const Kind = { Open: 1, Close: 2, Quote: 3, Newline: 4, Hash: 5, Backslash: 6 } as const;

/** What each ASCII character means to the scanner; 0 for the rest (and non-ASCII ones). */
const CHARACTER = new Uint8Array(128);
for (const char of "([{") CHARACTER[char.charCodeAt(0)] = Kind.Open;
for (const char of ")]}") CHARACTER[char.charCodeAt(0)] = Kind.Close;
for (const char of `"'`) CHARACTER[char.charCodeAt(0)] = Kind.Quote;
CHARACTER[10] = Kind.Newline;
CHARACTER[35] = Kind.Hash;
CHARACTER[92] = Kind.Backslash;

/**
 * Where the logical line starting at `start` ends: its newline (or the source's end), with
 * `scannedNewlines` set to the newlines inside it (a backslash-newline inside a one-line
 * string is skipped, not counted). A `charCodeAt` loop over a lookup table: 4-5 times
 * faster on these sources than the regular expressions it replaces (bench/format.ts).
 */
export function logicalLineEnd(source: string, start: number): number {
  const length = source.length;
  let depth = 0;
  let newlines = 0;
  let pos = start;
  for (;;) {
    let kind = 0;
    for (; pos < length; pos++) {
      const code = source.charCodeAt(pos);
      if (code < 128 && (kind = CHARACTER[code]!) !== 0) break;
    }
    if (pos >= length) break;
    if (kind === Kind.Newline) {
      if (depth === 0) break;
      newlines++;
    } else if (kind === Kind.Open) depth++;
    else if (kind === Kind.Close) depth = depth > 0 ? depth - 1 : 0;
    else if (kind === Kind.Quote) {
      const quote = source.charCodeAt(pos);
      if (source.charCodeAt(pos + 1) === quote && source.charCodeAt(pos + 2) === quote) {
        const close = tripleQuoteEnd(source, pos + 3, quote);
        for (let index = source.indexOf("\n", pos); index !== -1 && index < close; index = source.indexOf("\n", index + 1)) newlines++;
        pos = close;
        continue;
      }
      // A one-line string ends at its quote or, unterminated, at the newline (scanned next).
      for (pos++; pos < length; pos++) {
        const code = source.charCodeAt(pos);
        if (code === quote || code === 10) break;
        if (code === 92) pos++;
      }
      if (source.charCodeAt(pos) === 10) continue;
    } else if (kind === Kind.Hash) {
      const commentEnd = source.indexOf("\n", pos);
      if (commentEnd === -1) {
        pos = length;
        break;
      }
      pos = commentEnd;
      continue;
    } else {
      if (source.charCodeAt(pos + 1) === 10) newlines++;
      pos++;
    }
    pos++;
  }
  scannedNewlines = newlines;
  return pos < length ? pos : length;
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
