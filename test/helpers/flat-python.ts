// Generated Python with every bracketed construct on one line, as templates write it
// before ruff lays long lines out: tests match calls and signatures whatever their layout.
// Strings and comments outside brackets are copied as they are; comments inside brackets are
// dropped.

/** `source` with newlines inside brackets joined and the trailing commas they needed removed. */
export function flatPython(source: string): string {
  let out = "";
  let depth = 0;
  // Per open bracket: whether it may be a tuple's, and the commas seen at its level.
  const open: { tuple: boolean; commas: number }[] = [];
  for (let pos = 0; pos < source.length; pos++) {
    const char = source[pos]!;
    if (char === '"' || char === "'") {
      const triple = source.startsWith(char.repeat(3), pos);
      const quote = triple ? char.repeat(3) : char;
      let end = pos + quote.length;
      while (end < source.length && !source.startsWith(quote, end)) end += source[end] === "\\" ? 2 : 1;
      out += source.slice(pos, end + quote.length);
      pos = end + quote.length - 1;
    } else if (char === "#") {
      // A comment is copied outside brackets and dropped inside, with the spaces before it.
      const newline = source.indexOf("\n", pos);
      const end = newline < 0 ? source.length : newline;
      if (depth === 0) out += source.slice(pos, end);
      else out = out.replace(/ +$/, "");
      pos = end - 1;
    } else if (char === "\n" && depth > 0) {
      while (source[pos + 1] === " ") pos++;
      const next = source[pos + 1];
      const top = open[open.length - 1];
      if (next === ")" || next === "]" || next === "}") {
        // A one-element tuple keeps its comma; a call's or a signature's sole argument does not.
        if (!(top?.tuple && top.commas === 1)) out = out.replace(/,\s*$/, "");
      } else if (!/[([{]\s*$/.test(out)) {
        out = `${out.replace(/ +$/, "")} `;
      }
    } else {
      if ("([{".includes(char)) {
        depth++;
        open.push({ tuple: char === "(" && !opensCall(out), commas: 0 });
      } else if (")]}".includes(char)) {
        depth--;
        open.pop();
      } else if (char === ",") {
        const top = open[open.length - 1];
        if (top) top.commas++;
      }
      out += char;
    }
  }
  return out;
}

const KEYWORDS_BEFORE_TUPLE = new Set(["and", "assert", "await", "del", "elif", "else", "for", "if", "in", "is", "lambda", "not", "or", "return", "while", "with", "yield"]);

/** Whether a `(` written after `before` opens a call's or a signature's arguments (not a tuple). */
function opensCall(before: string): boolean {
  // Keywords are at most six letters: a longer word is a name either way.
  const word = /(\w+)$/.exec(before.slice(-8))?.[1];
  if (word) return !KEYWORDS_BEFORE_TUPLE.has(word);
  return /[)\]]$/.test(before);
}
