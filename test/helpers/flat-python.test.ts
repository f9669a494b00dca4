// flatPython, which tests use to match generated Python whatever its layout: brackets joined,
// the trailing commas of expanded brackets dropped, a one-element tuple's comma kept.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { flatPython } from "./flat-python.js";

describe("flatPython", () => {
  it("joins expanded brackets and drops the commas that kept them expanded", () => {
    assert.equal(flatPython('x = f(\n    a,\n    "b",\n)\nt = [\n    a,\n]\n'), 'x = f(a, "b")\nt = [a]\n');
    assert.equal(flatPython("x = (\n    a\n    + b  # why\n)\n"), "x = (a + b)\n");
  });

  it("drops the comma after a call's or a signature's sole argument", () => {
    assert.equal(flatPython("x = f(\n    g(\n        a,\n    ),\n)\n"), "x = f(g(a))\n");
    assert.equal(flatPython("def f(\n    author: Author,\n) -> Read:\n    pass\n"), "def f(author: Author) -> Read:\n    pass\n");
    assert.equal(flatPython("x = items[0](\n    a,\n)\n"), "x = items[0](a)\n");
  });

  it("keeps a one-element tuple's comma", () => {
    assert.equal(flatPython("PAIR = (\n    a,\n)\n"), "PAIR = (a,)\n");
    assert.equal(flatPython("return (\n    a,\n)\n"), "return (a,)\n");
    assert.equal(flatPython("x = y in (\n    a,\n)\n"), "x = y in (a,)\n");
  });

  it("copies strings and top-level comments as they are", () => {
    assert.equal(flatPython('# a (\nx = f(\n    "(,\\n",\n)\n'), '# a (\nx = f("(,\\n")\n');
  });
});
