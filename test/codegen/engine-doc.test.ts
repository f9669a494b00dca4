import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

// docs/engine.md's "write your own target" walkthrough shows the fixture plugin's files
// (those that extend `be` are shown in docs/be-internals.md).
// Each code block preceded by `<!-- file: <path> -->` must equal that file byte for byte,
// and every fixture file must be shown, so the page cannot drift from tested code.

const root = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "test/fixtures/plugin";
const MARKER = /^<!-- file: (\S+) -->$/;

interface Block {
  file: string;
  line: number;
  text: string;
}

/** Every fenced block right after a file marker, with its text (lines joined, final newline added). */
export function fileBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    const fence = /^(`{3,})\w*$/.exec(lines[i + 1] ?? "");
    if (!fence) throw new Error(`line ${i + 1}: a file marker must be followed by a fenced code block`);
    const end = lines.findIndex((line, index) => index > i + 1 && line === fence[1]);
    if (end < 0) throw new Error(`line ${i + 2}: the code block for ${marker[1]} is never closed`);
    blocks.push({ file: marker[1], line: i + 1, text: `${lines.slice(i + 2, end).join("\n")}\n` });
    i = end;
  }
  return blocks;
}

describe("fileBlocks", () => {
  it("extracts marked blocks only, keeping their text exactly", () => {
    const markdown = ["# Title", "```ts", "unmarked", "```", "<!-- file: a/b.ts -->", "```ts", "line 1", "", "  line 3", "```", "after"].join("\n");
    assert.deepEqual(fileBlocks(markdown), [{ file: "a/b.ts", line: 5, text: "line 1\n\n  line 3\n" }]);
  });

  it("rejects a marker without a block, or a block never closed", () => {
    assert.throws(() => fileBlocks("<!-- file: x.ts -->\ntext"), /must be followed by a fenced code block/);
    assert.throws(() => fileBlocks("<!-- file: x.ts -->\n```ts\ncode"), /never closed/);
  });
});

/** The pages that show the fixture plugin: the walkthrough, and be-internals.md for the files that extend `be`. */
const PAGES = ["engine.md", "be-internals.md"];

async function pageBlocks(): Promise<(Block & { page: string })[]> {
  const blocks = [];
  for (const page of PAGES) {
    for (const block of fileBlocks(await readFile(path.join(root, "docs", page), "utf8"))) blocks.push({ ...block, page });
  }
  return blocks;
}

describe("docs/engine.md and docs/be-internals.md", () => {
  it("show each fixture plugin file exactly as it is", async () => {
    const blocks = await pageBlocks();
    assert.ok(blocks.some((block) => block.page === "engine.md"), "the walkthrough has file blocks");
    for (const block of blocks) {
      assert.ok(block.file.startsWith(`${FIXTURE}/`), `docs/${block.page}:${block.line}: ${block.file} is not a fixture file`);
      const actual = await readFile(path.join(root, block.file), "utf8");
      assert.equal(block.text, actual, `docs/${block.page}:${block.line} differs from ${block.file}`);
    }
  });

  it("show every file of the fixture plugin once", async () => {
    const shown = (await pageBlocks()).map((block) => block.file);
    const entries = await readdir(path.join(root, FIXTURE), { recursive: true, withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
    assert.deepEqual([...shown].sort(), files.sort());
  });
});
