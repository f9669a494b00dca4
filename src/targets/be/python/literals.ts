// The one place user text becomes Python source. `pythonString` writes any string as a
// literal, quoted as ruff writes it, that reads back as exactly that string; `docstringText` escapes
// text for the inside of a `"""…"""` docstring. Both are total: no input can end the
// literal early, inject code, or make the module fail to compile (`\N`, NUL, surrogates).

import type { ImportCollector } from "../../../codegen/index.js";

const SIMPLE_ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\xNN`, `\uNNNN` for one UTF-16 code unit (lone surrogates included). */
function codeEscape(unit: number): string {
  return unit <= 0xff ? `\\x${unit.toString(16).padStart(2, "0")}` : `\\u${unit.toString(16).padStart(4, "0")}`;
}

// Characters Python source cannot hold raw inside a string (controls, line separators that
// editors treat as line breaks, lone surrogates that UTF-8 cannot encode).
const NEEDS_ESCAPE = /[\\"'\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// A superset of NEEDS_ESCAPE without lookarounds: most texts match neither and are returned as they are.
const MAY_NEED_ESCAPE = /[\\"'\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;

function escape(text: string, quote: (match: string, offset: number, whole: string) => string): string {
  if (!MAY_NEED_ESCAPE.test(text)) return text;
  return text.replace(NEEDS_ESCAPE, (match, offset: number, whole: string) => {
    if (match === '"' || match === "'") return quote(match, offset, whole);
    return SIMPLE_ESCAPES[match] ?? codeEscape(match.charCodeAt(0));
  });
}

// Made once: every literal of a large run passes one of them.
const escapeSingle = (match: string): string => (match === "'" ? "\\'" : match);
const escapeDouble = (match: string): string => (match === '"' ? '\\"' : match);

/**
 * A Python string literal holding `text`, quoted as `ruff format` writes it: in double quotes,
 * unless the text holds more `"` than `'` (then in single quotes, escaping fewer).
 * @example pythonString('say "hi"\n') // `'say "hi"\\n'`
 * @example pythonString("it's") // `"it's"`
 */
export function pythonString(text: string): string {
  return count(text, '"') > count(text, "'") ? `'${escape(text, escapeSingle)}'` : `"${escape(text, escapeDouble)}"`;
}

function count(text: string, char: string): number {
  let found = 0;
  for (let index = text.indexOf(char); index !== -1; index = text.indexOf(char, index + 1)) found++;
  return found;
}

const LINE_LENGTH = 88;

/**
 * `name=<text>` for a keyword argument written at `indent` columns, laid out so `ruff format`
 * keeps it and no line passes 88 columns: the literal itself when the line fits, else in
 * parentheses (ruff breaks them onto a line of their own), else split at spaces into an
 * implicit concatenation whose parts each fit (ruff never joins what cannot fit).
 * @example keywordString("description", "Rows per page.", 8) // 'description="Rows per page."'
 */
export function keywordString(name: string, text: string, indent: number): string {
  const literal = pythonString(text);
  if (indent + name.length + 1 + literal.length + 1 <= LINE_LENGTH) return `${name}=${literal}`;
  const room = LINE_LENGTH - indent - 4;
  if (literal.length <= room) return `${name}=(${literal})`;
  const parts: string[] = [];
  let part = "";
  for (const word of text.split(/(?<= )/)) {
    if (part !== "" && pythonString(part + word).length > room) {
      parts.push(pythonString(part));
      part = "";
    }
    part += word;
  }
  parts.push(pythonString(part));
  return `${name}=(${parts.join(" ")})`;
}

/**
 * `text` as the inside of a `"""…"""` docstring whose quotes sit at `indent`: backslashes
 * and control characters escaped, every `"` that could close the docstring (one followed
 * by another `"`, or the last character) escaped. Line breaks stay: continuation lines get
 * the indent, and a multi-line docstring ends with its closing quotes on a line of their own.
 * @example docstringText('The "draft" state') // 'The "draft" state'
 * @example docstringText("Summary.\n\nMore.", "    ") // 'Summary.\n\n    More.\n    '
 */
export function docstringText(text: string, indent = ""): string {
  const trimmed = text.trimEnd();
  // Most docstrings are one line: no arrays.
  if (!trimmed.includes("\n")) return escape(trimmed, escapeDocstringQuote);
  const lines = trimmed.split("\n").map((line) => escape(line.trimEnd(), escapeDocstringQuote));
  return `${lines.map((line, index) => (index === 0 || line === "" ? line : `${indent}${line}`)).join("\n")}\n${indent}`;
}

/** A `"` that could close a docstring: followed by another, or the last character. */
function escapeDocstringQuote(quote: string, offset: number, whole: string): string {
  return quote === '"' && (offset === whole.length - 1 || whole[offset + 1] === '"') ? '\\"' : quote;
}

/** A JSON value as a Python literal: `true` → `True`, `null` → `None`, strings through `pythonString`. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : `float("${value}")`;
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, item]) => `${pythonString(key)}: ${pythonLiteral(item)}`).join(", ")}}`;
}

/**
 * The default of a Pydantic field: a literal, or a `default_factory` for lists and dicts
 * (mutable defaults must not be shared between instances).
 */
export function fieldDefault(value: unknown, imports: ImportCollector): string {
  if (typeof value !== "object" || value === null) return pythonLiteral(value);
  imports.addFrom("pydantic", "Field");
  const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
  if (empty) return `Field(default_factory=${Array.isArray(value) ? "list" : "dict"})`;
  return `Field(default_factory=lambda: ${pythonLiteral(value)})`;
}

/**
 * An integer as Python source, its digits grouped by `_` in thousands past four digits.
 * @example pythonInt(1048576) // "1_048_576"
 */
export function pythonInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`bug: ${value} is not a safe integer`);
  const digits = String(Math.abs(value));
  const grouped = digits.length <= 4 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, "_");
  return value < 0 ? `-${grouped}` : grouped;
}
