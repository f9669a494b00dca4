// The be target's one escaping of user text into Python (src/targets/be/python/literals.ts),
// checked by real CPython: any string, through `pythonString`, parses as one string constant
// equal to it; through `docstringText`, as the docstring of a function that defines nothing
// else (no injected code, no unclosed quotes, no `\N` compile error). fast-check generates the
// strings, biased towards quotes, backslashes, line breaks, NUL, lone surrogates and escapes.

import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import fc from "fast-check";
import { docstringText, pythonString } from "../../../src/targets/be/python/literals.js";
import { generateFromConfig } from "../../helpers/golden.js";
import { type Venv, ensureVenv } from "../../support/venv.js";

const CHECKER = join(resolve(fileURLToPath(import.meta.url), ".."), "escaping.py");
const RUNS = Number(process.env.CODEGEN_ESCAPE_RUNS ?? 2000);
const SEED = Number(process.env.CODEGEN_ESCAPE_SEED ?? 20_261_123);

let venv: Venv;
before(async () => {
  venv = await ensureVenv();
});

interface Case {
  kind: "string" | "docstring";
  source: string;
  expected: string;
}

/** Runs every case through one Python process; the problem of each, or null. */
async function check(cases: readonly Case[]): Promise<(string | null)[]> {
  const child = spawn(venv.python, [CHECKER], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const done = new Promise<void>((resolveDone, reject) => child.on("close", (code) => (code === 0 ? resolveDone() : reject(new Error(`checker exited ${code}`)))));
  child.stdin.end(cases.map((item) => JSON.stringify(item)).join("\n") + "\n");
  await done;
  return output.trim().split("\n").map((line) => JSON.parse(line) as string | null);
}

/** What `ruff format` would change under `path`, as a diff: empty when it keeps everything. */
function ruffFormatDiff(path: string): Promise<string> {
  return promisify(execFile)(join(venv.bin, "ruff"), ["format", "--diff", "--no-cache", path]).then(
    () => "",
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );
}

// Characters that break naive escaping, mixed into arbitrary unicode text.
const tricky = fc.constantFrom('"', '"""', "'", "\\", "\\N", "\\N{BULLET}", "\n", "\r\n", "\r", "\t", "\0", "\u2028", "\ufeff", "\ud800", "\udfff", "{", "}", "#", "\x7f", "\x85", "x", " ");
const text = fc.array(fc.oneof(tricky, fc.string({ unit: "grapheme", maxLength: 6 }), fc.string({ unit: "binary", maxLength: 4 })), { maxLength: 20 }).map((parts) => parts.join(""));

/**
 * What a docstring made by `docstringText(value, indent)` must read back as: the text with
 * each line's trailing whitespace removed, continuation lines indented, and a multi-line
 * docstring ending with a line break and the indent (its closing quotes on their own line).
 */
function docstringValue(value: string, indent: string): string {
  const lines = value.replace(/\s+$/, "").split("\n").map((line) => line.replace(/\s+$/, ""));
  if (lines.length === 1) return lines[0]!;
  return `${lines.map((line, index) => (index === 0 || line === "" ? line : indent + line)).join("\n")}\n${indent}`;
}

describe("escaping user text into Python", () => {
  it("pythonString: any string reads back as itself, as one constant", async () => {
    const samples = fc.sample(text, { numRuns: RUNS, seed: SEED });
    const cases: Case[] = samples.map((value) => ({ kind: "string", source: pythonString(value), expected: value }));
    const problems = await check(cases);
    const failed = problems.flatMap((problem, index) => (problem === null ? [] : [`${JSON.stringify(samples[index])} → ${cases[index]!.source}: ${problem}`]));
    assert.deepEqual(failed.slice(0, 5), [], `seed ${SEED}`);
  });

  it("pythonString: quoted as ruff format quotes it, so ruff keeps every literal as written", async () => {
    const samples = fc.sample(text, { numRuns: RUNS, seed: SEED + 2 });
    const dir = await mkdtemp(join(tmpdir(), "codegen-quotes-"));
    try {
      const file = join(dir, "strings.py");
      await writeFile(file, samples.map((value, index) => `x${index} = ${pythonString(value)}\n`).join(""));
      assert.equal(await ruffFormatDiff(file), "", `seed ${SEED + 2}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("docstringText: any text stays inside the docstring, at any indent", async () => {
    const samples = fc.sample(text, { numRuns: RUNS, seed: SEED + 1 });
    const cases: Case[] = samples.map((value) => ({
      kind: "docstring",
      source: `def f():\n    """${docstringText(value, "    ")}"""\n`,
      expected: docstringValue(value, "    "),
    }));
    const problems = await check(cases);
    const failed = problems.flatMap((problem, index) => (problem === null ? [] : [`${JSON.stringify(samples[index])} → ${cases[index]!.source}: ${problem}`]));
    assert.deepEqual(failed.slice(0, 5), [], `seed ${SEED + 1}`);
  });

  it("a summary that tries to close the docstring and run code stays text", async () => {
    const attack = 'x"""\nopen("/tmp/PWNED","w").write("x")\nasync def _z():\n    """';
    const [problem] = await check([{ kind: "docstring", source: `def f():\n    """${docstringText(attack, "    ")}"""\n`, expected: docstringValue(attack, "    ") }]);
    assert.equal(problem, null);
  });
});

/** Generates a one-resource tree (model `shop.models.Item`), hands it to `check`, then removes it. */
async function withItemTree(resource: { fields: object[]; operations: unknown[] }, check: (out: string) => Promise<void>): Promise<void> {
  const { out, temps } = await generateFromConfig("be", { module: "shop", resources: [{ model: "shop.models.Item", ...resource }] });
  try {
    await check(out);
  } finally {
    await Promise.all(temps.map((temp) => rm(temp, { recursive: true, force: true })));
  }
}

describe("user text through the whole be target", () => {
  it("descriptions holding quotes, short and past the line length, generate the tree ruff format writes", async () => {
    const long = 'The "title" of the item as listings and its own page show it, with "quotes" inside for good measure.';
    const fields = [{ name: "id", type: "uuid" }, { name: "title", type: "str", description: long }, { name: "note", type: "str", description: 'A "note".', default: "it's" }];
    await withItemTree({ fields, operations: ["get", "create"] }, async (out) => {
      assert.equal(await ruffFormatDiff(out), "");
      const probe = "import ast, sys; print([ast.literal_eval(k.value) for n in ast.walk(ast.parse(open(sys.argv[1]).read())) if isinstance(n, ast.Call) for k in n.keywords if k.arg == 'description'][0])";
      const { stdout } = await promisify(execFile)(venv.python, ["-c", probe, join(out, "shop/schemas/item.py")]);
      assert.equal(stdout.trimEnd(), long);
    });
  });

  it("summaries, descriptions and defaults with quotes, backslashes, \\N and NUL compile and read back as written", async () => {
    const summary = 'x"""\nopen("/tmp/PWNED","w").write("x")\nasync def _z():\n    """';
    const description = 'a \\N{BULLET} "b" \\ c\u0000';
    const fallback = 'say "hi" \\N';
    const fields = [{ name: "id", type: "uuid" }, { name: "title", type: "str", description, default: fallback }];
    await withItemTree({ fields, operations: [{ name: "get", summary }, "create"] }, async (out) => {
      // Every module compiles; the handler's docstring, the field's description and its default are the text as written.
      const probe = [
        "import ast, json, pathlib, sys",
        "for path in pathlib.Path(sys.argv[1]).rglob('*.py'): compile(path.read_text(), str(path), 'exec')",
        "routes = ast.parse(open(sys.argv[2]).read())",
        "schemas = ast.parse(open(sys.argv[3]).read())",
        "fn = next(n for n in routes.body if isinstance(n, ast.AsyncFunctionDef) and n.name == 'get_item')",
        "calls = [n for n in ast.walk(schemas) if isinstance(n, ast.Call) and getattr(n.func, 'id', '') == 'Field']",
        "kw = {k.arg: ast.literal_eval(k.value) for c in calls for k in c.keywords}",
        "print(json.dumps([ast.get_docstring(fn, clean=False), kw.get('description'), kw.get('default')]))",
      ].join("\n");
      const { stdout } = await promisify(execFile)(venv.python, ["-c", probe, out, join(out, "shop/routes/item.py"), join(out, "shop/schemas/item.py")]);
      const [doc, readDescription, readDefault] = JSON.parse(stdout) as string[];
      assert.equal(doc, docstringValue(summary, "    "));
      assert.equal(readDescription, description);
      assert.equal(readDefault, fallback);
    });
  });
});
