// Lays out a call or signature `head(arg, arg)tail` the way a Python formatter would:
// on one line when it fits in 88 columns, else the arguments on one indented line, else
// one argument per line with a trailing comma. Generated code should need no reformatting.

const LINE_LENGTH = 88;
const INDENT = "    ";

/** `head(args)tail` at `indent`, wrapped to fit. The result has no leading indent on its first line. */
export function wrapCall(head: string, args: readonly string[], tail = "", indent = ""): string {
  const flat = `${head}(${args.join(", ")})${tail}`;
  if (indent.length + flat.length <= LINE_LENGTH || args.length === 0) return flat;
  const inner = indent + INDENT;
  const hugged = inner + args.join(", ");
  if (hugged.length <= LINE_LENGTH && !args.some((arg) => arg.includes("\n"))) {
    return `${head}(\n${hugged}\n${indent})${tail}`;
  }
  const exploded = args.map((arg) => `${inner}${arg},`).join("\n");
  return `${head}(\n${exploded}\n${indent})${tail}`;
}

/**
 * `head{items}tail` for a bracketed literal (`[…]`, `{…}`), wrapped like `wrapCall`:
 * on one line when it fits, else the items on one indented line, else one per line.
 * @example wrapBrackets("return ", "{", "}", ['"a": 1'], "", "        ") // 'return {"a": 1}'
 */
export function wrapBrackets(head: string, open: string, close: string, items: readonly string[], tail = "", indent = ""): string {
  const flat = `${head}${open}${items.join(", ")}${close}${tail}`;
  if (indent.length + flat.length <= LINE_LENGTH || items.length === 0) return flat;
  const inner = indent + INDENT;
  const hugged = inner + items.join(", ");
  if (hugged.length <= LINE_LENGTH && !items.some((item) => item.includes("\n"))) {
    return `${head}${open}\n${hugged}\n${indent}${close}${tail}`;
  }
  return `${head}${open}\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}${close}${tail}`;
}
