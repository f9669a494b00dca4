// Python import formatter: the block isort (and ruff's `I` rules) would write with default
// settings, so generated modules pass an import-order check untouched. Sections are
// __future__, standard library, third-party, first-party, then relative imports.

import type { ImportCollector, ImportFormatOptions, ImportFormatter } from "../codegen/imports.js";

/** The line length past which a from-import wraps in parentheses (black's and ruff's default). */
const LINE_LENGTH = 88;

/** Top-level modules of the Python 3 standard library (public ones; `_`-prefixed are matched by rule). */
const STDLIB = new Set(
  `abc aifc argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect builtins bz2 calendar cgi cgitb chunk cmath cmd code codecs
  codeop collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg cProfile crypt csv ctypes curses dataclasses datetime dbm
  decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc
  genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json
  keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath
  nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile
  pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors
  shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep
  struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap threading time timeit tkinter token tokenize tomllib
  trace traceback tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref
  xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo`.split(/\s+/),
);

/** isort's default sections, in output order. */
enum Section {
  Future,
  Stdlib,
  ThirdParty,
  FirstParty,
  Local,
}

/**
 * Formats imports as isort would with its defaults: one blank line between sections,
 * `import x` lines before `from x import …` lines within a section, modules compared
 * case-insensitively, imported names ordered constants, classes, then functions.
 * Long from-imports wrap one name per line. No trailing newline.
 *
 * @example
 * pythonImports(new ImportCollector().addFrom("blog.models", "Author").add("uuid"), { firstParty: ["blog"] });
 * // "import uuid\n\nfrom blog.models import Author"
 */
export const pythonImports: ImportFormatter = (collector: ImportCollector, options: ImportFormatOptions): string => {
  const firstParty = options.firstParty ?? [];
  const sections: SectionLines[] = [];
  const sectionOf = (module: string): SectionLines => {
    const section = classify(module, firstParty);
    return (sections[section] ??= { bare: [], from: [] });
  };
  for (const module of collector.bareModules) sectionOf(module).bare.push(module);
  for (const [module, names] of collector.sortedFromImports) sectionOf(module).from.push({ module, names });

  const blocks: string[] = [];
  // A sparse array: its indexes are the sections, and iteration skips the empty ones in order.
  for (const section of sections) {
    if (section === undefined) continue;
    const lines: string[] = [];
    for (const module of sortModules(section.bare)) lines.push(`import ${module}`);
    for (const { module, names } of sortModules(section.from)) lines.push(...fromStatements(module, names));
    blocks.push(lines.join("\n"));
  }
  return blocks.join("\n\n");
};

/** The bare modules and the from-imports (module and names) of one section. */
interface SectionLines {
  bare: string[];
  from: { module: string; names: string[] }[];
}

function classify(module: string, firstParty: readonly string[]): Section {
  if (module.startsWith(".")) return Section.Local;
  if (module === "__future__") return Section.Future;
  if (firstParty.some((pkg) => module === pkg || module.startsWith(`${pkg}.`))) return Section.FirstParty;
  const dot = module.indexOf(".");
  const top = dot === -1 ? module : module.slice(0, dot);
  // `_thread`, `_collections_abc` and friends are private stdlib modules.
  if (STDLIB.has(top) || (top.startsWith("_") && !top.startsWith("__"))) return Section.Stdlib;
  return Section.ThirdParty;
}

/**
 * The from-import statements of `module`: the plain names in one, and each `name as alias`
 * in one of its own (isort's default, `combine_as_imports` off), ordered by their first name.
 */
function fromStatements(module: string, names: readonly string[]): string[] {
  const plain: string[] = [];
  const statements: { key: string; imported: string; aliased: boolean; names: string[] }[] = [];
  for (const name of names) {
    const as = name.indexOf(" as ");
    if (as === -1) plain.push(name);
    else statements.push({ key: name, imported: name.slice(0, as), aliased: true, names: [name] });
  }
  if (statements.length === 0) return [fromLine(module, sortNames(plain))];
  if (plain.length > 0) {
    const sorted = sortNames(plain);
    statements.push({ key: sorted[0]!, imported: sorted[0]!, aliased: false, names: sorted });
  }
  // `Tag` before `Tag as TagModel`: the bare name compares first on ties.
  statements.sort((a, b) => compareNames(a.imported, b.imported) || Number(a.aliased) - Number(b.aliased) || naturalCompare(a.key, b.key));
  return statements.map((statement) => fromLine(module, statement.names));
}

function fromLine(module: string, names: string[]): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (line.length <= LINE_LENGTH) return line;
  return `from ${module} import (\n${names.map((name) => `    ${name},\n`).join("")})`;
}

/**
 * Module order: `from .. import` before `from . import` (furthest first), then by name
 * ignoring case. Each module's sort key is made once, not at every comparison.
 */
function sortModules<T extends string | { module: string }>(items: T[]): T[] {
  if (items.length < 2) return items;
  const keyed = items.map((item) => {
    const module = typeof item === "string" ? item : item.module;
    return { item, module, dots: /^\.*/.exec(module)![0].length, lower: module.toLowerCase() };
  });
  keyed.sort((a, b) => b.dots - a.dots || naturalCompare(a.lower, b.lower) || naturalCompare(a.module, b.module));
  return keyed.map((entry) => entry.item);
}

/** `names` in {@link compareNames} order, each name's rank and lowercase made once rather than at every comparison. */
function sortNames(names: string[]): string[] {
  if (names.length < 2) return names;
  const keyed = names.map((name) => ({ name, rank: nameRank(name), lower: name.toLowerCase() }));
  keyed.sort((a, b) => a.rank - b.rank || naturalCompare(a.lower, b.lower) || naturalCompare(a.name, b.name));
  return keyed.map((entry) => entry.name);
}

/** Imported-name order: `*`, then CONSTANTS, Classes, functions; each ignoring case, then exact. */
function compareNames(a: string, b: string): number {
  return nameRank(a) - nameRank(b) || naturalCompare(a.toLowerCase(), b.toLowerCase()) || naturalCompare(a, b);
}

function nameRank(name: string): number {
  if (name === "*") return 0;
  if (name.length > 1 && name === name.toUpperCase() && name !== name.toLowerCase()) return 1;
  const first = name.charCodeAt(0);
  if (first >= UPPER_A && first <= UPPER_Z) return 2;
  return 3;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const UPPER_A = 65;
const UPPER_Z = 90;

/**
 * Compares strings with digit runs taken as numbers (`v2` before `v10`), like isort's natural
 * sort: runs of digits and of non-digits compared pairwise, a shorter list of runs first. Scans
 * in place, without splitting: a large run sorts its imports with hundreds of thousands of comparisons.
 */
function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const digits = isDigit(a.charCodeAt(i));
    const endA = runEnd(a, i, digits);
    const endB = runEnd(b, j, isDigit(b.charCodeAt(j)));
    const order = digits && isDigit(b.charCodeAt(j)) ? compareNumbers(a, i, endA, b, j, endB) : compareSpans(a, i, endA, b, j, endB);
    if (order !== 0) return order;
    i = endA;
    j = endB;
  }
  // Every run so far equal: the string with runs left over has more of them.
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

function isDigit(code: number): boolean {
  return code >= DIGIT_0 && code <= DIGIT_9;
}

/** Where the run of digits (or of non-digits) starting at `start` ends. */
function runEnd(text: string, start: number, digits: boolean): number {
  let end = start + 1;
  while (end < text.length && isDigit(text.charCodeAt(end)) === digits) end++;
  return end;
}

/**
 * The digit runs `a[i, endA)` and `b[j, endB)` compared as the numbers they spell, exactly at
 * any length (`Number` rounds past 15 digits): leading zeros aside, the longer run is the
 * larger, and runs of one length compare digit by digit.
 */
function compareNumbers(a: string, i: number, endA: number, b: string, j: number, endB: number): number {
  while (i < endA - 1 && a.charCodeAt(i) === DIGIT_0) i++;
  while (j < endB - 1 && b.charCodeAt(j) === DIGIT_0) j++;
  return endA - i - (endB - j) || compareSpans(a, i, endA, b, j, endB);
}

/** `a.slice(i, endA)` against `b.slice(j, endB)` in code-unit order, as `<` compares strings. */
function compareSpans(a: string, i: number, endA: number, b: string, j: number, endB: number): number {
  const length = Math.min(endA - i, endB - j);
  for (let offset = 0; offset < length; offset++) {
    const order = a.charCodeAt(i + offset) - b.charCodeAt(j + offset);
    if (order !== 0) return order < 0 ? -1 : 1;
  }
  const rest = endA - i - (endB - j);
  return rest < 0 ? -1 : rest > 0 ? 1 : 0;
}
