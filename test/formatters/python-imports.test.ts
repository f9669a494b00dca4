// The import block pythonImports writes is in the order the real ruff's isort (I001) wants,
// for names and modules full of digit runs: natural order (`v2` before `v10`), runs too long
// for a double, and names that are a prefix of another. Not leading zeros: ruff orders `02` as
// a fraction (before `1`), we as the number 2; no generated name has one.

import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";

import { ImportCollector } from "../../src/codegen/imports.js";
import { pythonImports } from "../../src/formatters/python.js";
import { ruffCheck } from "../support/ruff-files.js";

const PIECES = ["a", "B", "x_", "Model", "MAX", "v", "1", "2", "10", "9", "100", "12345678901234567890", "12345678901234567891"];
/** An identifier of pieces: it starts with a letter or underscore, digits follow anywhere. */
const identifier = fc
  .tuple(fc.constantFrom("a", "B", "x_", "Model", "MAX", "v", "_"), fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }))
  .map(([first, rest]) => [first, ...rest].join(""));

it("orders names and modules with digit runs as ruff's isort does", async () => {
  const blocks = fc.sample(
    fc.tuple(fc.array(identifier, { minLength: 2, maxLength: 8 }), fc.array(fc.tuple(identifier, fc.array(identifier, { minLength: 1, maxLength: 8 })), { minLength: 1, maxLength: 6 })),
    { seed: 20_251_124, numRuns: 300 },
  ).map(([bare, from]) => {
    const imports = new ImportCollector();
    for (const module of bare) imports.add(`mod_${module.toLowerCase()}`);
    for (const [module, names] of from) imports.addFrom(`pkg_${module.toLowerCase()}`, ...names);
    return `${pythonImports(imports, {})}\n`;
  });
  assert.ok(blocks.some((block) => block.includes("12345678901234567890")), "no long digit run was generated");
  assert.equal(await ruffCheck(blocks, "I001"), "");
});
