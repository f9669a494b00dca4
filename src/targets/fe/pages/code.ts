// Writing TypeScript and JSX source: the one escaping function for strings (`tsString`),
// its JSX forms, and `Imports`, which records the symbols a generated file uses so its
// import block is derived from them rather than kept in step by hand.

import { posix } from "node:path";
import { ImportCollector } from "../../../codegen/index.js";

/** A TypeScript string literal of any text. The only way user text reaches generated code. */
export function tsString(text: string): string {
  return JSON.stringify(text);
}

/** Text in JSX children: as it is when JSX reads it back unchanged, else a string literal in braces. */
export function jsxText(text: string): string {
  return /^[^{}<>&\s](?:[^{}<>&\n]*[^{}<>&\s])?$/.test(text) ? text : `{${tsString(text)}}`;
}

/** A JSX attribute holding text: `name="…"` when JSX reads it back unchanged, else `name={"…"}`. */
export function jsxAttr(name: string, text: string): string {
  return /^[^"&\n]*$/.test(text) ? `${name}="${text}"` : `${name}={${tsString(text)}}`;
}

/** Text inside a `/** … *\/` comment: a `*\/` in it would end the comment early. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** An object literal's key for any field name (`title`, `"two words"`). */
export function propertyKey(field: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(field) ? field : tsString(field);
}

/** A property access that works for any field name (`row.title`, `row["two words"]`). */
export function member(object: string, field: string): string {
  const key = propertyKey(field);
  return key === field ? `${object}.${field}` : `${object}[${key}]`;
}

/** The imports of one generated file, added as its code uses symbols. */
export class Imports {
  readonly collector = new ImportCollector();

  /** @param dir the file's directory, relative to src/generated/ ("" for the top). */
  constructor(private readonly dir: string) {}

  /** Uses `name` from an npm package; returns the name. */
  from(pkg: string, name: string): string {
    this.collector.addFrom(pkg, name);
    return name;
  }

  /** Uses `name` from a module under src/generated/ (`runtime/list`, `authors/author`); returns the name. */
  use(path: string, name: string): string {
    this.collector.addFrom(this.specifier(path), name);
    return name;
  }

  /** Uses a type from a module under src/generated/. */
  type(path: string, name: string): string {
    this.collector.addFrom(this.specifier(path), `type ${name}`);
    return name;
  }

  /** Uses a type from an npm package. */
  typeFrom(pkg: string, name: string): string {
    this.collector.addFrom(pkg, `type ${name}`);
    return name;
  }

  private specifier(path: string): string {
    const relative = posix.relative(this.dir === "" ? "." : this.dir, path);
    return relative.startsWith(".") ? relative : `./${relative}`;
  }
}

/** `["admin", "editor"]` for an operation only those groups may call; "" when every user may. */
export function groupsArray(op: { groups?: readonly string[] } | undefined): string {
  return op?.groups === undefined ? "" : `[${op.groups.map(tsString).join(", ")}]`;
}
