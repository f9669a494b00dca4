// Golden trees: a target's output for a config, compared byte for byte with the files
// checked in under test/golden/<target>/<name>/. `npm run golden:update` rewrites them
// (read the diff as a user would); a rewriting run never reports a comparison as passed.
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { TestContext } from "node:test";
import { MANIFEST_FILE, discoverTargets, generate } from "../../src/codegen/index.js";
import { repoRoot } from "./user-project.js";

/**
 * Whether `variable` (`UPDATE_GOLDEN`, `UPDATE_CORPUS`) asks this run to rewrite expected
 * files instead of checking them. Refused in CI: there a rewrite would make every check pass.
 */
export function rewriting(variable: string): boolean {
  if (!process.env[variable]) return false;
  if (process.env.CI) {
    throw new Error(`${variable} is set in CI: expected files are rewritten on a developer's machine (npm run golden:update), never where they are checked`);
  }
  return true;
}

/** Marks `t` skipped, loudly: it rewrote `what` and compared nothing. */
export function skipAfterRewrite(t: TestContext, what: string): void {
  t.skip(`rewrote ${what} instead of comparing; review the diff (git diff), then run the tests without the UPDATE_ variable`);
}

/** Every file under `dir`, relative and sorted; the engine's own manifest left out. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  // The manifest records hashes of the generated files: bookkeeping, not part of the reviewed tree.
  return entries
    .filter((entry) => entry.isFile() && entry.name !== MANIFEST_FILE)
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

/** Generates `targetName` from `config`, written as JSON into a temp dir; returns the output and every temp dir made. */
export async function generateFromConfig(targetName: string, config: Record<string, unknown>): Promise<{ out: string; temps: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), `codegen-config-${targetName}-`));
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
  const out = await generateInto(targetName, join(dir, "config.json"));
  return { out, temps: [dir, out] };
}

/** Asserts that two trees hold the same files with the same bytes; `label` names `expected` ("the golden tree"). */
export async function assertSameTree(actual: string, expected: string, label: string): Promise<void> {
  const files = await listFiles(actual);
  assert.deepEqual(files, await listFiles(expected), `the generated file list differs from ${label}'s`);
  for (const file of files) {
    assert.equal(await readFile(join(actual, file), "utf8"), await readFile(join(expected, file), "utf8"), `${file} differs from ${label}`);
  }
}

/**
 * Asserts that `configFile`'s output equals test/golden/<targetName>/<name>/, file list and
 * bytes; under `UPDATE_GOLDEN` rewrites that directory instead and skips `t`.
 */
export async function assertGolden(t: TestContext, targetName: string, name: string, configFile: string): Promise<void> {
  const update = rewriting("UPDATE_GOLDEN");
  const out = await generateInto(targetName, configFile);
  const golden = join(repoRoot, "test", "golden", targetName, name);
  try {
    if (update) {
      await rm(golden, { recursive: true, force: true });
      await cp(out, golden, { recursive: true, filter: (source) => !source.endsWith(MANIFEST_FILE) });
      skipAfterRewrite(t, `test/golden/${targetName}/${name}`);
      return;
    }
    await assertSameTree(out, golden, "the golden tree");
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
