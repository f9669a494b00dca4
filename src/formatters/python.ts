// Python import formatter: the block isort (and ruff's `I` rules) would write with default
// settings, so generated modules pass an import-order check untouched. Sections are
// __future__, standard library, third-party, first-party, then relative imports.

import type { ImportCollector, ImportFormatOptions, ImportFormatter } from "../codegen/imports.js";

/** The line length past which a from-import wraps in parentheses (black's and ruff's default). */
const LINE_LENGTH = 88;

/** Top-level modules of the Python 3 standard library (public ones; `_`-prefixed are matched by rule). */
const STDLIB = new Set(
  `abc aifc argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii
  bisect builtins bz2 calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys
  compileall concurrent configparser contextlib contextvars copy copyreg cProfile crypt csv
  ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings
  ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools
  gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http
  idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3
  linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib
  msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse
  os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix
  posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue
  quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors
  shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3
  sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess
  sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap
  threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle
  turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref
  webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo`.split(/\s+/),
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
  const sections = new Map<Section, { bare: string[]; from: [string, string[]][] }>();
  const sectionOf = (module: string) => {
    const section = classify(module, firstParty);
    let entry = sections.get(section);
    if (!entry) {
      entry = { bare: [], from: [] };
      sections.set(section, entry);
    }
    return entry;
  };
  for (const module of collector.bareModules) sectionOf(module).bare.push(module);
  for (const [module, names] of collector.sortedFromImports) sectionOf(module).from.push([module, names]);

  const blocks: string[] = [];
  for (const section of [...sections.keys()].sort((a, b) => a - b)) {
    const { bare, from } = sections.get(section)!;
    const lines = [
      ...bare.sort(compareModules).map((module) => `import ${module}`),
      ...from
        .sort(([a], [b]) => compareModules(a, b))
        .flatMap(([module, names]) => fromStatements(module, names)),
    ];
    blocks.push(lines.join("\n"));
  }
  return blocks.join("\n\n");
};

function classify(module: string, firstParty: readonly string[]): Section {
  if (module.startsWith(".")) return Section.Local;
  if (module === "__future__") return Section.Future;
  if (firstParty.some((pkg) => module === pkg || module.startsWith(`${pkg}.`))) return Section.FirstParty;
  const top = module.split(".")[0];
  // `_thread`, `_collections_abc` and friends are private stdlib modules.
  if (STDLIB.has(top) || (top.startsWith("_") && !top.startsWith("__"))) return Section.Stdlib;
  return Section.ThirdParty;
}

/**
 * The from-import statements of `module`: the plain names in one, and each `name as alias`
 * in one of its own (isort's default, `combine_as_imports` off), ordered by their first name.
 */
function fromStatements(module: string, names: readonly string[]): string[] {
  const plain = names.filter((name) => !name.includes(" as ")).sort(compareNames);
  const statements: { key: string; names: string[] }[] = names.filter((name) => name.includes(" as ")).map((name) => ({ key: name, names: [name] }));
  if (plain.length > 0) statements.push({ key: plain[0]!, names: plain });
  // `Tag` before `Tag as TagModel`: the bare name compares first on ties.
  const imported = (key: string) => key.split(" as ")[0]!;
  statements.sort((a, b) => compareNames(imported(a.key), imported(b.key)) || Number(a.key.includes(" as ")) - Number(b.key.includes(" as ")) || naturalCompare(a.key, b.key));
  return statements.map((statement) => fromLine(module, statement.names));
}

function fromLine(module: string, names: string[]): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (line.length <= LINE_LENGTH) return line;
  return `from ${module} import (\n${names.map((name) => `    ${name},\n`).join("")})`;
}

/** Module order: `from .. import` before `from . import` (furthest first), then by name ignoring case. */
function compareModules(a: string, b: string): number {
  const depth = (module: string) => module.length - module.replace(/^\.+/, "").length;
  return depth(b) - depth(a) || naturalCompare(a.toLowerCase(), b.toLowerCase()) || naturalCompare(a, b);
}

/** Imported-name order: `*`, then CONSTANTS, Classes, functions; each ignoring case, then exact. */
function compareNames(a: string, b: string): number {
  return nameRank(a) - nameRank(b) || naturalCompare(a.toLowerCase(), b.toLowerCase()) || naturalCompare(a, b);
}

function nameRank(name: string): number {
  if (name === "*") return 0;
  if (name.length > 1 && name === name.toUpperCase() && name !== name.toLowerCase()) return 1;
  if (/^[A-Z]/.test(name)) return 2;
  return 3;
}

/** Compares strings with digit runs taken as numbers (`v2` before `v10`), like isort's natural sort. */
function naturalCompare(a: string, b: string): number {
  const chunks = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const left = chunks(a);
  const right = chunks(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [x, y] = [left[i], right[i]];
    const bothNumbers = /^\d/.test(x) && /^\d/.test(y);
    const order = bothNumbers ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return left.length - right.length;
}
