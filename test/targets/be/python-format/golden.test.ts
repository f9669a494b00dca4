// formatPython over every generated file of the golden trees: ruff's own formatting of each
// file is a fixed point, and the files as generated today (some lines laid out by hand,
// not as ruff would) come out exactly as `ruff format` makes them. With prose wrapping on,
// the result is still a fixed point of ruff.

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { formatPython } from "../../../../src/targets/be/python/format/index.js";
import { ruffFormat } from "./ruff.js";

const GOLDEN = resolve(fileURLToPath(import.meta.url), "../../../../golden/be");

describe("formatPython on the golden trees", () => {
  let paths: string[];
  let sources: string[];
  let formatted: string[];

  before(async () => {
    paths = (await readdir(GOLDEN, { recursive: true })).filter((path) => path.endsWith(".py")).sort();
    sources = await Promise.all(paths.map((path) => readFile(join(GOLDEN, path), "utf8")));
    formatted = await ruffFormat(sources);
    assert.ok(paths.length > 50, `only ${paths.length} Python files under ${GOLDEN}`);
  });

  it("is the identity on ruff's formatting of every file", () => {
    paths.forEach((path, index) => assert.equal(formatPython(formatted[index], { wrapProse: false }), formatted[index], path));
  });

  it("turns every file as generated into exactly what ruff makes of it", () => {
    paths.forEach((path, index) => assert.equal(formatPython(sources[index], { wrapProse: false }), formatted[index], path));
  });

  it("wraps long prose in a form ruff keeps", async () => {
    const wrapped = sources.map((source) => formatPython(source));
    const again = await ruffFormat(wrapped);
    paths.forEach((path, index) => assert.equal(again[index], wrapped[index], path));
  });
});
