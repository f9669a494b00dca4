// The docs of be_root, fe_root (docs/bootstrap.md) and fe (docs/fe.md) stay true: every key
// of each config schema has a row in its table, no row names a key the schema lacks, and
// fe.md's example output is what the fe target writes for its example config.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { z } from "zod";
import { RootConfig as BeRootConfig } from "../../src/targets/be_root/config.js";
import { ProjectConfig as FeConfig } from "../../src/targets/fe/config.js";
import { FieldPages, PagesConfig, ResourcePages } from "../../src/targets/fe/pages/config.js";
import { RootConfig as FeRootConfig } from "../../src/targets/fe_root/config.js";
import { generateInto } from "../helpers/golden.js";
import { repoRoot } from "../helpers/user-project.js";

const doc = (name: string) => readFile(join(repoRoot, "docs", name), "utf8");

/** The keys a schema accepts, from its JSON Schema (what an editor sees). */
function schemaKeys(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: "input" }) as { properties: Record<string, unknown> };
  return Object.keys(json.properties).sort();
}

/** Keys of the first `| Key | Type | Default | Meaning |` table after `heading`. */
function documentedKeys(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `no heading "${heading}"`);
  const lines = markdown.slice(start).split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Key |"));
  const keys: string[] = [];
  for (const line of lines.slice(header + 2)) {
    const match = /^\| `([a-z_]+)` \|/.exec(line);
    if (!match) break;
    keys.push(match[1]!);
  }
  return keys.sort();
}

describe("config docs", () => {
  const cases = [
    ["be_root", BeRootConfig, "bootstrap.md", "### Config (`be_root.config.RootConfig`)"],
    ["fe_root", FeRootConfig, "bootstrap.md", "### Config (`fe_root.config.RootConfig`)"],
    ["fe", FeConfig, "fe.md", "## Config (`fe.config.ProjectConfig`)"],
    ["fe pages", PagesConfig, "fe.md", "### `pages`"],
    ["fe pages resource", ResourcePages, "fe.md", "### Per resource"],
    ["fe pages field", FieldPages, "fe.md", "### Per field"],
  ] as const;
  for (const [target, schema, file, heading] of cases) {
    test(`docs/${file} documents exactly the keys of ${target}'s config`, async () => {
      assert.deepEqual(documentedKeys(await doc(file), heading), schemaKeys(schema));
    });
  }
});

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
