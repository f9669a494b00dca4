// The format pool as users run it: the built engine (dist/), whose worker threads load
// compiled modules; under this repository's TypeScript loader the pool stays on one thread.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";

import { ensureBuilt } from "../../bench/dist.js";
import type { FormatAnswers as FormatAnswersClass, formatFiles as FormatFiles } from "../../src/codegen/format-pool.js";
import type { GeneratedFile as GeneratedFileClass } from "../../src/codegen/writer.js";

const formatter = new URL("../fixtures/formatters/upper-pages.mjs", import.meta.url).href;
let formatFiles: typeof FormatFiles;
let FormatAnswers: typeof FormatAnswersClass;
let GeneratedFile: typeof GeneratedFileClass;

before(async () => {
  await ensureBuilt();
  ({ formatFiles, FormatAnswers } = await import(new URL("../../dist/codegen/format-pool.js", import.meta.url).href));
  ({ GeneratedFile } = await import(new URL("../../dist/codegen/index.js", import.meta.url).href));
});

/** 300 files of 10 kB under `dir`, past the size from which the pool uses workers. */
function largeRun(dir: string): GeneratedFileClass[] {
  return Array.from({ length: 300 }, (_, index) => new GeneratedFile({ path: `${dir}/${index % 2 ? "pages" : "other"}/${index}.txt`, content: `page ${index} `.repeat(1000) }));
}

const contentsOf = (files: GeneratedFileClass[]) => files.map((file) => file.content);

describe("formatFiles", () => {
  it("gives the same files in the same order with worker threads as on the main thread alone", async () => {
    // formatFiles updates its array in place: compare with the files as they were given.
    const files = largeRun("pooled");
    const given = [...files];
    const alone = await formatFiles(largeRun("alone"), formatter, { workers: 0 });
    const pooled = await formatFiles(given, formatter, { workers: 2 });
    assert.deepEqual(contentsOf(pooled), contentsOf(alone));
    assert.deepEqual(pooled.map((file) => file.path), files.map((file) => file.path));
    assert.equal(pooled[1]!.content, files[1]!.content.toUpperCase(), "files under pages/ were formatted");
    for (let index = 0; index < files.length; index += 2) assert.equal(pooled[index], files[index], "a file left as it is keeps its object");
  });

  it("formats the last share in a worker thread, and a small run on the main thread", async () => {
    const thread = (content: string) => new GeneratedFile({ path: "thread.txt", content });
    const [large] = (await formatFiles([...largeRun("threads"), thread("large")], formatter, { workers: 1 })).slice(-1);
    assert.notEqual(large!.content, "0");
    const [small] = await formatFiles([thread("small")], formatter, { workers: 1 });
    assert.equal(small!.content, "0");
  });

  it("with a memory, formats a path again only when its content changed since the memory's last run", async () => {
    const counted = (content: string) => new GeneratedFile({ path: "calls.txt", content });
    const memory = new FormatAnswers();
    const [first] = await formatFiles([counted("a")], formatter, { workers: 0, memory });
    const [same] = await formatFiles([counted("a")], formatter, { workers: 0, memory });
    const [changed] = await formatFiles([counted("b")], formatter, { workers: 0, memory });
    const [forgotten] = await formatFiles([counted("b")], formatter, { workers: 0 });
    assert.equal(same!.content, first!.content);
    assert.equal(Number(changed!.content), Number(first!.content) + 1);
    assert.equal(Number(forgotten!.content), Number(changed!.content) + 1, "without a memory every file is formatted");
  });

  it("fails with the formatter's message when a file in a worker's share cannot be formatted", async () => {
    const files = [...largeRun("failing"), new GeneratedFile({ path: "boom.txt", content: "x" })];
    await assert.rejects(formatFiles(files, formatter, { workers: 2 }), { message: "boom.txt: line 1: cannot lay out this" });
  });

  it("names a module without a formatFile export", async () => {
    const module = new URL("../../dist/codegen/index.js", import.meta.url).href;
    await assert.rejects(formatFiles([], module, { workers: 0 }), /has no formatFile export/);
  });
});
