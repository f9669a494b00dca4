// Golden trees: the blog example's generated backend (single-app, multi-app, and with
// each auth flow: JWT, and a get_current_user_fn of its own), compared byte for byte with
// the files under test/golden/be/. A template change shows up here as a diff to read like
// a user would. Regenerate with `UPDATE_GOLDEN=1 npm test`.

import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, rm, cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { MANIFEST_FILE, discoverTargets, generate } from "../../../src/codegen/index.js";

const root = resolve(fileURLToPath(import.meta.url), "../../../..");
const example = join(root, "examples/blog/config");

async function generateInto(config: string): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), "codegen-golden-"));
  const targets = await discoverTargets();
  await generate({ target: targets.find((target) => target.name === "be")!, configFile: join(example, config), outDir: out, stdlibTargets: targets });
  return out;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  // The manifest records hashes of the generated files: bookkeeping, not part of the reviewed tree.
  return entries.filter((entry) => entry.isFile() && entry.name !== MANIFEST_FILE).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();
}

const TREES = [
  ["blog-single", "project.jsonnet"],
  ["blog-multi", "multi.jsonnet"],
  ["blog-auth", "auth.jsonnet"],
  ["blog-auth-custom", "auth_custom.jsonnet"],
] as const;

for (const [name, config] of TREES) {
  test(`the ${name} tree matches its golden files byte for byte`, async () => {
    const out = await generateInto(config);
    const golden = join(root, "test/golden/be", name);
    try {
      if (process.env.UPDATE_GOLDEN) {
        await rm(golden, { recursive: true, force: true });
        await cp(out, golden, { recursive: true, filter: (source) => !source.endsWith(MANIFEST_FILE) });
      }
      const files = await listFiles(out);
      assert.deepEqual(files, await listFiles(golden), "the generated file list differs from the golden one");
      for (const file of files) {
        assert.equal(await readFile(join(out, file), "utf8"), await readFile(join(golden, file), "utf8"), `${file} differs from its golden copy`);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
}

test("generating twice gives byte-identical trees", async () => {
  const [first, second] = [await generateInto("project.jsonnet"), await generateInto("project.jsonnet")];
  try {
    const files = await listFiles(first);
    for (const file of files) assert.equal(await readFile(join(first, file), "utf8"), await readFile(join(second, file), "utf8"), file);
  } finally {
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  }
});
