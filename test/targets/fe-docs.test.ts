// docs/fe.md stays true: its example output is what the fe target writes for its example
// config. (Every config key of be_root, fe and fe_root is documented in docs/reference/,
// generated from the schemas and checked by test/docs-reference.test.ts.)

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { generateInto } from "../helpers/golden.js";
import { repoRoot } from "../helpers/user-project.js";

const doc = (name: string) => readFile(join(repoRoot, "docs", name), "utf8");

test("docs/fe.md's example is what the fe target writes for its config", async () => {
  const markdown = await doc("fe.md");
  const section = markdown.slice(markdown.indexOf("## What gets generated"));
  const config = /```jsonnet\n([\s\S]*?)```/.exec(section)![1]!;
  const expected = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const dir = await mkdtemp(join(tmpdir(), "codegen-fe-doc-"));
  try {
    await writeFile(join(dir, "fe.jsonnet"), config);
    const out = await generateInto("fe", join(dir, "fe.jsonnet"));
    try {
      assert.equal(await readFile(join(out, "openapi-ts.config.ts"), "utf8"), expected);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
