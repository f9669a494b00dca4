// The be target's one escaping of user text into Python (src/targets/be/python/literals.ts),
// checked by real CPython: any string, through `pythonString`, parses as one string constant
// equal to it; through `docstringText`, as the docstring of a function that defines nothing
// else (no injected code, no unclosed quotes, no `\N` compile error). fast-check generates the
// strings, biased towards quotes, backslashes, line breaks, NUL, lone surrogates and escapes.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { docstringText, pythonString } from "../../../src/targets/be/python/literals.js";
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
