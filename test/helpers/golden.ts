// Golden trees: a target's output for a config, compared byte for byte with the files
// checked in under test/golden/<target>/<name>/. Regenerate with `UPDATE_GOLDEN=1 npm test`
// and read the diff as a user would.
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { discoverTargets, generate } from "../../src/codegen/index.js";
import { repoRoot } from "./user-project.js";

/** Every file under `dir`, relative and sorted; the engine's own manifest left out. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name !== ".codegen-manifest.json")
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Generates `configFile` with target `targetName` into a new temp directory and returns it. */
export async function generateInto(targetName: string, configFile: string): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), `codegen-golden-${targetName}-`));
  const targets = await discoverTargets();
  const target = targets.find((candidate) => candidate.name === targetName);
  if (!target) throw new Error(`target ${targetName} is not installed`);
  await generate({ target, configFile, outDir: out, stdlibTargets: targets });
  return out;
}

/** Asserts that `configFile`'s output equals test/golden/<targetName>/<name>/, file list and bytes. */
export async function assertGolden(targetName: string, name: string, configFile: string): Promise<void> {
  const out = await generateInto(targetName, configFile);
  const golden = join(repoRoot, "test", "golden", targetName, name);
  try {
    const files = await listFiles(out);
    if (process.env.UPDATE_GOLDEN) {
      await rm(golden, { recursive: true, force: true });
      await cp(out, golden, { recursive: true, filter: (source) => !source.endsWith(".codegen-manifest.json") });
    }
    assert.deepEqual(files, await listFiles(golden), "the generated file list differs from the golden one");
    for (const file of files) {
      assert.equal(await readFile(join(out, file), "utf8"), await readFile(join(golden, file), "utf8"), `${file} differs from its golden copy`);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
