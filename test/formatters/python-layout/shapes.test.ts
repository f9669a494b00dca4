// Line shapes (shapes.ts): the layout a line gets from another line of its shape, names and
// plain string contents respelled at the same widths, is exactly the one formatPython gives
// it from scratch. Random lines of the fuzz grammar in ruff's one-line form, plus hand-picked
// lines whose slots a layout changes (joined strings), which must not be reused.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";

import { forgetLayouts, formatPython } from "../../../src/formatters/python-layout/index.js";
import { ShapeMemory } from "../../../src/formatters/python-layout/shapes.js";
import { KEYWORDS } from "../../../src/formatters/python-layout/stream.js";
import { stringEnd } from "../../../src/formatters/python-layout/tokens.js";
import { caseArbitrary, caseSource } from "./grammar.js";
import { ruffFormat } from "./ruff.js";

const KEPT = new Set([...KEYWORDS, "match", "case", "type", "_"]);

/** Each letter and digit one further on (z to a, 9 to 0), keeping the character's class. */
function shift(text: string): string {
  return text.replace(/[a-zA-Z0-9]/g, (char) => {
    const code = char.charCodeAt(0);
    const [base, size] = code >= 97 ? [97, 26] : code >= 65 ? [65, 26] : [48, 10];
    return String.fromCharCode(base + ((code - base + 1) % size));
  });
}

/** `line` with its names (but keywords) and plain string contents respelled, widths kept. */
function respell(line: string): string {
  let out = "";
  let pos = 0;
  while (pos < line.length) {
    const rest = line.slice(pos);
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
    if (name !== undefined && /^[bfruBFRU]{1,2}["']/.test(rest.slice(0, name.length + 1)) && name.length <= 2) {
      const end = stringEnd(line, pos + name.length, /f/i.test(name));
      out += line.slice(pos, end);
      pos = end;
    } else if (name !== undefined) {
      const respelled = shift(name);
      out += KEPT.has(name) || KEPT.has(respelled) ? name : respelled;
      pos += name.length;
    } else if (rest[0] === '"' || rest[0] === "'") {
      const end = stringEnd(line, pos, false);
      const content = line.slice(pos + 1, end - 1);
      out += /^[ -~]+$/.test(content) && !/["'\\{}]/.test(content) ? `${rest[0]}${shift(content)}${rest[0]}` : line.slice(pos, end);
      pos = end;
    } else if (/^\d/.test(rest)) {
      const number = /^[\w.]+/.exec(rest)![0];
      out += number;
      pos += number.length;
    } else {
      out += rest[0];
      pos++;
    }
  }
  return out;
}

/** The layout formatPython gives `line` alone, from scratch; undefined when it cannot lay it out. */
function freshLayout(line: string): string | undefined {
  forgetLayouts();
  try {
    return formatPython(`${line}\n`, { wrapProse: false }).slice(0, -1);
  } catch {
    return undefined;
  }
}

/** What a memory that laid out `line` makes of `other`: undefined when it does not reuse the layout. */
function reusedLayout(line: string, other: string): string | undefined {
  const memory = new ShapeMemory(10);
  assert.equal(memory.layoutOf(line), undefined);
  memory.remember(line, freshLayout(line)!);
  return memory.layoutOf(other);
}

describe("line shapes", () => {
  it("lay out a respelled line exactly as formatPython does from scratch", async () => {
    const generated = fc.sample(caseArbitrary, { seed: 20_251_124, numRuns: 600 }).map(caseSource);
    const lines = (await ruffFormat(generated, 320))
      .flatMap((source) => source.split("\n"))
      .filter((line) => line.length > 88 && freshLayout(line) !== undefined);
    assert.ok(lines.length > 200, `only ${lines.length} long lines: the grammar drifted`);
    let reused = 0;
    for (const line of lines) {
      const other = respell(line);
      const layout = reusedLayout(line, other);
      if (layout === undefined) continue;
      reused++;
      assert.equal(layout, freshLayout(other), `${line}\nrespelled:\n${other}`);
    }
    assert.ok(reused > lines.length * 0.8, `only ${reused} of ${lines.length} layouts reused`);
  });

  it("reuses the layout of a line of another resource, and is used by formatPython", () => {
    const line = `    result = await session.scalar(select(Article).where(Article.slug == slug).limit(1), timeout="30 seconds")`;
    const other = `    answer = await session.scalar(select(Comment).where(Comment.slug == slug).limit(1), timeout="10 minutes")`;
    assert.equal(reusedLayout(line, other), freshLayout(other));
    const fString = `        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"Article with id {pk} not found in {where}")`;
    const otherFString = `        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"Comment with id {id} not found in {there}")`;
    assert.equal(reusedLayout(fString, otherFString), freshLayout(otherFString));
    forgetLayouts();
    assert.equal(formatPython(`${line}\n${other}\n`), `${freshLayout(line)}\n${freshLayout(other)}\n`);
  });

  it("does not reuse a layout that joined strings, nor lines that differ in keywords or widths", () => {
    const joined = `    message = "${"a".repeat(30)}" "${"b".repeat(30)}" if condition_with_a_long_name else other`;
    assert.equal(reusedLayout(joined, respell(joined)), undefined);
    const call = `value = some_function(first_argument, second_argument, third_argument, fourth_arg=None)`;
    assert.equal(reusedLayout(call, call.replace("None", "True")), undefined);
    assert.equal(reusedLayout(call, call.replace("first_argument", "first_argumen")), undefined);
    assert.equal(reusedLayout(call, call.replace("first_argument", "not")), undefined);
    // An f-string whose replacement field would not close is not of the shape.
    const fString = `value = some_function(first_argument, f"{second_argument}", third_argument, fourth_arg=None)`;
    assert.equal(reusedLayout(fString, fString.replace("{second_argument}", "{second_argument")), undefined);
  });
});
