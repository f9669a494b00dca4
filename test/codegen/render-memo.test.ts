// The render memo reuses a render only for the same template and the same plain data, and
// renders anything JSON cannot carry exactly every time.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { ImportCollector, registerImportFormatter } from "../../src/codegen/imports.js";
import { RenderMemo, plainJson } from "../../src/codegen/render-memo.js";
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

describe("plainJson", () => {
  it("gives the JSON of plain data", () => {
    assert.equal(plainJson({ a: [1, "b", null, true, { c: 2.5 }], d: Object.create(null) }), '{"a":[1,"b",null,true,{"c":2.5}],"d":{}}');
  });

  it("refuses what JSON would not carry exactly", () => {
    class Point {
      x = 1;
    }
    const getter = Object.defineProperty({}, "x", { get: () => 1, enumerable: true });
    const hidden = Object.defineProperty({}, "x", { value: 1, enumerable: false });
    const cases: unknown[] = [new Point(), { f: () => 1 }, { u: undefined }, [Number.NaN], [Infinity], [-0], getter, hidden, { [Symbol("s")]: 1 }, [1, , 2], new Map(), 1n, new Date(0)];
    for (const value of cases) assert.equal(plainJson(value), undefined, `${String(value)} is not plain data`);
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
      assert.equal(memo.snippet("t.njk", { x: new Box() }), "value box");
      memo.settle();
    }
    assert.equal(renders(), 4);
  });

  it("keeps only what the last successful run rendered", () => {
    const { memo, renders } = counted();
    memo.begin();
    memo.snippet("t.njk", { x: 1 });
    memo.settle();
    // A run that fails before settling neither forgets the last run nor is remembered.
    memo.begin();
    memo.snippet("t.njk", { x: 2 });
    memo.begin();
    assert.equal(memo.snippet("t.njk", { x: 1 }), "value 1");
    assert.equal(memo.snippet("t.njk", { x: 2 }), "value 2");
    assert.equal(renders(), 3);
    memo.settle();
    // A run that did not use a snippet drops it.
    memo.begin();
    memo.settle();
    memo.begin();
    memo.snippet("t.njk", { x: 1 });
    assert.equal(renders(), 4);
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
