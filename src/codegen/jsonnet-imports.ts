// The files a jsonnet evaluation reads: the config and everything it imports, transitively.
// Jsonnet allows only string literals after `import`, `importstr` and `importbin`, so a lexer
// (strings, comments and text blocks skipped) finds every import exactly, without evaluating;
// each is resolved as the evaluator does: beside the importing file, then the library paths.

import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The files an evaluation of a config reads, with their contents, and the imports that resolved nowhere. */
export interface JsonnetInputs {
  /** Absolute path → content, the config first. A file that cannot be read is absent. */
  files: Map<string, string>;
  /** Absolute paths where an unresolved import would be looked for first (beside its importer): creating one fixes the config. */
  missing: string[];
}

/**
 * Reads `configFile` and, following `import`, `importstr` and `importbin`, every file it reads.
 * `libraryDirs` are the jsonnet library paths in the order they were added (later ones win, as in the evaluator).
 * @example const { files } = jsonnetInputs("config/project.jsonnet", [stdlibParent]);
 */
export function jsonnetInputs(configFile: string, libraryDirs: readonly string[]): JsonnetInputs {
  const files = new Map<string, string>();
  const missing = new Set<string>();
  const searchOrder = [...libraryDirs].reverse();
  const pending: { file: string; parse: boolean }[] = [{ file: path.resolve(configFile), parse: true }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (files.has(next.file)) continue;
    const content = readOrUndefined(next.file);
    if (content === undefined) continue;
    files.set(next.file, content);
    if (!next.parse) continue;
    for (const { kind, target } of jsonnetImports(content)) {
      const candidates = path.isAbsolute(target) ? [target] : [path.dirname(next.file), ...searchOrder].map((dir) => path.resolve(dir, target));
      const found = candidates.find(isFile);
      if (found === undefined) missing.add(candidates[0]!);
      else pending.push({ file: found, parse: kind === "import" });
    }
  }
  return { files, missing: [...missing].sort() };
}

/** One import of a jsonnet source: its keyword and the path it names, as written. */
export interface JsonnetImport {
  kind: "import" | "importstr" | "importbin";
  target: string;
}

/**
 * The imports of a jsonnet source, in order. Comments, strings and text blocks are skipped,
 * so a word `import` inside them is not one; an import followed by anything but a string
 * literal (an error for jsonnet itself) is ignored.
 */
export function jsonnetImports(source: string): JsonnetImport[] {
  const found: JsonnetImport[] = [];
  const lexer = new Lexer(source);
  let pendingKind: JsonnetImport["kind"] | undefined;
  for (let token = lexer.next(); token !== undefined; token = lexer.next()) {
    if (pendingKind !== undefined && token.type === "string") found.push({ kind: pendingKind, target: token.value });
    pendingKind = token.type === "word" && /^import(str|bin)?$/.test(token.value) ? (token.value as JsonnetImport["kind"]) : undefined;
  }
  return found;
}

type Token = { type: "word" | "string" | "other"; value: string };

/** Just enough of jsonnet's lexical grammar to tell code from comments and strings. */
class Lexer {
  #at = 0;
  constructor(private readonly source: string) {}

  /** The next token, comments and whitespace skipped; undefined at the end (or in an unterminated string or comment). */
  next(): Token | undefined {
    const s = this.source;
    for (;;) {
      const char = s[this.#at];
      if (char === undefined) return undefined;
      if (/\s/.test(char)) this.#at++;
      else if (char === "#" || s.startsWith("//", this.#at)) this.#skipTo("\n", 0);
      else if (s.startsWith("/*", this.#at)) this.#skipTo("*/", 2);
      else break;
    }
    const start = this.#at;
    const char = s[start]!;
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(start, start + 64));
    if (word) {
      this.#at += word[0].length;
      return { type: "word", value: word[0] };
    }
    if (char === "'" || char === '"') return this.#quoted(char);
    if (char === "@" && (s[start + 1] === "'" || s[start + 1] === '"')) return this.#verbatim(s[start + 1]!);
    if (s.startsWith("|||", start)) return this.#textBlock();
    this.#at++;
    return { type: "other", value: char };
  }

  #skipTo(end: string, extra: number): void {
    const found = this.source.indexOf(end, this.#at + extra);
    this.#at = found === -1 ? this.source.length : found + end.length;
  }

  /** `'…'` or `"…"` with backslash escapes. */
  #quoted(quote: string): Token | undefined {
    let value = "";
    for (let at = this.#at + 1; at < this.source.length; at++) {
      const char = this.source[at]!;
      if (char === quote) {
        this.#at = at + 1;
        return { type: "string", value };
      }
      if (char !== "\\") {
        value += char;
        continue;
      }
      const escaped = this.source[++at];
      if (escaped === "u") {
        value += String.fromCharCode(Number.parseInt(this.source.slice(at + 1, at + 5), 16));
        at += 4;
      } else {
        value += ESCAPES[escaped ?? ""] ?? escaped ?? "";
      }
    }
    this.#at = this.source.length;
    return undefined;
  }

  /** `@'…'` or `@"…"`: no escapes but a doubled quote. */
  #verbatim(quote: string): Token | undefined {
    let value = "";
    for (let at = this.#at + 2; at < this.source.length; at++) {
      if (this.source[at] !== quote) value += this.source[at];
      else if (this.source[at + 1] === quote) value += this.source[++at];
      else {
        this.#at = at + 1;
        return { type: "string", value };
      }
    }
    this.#at = this.source.length;
    return undefined;
  }

  /** `|||` text block: ends at a line holding only (indentation and) `|||`. */
  #textBlock(): Token {
    const end = /\n[ \t]*\|\|\|/g;
    end.lastIndex = this.#at + 3;
    const match = end.exec(this.source);
    this.#at = match ? match.index + match[0].length : this.source.length;
    return { type: "other", value: "|||" };
  }
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "\\": "\\", "/": "/", "'": "'", '"': '"' };

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false; // a path through a file (ENOTDIR): nothing there
  }
}
