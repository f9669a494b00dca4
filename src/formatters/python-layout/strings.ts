// Implicitly concatenated strings (`"a" "b"`): ruff joins them into one string when that
// fits on the line and the parts allow it, else puts one part per line. Parts are never
// split or requoted; joins whose quoting ruff would change are reported as unsupported.

import type { Literal } from "./ast.js";
import { type DocBuilder, isParenthesizedLevel } from "./doc.js";
import { inParenthesesOnlyGroup, inParenthesesOnlySoftLineOrSpace } from "./parentheses.js";
import { Unsupported } from "./tokens.js";

const PART = /^([a-zA-Z]*)("""|'''|"|')([\s\S]*)\2$/;

/** The parts joined into one string literal, or undefined when ruff keeps them apart (raw or triple-quoted parts). */
export function joinedString(lit: Literal): string | undefined {
  const parts = (lit.parts ?? []).map((part) => {
    const match = PART.exec(part);
    if (!match) throw new Unsupported(`the string ${part}`);
    return { prefix: match[1].toLowerCase(), quote: match[2], content: match[3] };
  });
  if (lit.text.includes("\n")) return undefined;
  if (parts.some((part) => part.quote.length === 3 || part.prefix.includes("r"))) return undefined;
  if (parts.some((part) => part.quote !== '"' || part.content.includes('\\"'))) {
    throw new Unsupported("joining implicitly concatenated strings that contain or use other quotes");
  }
  const formatted = parts.some((part) => part.prefix.includes("f"));
  const bytes = parts.some((part) => part.prefix.includes("b"));
  const content = parts
    .map((part) => (formatted && !part.prefix.includes("f") ? part.content.replace(/[{}]/g, "$&$&") : part.content))
    .join("");
  return `${bytes ? "b" : formatted ? "f" : ""}"${content}"`;
}

/** The parts separated by breaks that apply inside parentheses only. */
export function expandedParts(f: DocBuilder, lit: Literal, multipart: boolean): void {
  // A string that cannot be joined stays on several lines if the source put it there.
  if (multipart && lit.partsOnSeveralLines) f.expandParent();
  (lit.parts ?? []).forEach((part, index) => {
    if (index > 0) inParenthesesOnlySoftLineOrSpace(f);
    f.text(part);
  });
}

/** Ruff's `FormatExprStringLiteral` for an implicitly concatenated string. */
export function implicitString(f: DocBuilder, lit: Literal): void {
  const joined = joinedString(lit);
  if (!isParenthesizedLevel(f.level) && joined !== undefined) return f.text(joined);
  inParenthesesOnlyGroup(f, () => {
    if (joined === undefined) return expandedParts(f, lit, true);
    f.ifFits(() => f.text(joined));
    f.ifBreaks(() => expandedParts(f, lit, false));
  });
}
