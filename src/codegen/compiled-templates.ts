// Templates compiled ahead of time. nunjucks turns a template's text into JavaScript on its
// first use in every process: for the `be` target, about 23 ms of a 5-resource run.
// `npm run build` writes each built-in target's templates, compiled, to
// `<template dir>.compiled.json` (`precompileTemplates` in templating.ts). A loader wrapped by
// `withCompiledTemplates` uses an entry only while the template's text has the hash it was
// compiled from and nunjucks is the version that compiled it, so an edited template (by a
// target's developer, during a watch) compiles from its text, as every template did before.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nunjucks from "nunjucks";
// Imported, not read at run time: dist/ bundles nunjucks, whose version may not be the one installed.
import nunjucksPackage from "nunjucks/package.json" with { type: "json" };

import { sha256 } from "./prune.js";

/** The file `precompileTemplates` writes: each `.njk` under the directory, by its path there with `/`. */
interface CompiledTable {
  nunjucks: string;
  templates: Record<string, { sha256: string; code: string }>;
}

/** The running nunjucks' version: compiled code calls its runtime, so it must be the one that compiled it. */
const NUNJUCKS_VERSION = nunjucksPackage.version;

/** nunjucks' compiler, and what it reads of an environment: both public in nunjucks, absent from its types. */
const { compiler } = nunjucks as unknown as { compiler: { compile(text: string, asyncFilters: unknown, extensions: unknown, name: string, opts: unknown): string } };
type CompilingEnvironment = { asyncFilters: unknown; extensionsList: unknown; opts: unknown };

// Compiled code names its own template (to resolve `./relative` includes from it). It is
// compiled under this stand-in name, whose string literal is replaced by the template's real
// path as it loads.
const STAND_IN_NAME = "\u0000template path";
const STAND_IN_LITERAL = JSON.stringify(STAND_IN_NAME);

/** Where the compiled templates of `dir` are kept: beside it, so no template listing ever sees them. */
export function compiledTableOf(dir: string): string {
  return `${path.resolve(dir)}.compiled.json`;
}

/** Compiles every `.njk` file under `dir` as `env` would, and writes the table; returns how many. */
export function writeCompiledTemplates(dir: string, env: nunjucks.Environment): number {
  const templates: CompiledTable["templates"] = {};
  const { asyncFilters, extensionsList, opts } = env as unknown as CompilingEnvironment;
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".njk"));
  for (const name of names.sort()) {
    const text = readFileSync(path.join(dir, name), "utf8");
    const code = compiler.compile(text, asyncFilters, extensionsList, STAND_IN_NAME, opts);
    templates[name.split(path.sep).join("/")] = { sha256: sha256(text), code };
  }
  const table: CompiledTable = { nunjucks: NUNJUCKS_VERSION, templates };
  writeFileSync(compiledTableOf(dir), JSON.stringify(table));
  return names.length;
}

/** The tables read so far, by directory (null: none, or another nunjucks version's). */
const tables = new Map<string, CompiledTable | null>();

function tableOf(dir: string): CompiledTable | null {
  let table = tables.get(dir);
  if (table === undefined) {
    try {
      const read = JSON.parse(readFileSync(compiledTableOf(dir), "utf8")) as CompiledTable;
      table = read.nunjucks === NUNJUCKS_VERSION ? read : null;
    } catch {
      table = null; // no table: this directory's templates compile from their text
    }
    tables.set(dir, table);
  }
  return table;
}

/**
 * `loader` (over `dirs`), answering a template with its compiled code from its directory's
 * table when the text it read is the text that was compiled.
 */
export function withCompiledTemplates(loader: nunjucks.FileSystemLoader, dirs: readonly string[]): nunjucks.FileSystemLoader {
  const roots = dirs.map((dir) => path.resolve(dir));
  const read = loader.getSource.bind(loader);
  loader.getSource = (name: string) => {
    const source = read(name);
    if (!source) return source;
    const root = roots.find((dir) => source.path.startsWith(dir + path.sep));
    const entry = root === undefined ? undefined : tableOf(root)?.templates[path.relative(root, source.path).split(path.sep).join("/")];
    if (entry === undefined || entry.sha256 !== sha256(source.src)) return source;
    const code = entry.code.replaceAll(STAND_IN_LITERAL, JSON.stringify(source.path));
    // nunjucks takes `{ type: "code", obj }` in place of a template's text; its types know only text.
    const compiled = { type: "code", obj: new Function(code)() as unknown };
    return { ...source, src: compiled as unknown as string };
  };
  return loader;
}
