// Generated Python with every bracketed construct on one line, as templates write it
// before formatPython lays long lines out: tests match calls and signatures whatever
// their layout. Strings are copied as they are; comments inside brackets are dropped.

/** `source` with newlines inside brackets joined and the trailing commas they needed removed. */
export function flatPython(source: string): string {
  let out = "";
  let depth = 0;
  // Per open bracket: its character and the commas seen at its level.
  const open: { char: string; commas: number }[] = [];
  for (let pos = 0; pos < source.length; pos++) {
    const char = source[pos]!;
    if (char === '"' || char === "'") {
      const triple = source.startsWith(char.repeat(3), pos);
      const quote = triple ? char.repeat(3) : char;
      let end = pos + quote.length;
      while (end < source.length && !source.startsWith(quote, end)) end += source[end] === "\\" ? 2 : 1;
      out += source.slice(pos, end + quote.length);
      pos = end + quote.length - 1;
    } else if (char === "#" && depth > 0) {
      while (pos + 1 < source.length && source[pos + 1] !== "\n") pos++;
    } else if (char === "\n" && depth > 0) {
      while (source[pos + 1] === " ") pos++;
      const next = source[pos + 1];
      const top = open[open.length - 1];
      if (next === ")" || next === "]" || next === "}") {
        // A one-element tuple keeps its comma.
        if (!(top?.char === "(" && top.commas === 1)) out = out.replace(/,\s*$/, "");
      } else if (!/[([{]\s*$/.test(out)) {
        out = `${out.replace(/ +$/, "")} `;
      }
    } else {
      if ("([{".includes(char)) {
        depth++;
        open.push({ char, commas: 0 });
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
