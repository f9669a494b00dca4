// The render memo reuses a render only for the same template and the same plain data, and
// renders anything JSON cannot carry exactly every time.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { ImportCollector, registerImportFormatter } from "../../src/codegen/imports.js";
import { matchesSnapshot, snapshotPlain } from "../../src/codegen/plain-data.js";
import { RenderMemo } from "../../src/codegen/render-memo.js";
import { createTemplateEnv } from "../../src/codegen/templating.js";

let root: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-render-memo-"));
  // `tick()` prints nothing and counts the render (see `counted`).
  await writeFile(join(root, "t.njk"), "{{ tick() }}value {{ x }}");
  await writeFile(join(root, "u.njk"), "{{ tick() }}other {{ x }}");
});

after(() => rm(root, { recursive: true, force: true }));

/** A memo over a fresh environment, and how many renders that environment has done. */
function counted(): { memo: RenderMemo; renders: () => number } {
  const env = createTemplateEnv(root);
  let count = 0;
  env.addGlobal("tick", () => {
    count++;
    return "";
  });
  return { memo: new RenderMemo(env), renders: () => count };
}

describe("snapshotPlain", () => {
  it("copies plain data, so later changes to it do not reach the copy", () => {
    const value = { a: [1, "b", null, true, { c: 2.5 }], d: Object.create(null) };
    const snapshot = snapshotPlain(value)!;
    assert.ok(matchesSnapshot(value, snapshot));
    value.a.push(3);
    assert.ok(!matchesSnapshot(value, snapshot));
    assert.ok(matchesSnapshot({ a: [1, "b", null, true, { c: 2.5 }], d: {} }, snapshot));
  });

  it("refuses what JSON would not carry exactly", () => {
    class Point {
      x = 1;
    }
    const getter = Object.defineProperty({}, "x", { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, "x", { value: 1, enumerable: false });
    const cases: unknown[] = [new Point(), { f: () => 1 }, { u: undefined }, [Number.NaN], [Infinity], [-0], getter, hidden, { [Symbol("s")]: 1 }, [1, , 2], new Map(), 1n, new Date(0)];
    for (const value of cases) assert.equal(snapshotPlain(value), undefined, `${String(value)} is not plain data`);
  });
});

describe("matchesSnapshot", () => {
  it("is true exactly when both are plain data with the same JSON text", () => {
    const values: unknown[] = [
      { a: [1, "b", null, true, { c: 2.5 }], d: Object.create(null) },
      { a: 1 },
      { a: 12 },
      { a: "1" },
      { b: 1, a: 1 },
      { a: 1, b: 1 },
      { a: "x" },
      { a: 'say "hi"\\ \n' },
      { a: "snow ☃ and 😀" },
      { "2": 0, "10": 1 },
      [1e21, 0.1, -3, 5e-7],
      [[], {}, ""],
      [[], {}],
      [1, [2]],
      [[1], 2],
      [1, 2],
      "text",
      false,
      0,
      null,
      [null],
      [{}],
      [[]],
      { a: undefined },
      [Number.NaN],
      [-0],
      [1, , 2],
      new Map(),
      Object.defineProperty({}, "x", { get: () => 1, enumerable: true }),
    ];
    for (const value of values) {
      for (const other of values) {
        const snapshot = snapshotPlain(other);
        if (snapshot === undefined) continue;
        const same = snapshotPlain(value) !== undefined && JSON.stringify(value) === JSON.stringify(other);
        assert.equal(matchesSnapshot(value, snapshot), same, `${JSON.stringify(value)} against ${JSON.stringify(other)}`);
      }
    }
  });
});

describe("RenderMemo", () => {
  it("reuses a file's text while template and context stay the same, and renders again when either changes", () => {
    const { memo, renders } = counted();
    const run = (template: string, x: unknown) => {
      memo.begin();
      const text = memo.file("a.py", template, { x });
      memo.settle();
      return text;
    };
    assert.equal(run("t.njk", 1), "value 1");
    assert.equal(run("t.njk", 1), "value 1");
    assert.equal(renders(), 1);
    assert.equal(run("t.njk", 2), "value 2");
    assert.equal(run("u.njk", 2), "other 2");
    assert.equal(renders(), 3);
  });

  it("renders a context holding anything but plain data every time", () => {
    const { memo, renders } = counted();
    class Box {
      toString() {
        return "box";
      }
    }
    for (let run = 0; run < 2; run++) {
      memo.begin();
      assert.equal(memo.file("a.py", "t.njk", { x: new Box() }), "value box");
      assert.equal(memo.snippet("a.py", "items", "t.njk", { x: new Box() }), "value box");
      memo.settle();
    }
    assert.equal(renders(), 4);
  });

  it("keeps only what the last successful run rendered", () => {
    const { memo, renders } = counted();
    memo.begin();
    memo.snippet("a.py", "items", "t.njk", { x: 1 });
    memo.settle();
    // A run that fails before settling neither forgets the last run nor is remembered.
    memo.begin();
    memo.snippet("a.py", "items", "t.njk", { x: 2 });
    memo.begin();
    assert.equal(memo.snippet("a.py", "items", "t.njk", { x: 1 }), "value 1");
    assert.equal(memo.snippet("a.py", "items", "t.njk", { x: 2 }), "value 2");
    assert.equal(renders(), 3);
    memo.settle();
    // A run that did not use a snippet drops it.
    memo.begin();
    memo.settle();
    memo.begin();
    memo.snippet("a.py", "items", "t.njk", { x: 1 });
    assert.equal(renders(), 4);
    memo.settle();
    // The same snippet at another place (file, slot or count of snippets before it) is rendered there.
    memo.begin();
    memo.snippet("b.py", "items", "t.njk", { x: 1 });
    memo.snippet("a.py", "other", "t.njk", { x: 1 });
    memo.snippet("a.py", "items", "t.njk", { x: 2 });
    memo.snippet("a.py", "items", "t.njk", { x: 1 });
    assert.equal(renders(), 8);
  });

  it("compares with the context as it was rendered, not as it is now", () => {
    const { memo, renders } = counted();
    const context = { x: [1] };
    memo.begin();
    assert.equal(memo.file("a.py", "t.njk", context), "value 1");
    memo.settle();
    context.x.push(2);
    memo.begin();
    assert.equal(memo.file("a.py", "t.njk", context), "value 1,2");
    memo.settle();
    assert.equal(renders(), 2);
  });

  it("reuses an import block only for the same imports and the same formatter", () => {
    let calls = 0;
    const formatter = (collector: ImportCollector) => {
      calls++;
      return collector.bareModules.join(",");
    };
    registerImportFormatter("memo-test", formatter);
    const { memo } = counted();
    const block = (...modules: string[]) => {
      const collector = new ImportCollector();
      for (const module of modules) collector.add(module);
      memo.begin();
      const text = memo.imports("a.py", collector, "memo-test", {});
      memo.settle();
      return text;
    };
    assert.equal(block("os", "re"), "os,re");
    assert.equal(block("re", "os"), "os,re");
    assert.equal(calls, 1);
    assert.equal(block("os"), "os");
    registerImportFormatter("memo-test", (collector) => `new ${formatter(collector)}`);
    assert.equal(block("os"), "new os");
    assert.equal(calls, 3);
  });
});
