// formatPython over every generated file of the golden trees (the runtime helpers are copied): ruff's own formatting of each
// file is a fixed point; the files as generated today (some lines laid out by hand, not as
// ruff would) and their one-line-per-statement form (flatPython: what templates write) come out
// exactly as `ruff format` makes them. Also measures the speed on that form, inflated.

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { formatPython } from "../../../src/formatters/python-layout/index.js";
import { isRuntimeHelper } from "../../../src/targets/be/runtime-source.js";
import { flatPython } from "../../helpers/flat-python.js";
import { ruffFormat } from "./ruff.js";

const GOLDEN = resolve(fileURLToPath(import.meta.url), "../../../golden/be");

describe("formatPython on the golden trees", () => {
  let paths: string[];
  let sources: string[];
  let formatted: string[];
  /** Each file with every statement on one line, as the templates will write it. */
  let oneLine: string[];
  let oneLineFormatted: string[];

  before(async () => {
    // The runtime helpers are copied as written, not laid out: the target never formats them.
    const generated = (path: string) => path.endsWith(".py") && !isRuntimeHelper(path.slice(path.indexOf("/") + 1));
    paths = (await readdir(GOLDEN, { recursive: true })).filter(generated).sort();
    sources = await Promise.all(paths.map((path) => readFile(join(GOLDEN, path), "utf8")));
    assert.ok(paths.length > 50, `only ${paths.length} Python files under ${GOLDEN}`);
    formatted = await ruffFormat(sources);
    oneLine = await ruffFormat(sources.map(flatPython), 320);
    oneLineFormatted = await ruffFormat(oneLine);
  });

  it("is the identity on ruff's formatting of every file", () => {
    paths.forEach((path, index) => assert.equal(formatPython(formatted[index], { wrapProse: false }), formatted[index], path));
  });

  it("turns every file as generated into exactly what ruff makes of it", () => {
    paths.forEach((path, index) => assert.equal(formatPython(sources[index], { wrapProse: false }), formatted[index], path));
  });

  it("lays out every file written one statement per line exactly as ruff does", () => {
    const long = oneLine.join("\n").split("\n").filter((line) => line.length > 88).length;
    assert.ok(long > 200, `only ${long} long lines: the one-line form is not what templates will write`);
    paths.forEach((path, index) => assert.equal(formatPython(oneLine[index], { wrapProse: false }), oneLineFormatted[index], path));
  });

  it("wraps long prose in a form ruff keeps", async () => {
    const wrapped = sources.map((source) => formatPython(source));
    const again = await ruffFormat(wrapped);
    paths.forEach((path, index) => assert.equal(again[index], wrapped[index], path));
  });

  it("formats the one-line form, inflated to megabytes, quickly", (t) => {
    // Eight renamed copies: about 1.7 MB, some 2,800 lines to lay out.
    const corpus = Array.from({ length: 8 }, (_, copy) => oneLine.map((source) => source.replaceAll("rticle", `rticle${copy}`))).flat();
    const megabytes = corpus.reduce((total, source) => total + Buffer.byteLength(source), 0) / 1e6;
    for (const source of corpus) formatPython(source); // warm up the JIT
    const runs = Array.from({ length: 5 }, () => {
      const start = process.hrtime.bigint();
      for (const source of corpus) formatPython(source);
      return Number(process.hrtime.bigint() - start) / 1e6;
    }).sort((a, b) => a - b);
    const msPerMegabyte = runs[2] / megabytes;
    t.diagnostic(`${msPerMegabyte.toFixed(1)} ms/MB (median of 5 runs over ${megabytes.toFixed(2)} MB)`);
    // Generous: this catches a complexity regression, not noise on a shared machine.
    assert.ok(msPerMegabyte < 150, `${msPerMegabyte.toFixed(1)} ms/MB`);
  });
});
