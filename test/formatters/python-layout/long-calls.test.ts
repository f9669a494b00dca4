// Very long `name = callee(...)` lines, laid out argument by argument (long-calls.ts), come
// out exactly as the real ruff formats them: calls of random right-hand sides of the fuzz
// grammar, bare or parenthesized, positional and keyword, each line thousands of columns.

import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";

import { forgetLayouts, formatPython, layOutLine } from "../../../src/formatters/python-layout/index.js";
import { LONG_CALL_WIDTH, longCallLayout } from "../../../src/formatters/python-layout/long-calls.js";
import { caseArbitrary, caseSource } from "./grammar.js";
import { ruffFormat } from "./ruff.js";

it("lays out very long calls argument by argument exactly as ruff does", async () => {
  const generated = fc.sample(caseArbitrary, { seed: 20_251_124, numRuns: 3000 }).map(caseSource);
  const values = (await ruffFormat(generated, 320))
    .flatMap((source) => source.split("\n"))
    .map((line) => /^ *(?:[a-z_][a-z0-9_.]* [-+*]?= |return )(.+)$/.exec(line)?.[1])
    .filter((value): value is string => value !== undefined && !value.startsWith("yield") && !value.includes(" = ") && balanced(value))
    // One argument each: a value that may hold a top-level comma or `:=` gets parentheses.
    .map((value) => (/,|:=|lambda| for /.test(value) ? `(${value})` : value))
    .map((value, index) => (index % 3 === 0 ? `key_${index}=${value}` : value));
  // Positional arguments first, then keywords, as Python requires.
  const keywordsLast = (args: string[]) => [...args.filter((arg) => !arg.startsWith("key_")), ...args.filter((arg) => arg.startsWith("key_"))];
  assert.ok(values.length > 100, `only ${values.length} values: the grammar drifted`);
  const lines: string[] = [];
  let args: string[] = [];
  // The values in four orders, so that each argument also sits last, first, beside others.
  const orders = [values, [...values].reverse(), values.filter((_, index) => index % 2 === 0), values.filter((_, index) => index % 2 === 1)];
  for (const value of orders.flat()) {
    args.push(value);
    const line = `    TABLE = build_table(${keywordsLast(args).join(", ")})`;
    if (line.length >= LONG_CALL_WIDTH) {
      lines.push(line);
      args = [];
    }
  }
  const expected = await ruffFormat(lines.map((line) => `async def f():\n${line}\n`));
  let byArguments = 0;
  lines.forEach((line, index) => {
    forgetLayouts();
    const byArgument = longCallLayout(line, (short) => layOutLine(short, { wrapProse: false }));
    if (byArgument !== undefined) {
      byArguments++;
      assert.equal(`async def f():\n${byArgument}\n`, expected[index], line);
    }
    forgetLayouts();
    assert.equal(`async def f():\n${formatPython(`${line}\n`, { wrapProse: false })}`, expected[index], line);
  });
  assert.ok(byArguments === lines.length, `only ${byArguments} of ${lines.length} lines laid out argument by argument`);
});

/** Whether every bracket opened in `value` closes there (a value the one-line form kept on several lines does not). */
function balanced(value: string): boolean {
  return value.replace(/[^([{]/g, "").length === value.replace(/[^)\]}]/g, "").length;
}

it("leaves other long lines to the whole-line layout", () => {
  const value = `"${"x".repeat(40)}"`;
  const many = Array.from({ length: 60 }, () => value).join(", ");
  const layOutLine = (): string => assert.fail("no argument is laid out");
  assert.equal(longCallLayout(`TABLE = build_table(${many},)`, layOutLine), undefined, "a trailing comma");
  assert.equal(longCallLayout(`TABLE = build_table(${value})`.padEnd(LONG_CALL_WIDTH, " "), layOutLine), undefined, "not a call");
  assert.equal(longCallLayout(`TABLE: Table = build_table(${many})`, layOutLine), undefined, "an annotated target");
  assert.equal(longCallLayout(`TABLE = build_table(${many}).done()`, layOutLine), undefined, "a call chain");
  assert.equal(longCallLayout(`TABLE = build_table([${many}])`, layOutLine), undefined, "a single argument");
});
