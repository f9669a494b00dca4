// Differential fuzzing of formatPython against the real ruff: random statements and headers
// (grammar.ts), first canonicalized by `ruff format --line-length 320` into the one-line form
// templates write, then formatted by ruff at 88 columns and by formatPython: byte equality,
// and formatPython is the identity on ruff's result. Seed fixed (printed on failure); widen
// with CODEGEN_PYFMT_SEED and CODEGEN_PYFMT_RUNS (cases, default 1000); CODEGEN_PYFMT_DUMP
// names a file to write every failing case to.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";

import { formatPython } from "../../../src/formatters/python-layout/index.js";
import { caseArbitrary, caseSource } from "./grammar.js";
import { ruffFormat } from "./ruff.js";

const SEED = Number(process.env.CODEGEN_PYFMT_SEED ?? 20_250_610);
const RUNS = Number(process.env.CODEGEN_PYFMT_RUNS ?? 1000);

function attempt(source: string): string {
  try {
    return formatPython(source, { wrapProse: false });
  } catch (error) {
    return `<threw> ${(error as Error).message}`;
  }
}

test(`formatPython equals ruff format on ${RUNS} random cases (seed ${SEED})`, async () => {
  const generated = fc.sample(caseArbitrary, { seed: SEED, numRuns: RUNS }).map(caseSource);
  // Ruff's one-line form of each case; a case too long even for 320 columns is left out.
  const canonical = await ruffFormat(generated, 320);
  const codeLines = (source: string) => source.split("\n").filter((line) => line.trim() !== "").length;
  const oneLine = canonical.filter((source, index) => codeLines(source) === codeLines(generated[index]));
  assert.ok(oneLine.length > RUNS * 0.7, `only ${oneLine.length} of ${RUNS} cases fit on one line: the grammar drifted`);
  const expected = await ruffFormat(oneLine);
  const failures: string[] = [];
  oneLine.forEach((input, index) => {
    const actual = attempt(input);
    if (actual !== expected[index]) failures.push(`case ${index}, input:\n${input}\nexpected:\n${expected[index]}\nactual:\n${actual}`);
    else if (attempt(expected[index]) !== expected[index]) failures.push(`case ${index} is not stable on ruff's output:\n${expected[index]}`);
  });
  const longLines = oneLine.filter((source) => source.split("\n").some((line) => line.length > 88)).length;
  assert.ok(longLines > RUNS / 4, `only ${longLines} of ${RUNS} cases need layout: the grammar drifted`);
  if (process.env.CODEGEN_PYFMT_DUMP) writeFileSync(process.env.CODEGEN_PYFMT_DUMP, failures.join("\n=====\n"));
  assert.equal(failures.length, 0, `${failures.length} of ${oneLine.length} cases differ (seed ${SEED}); first:\n${failures[0]}`);
});
