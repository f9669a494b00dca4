import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cp, readFile, readdir, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, describe, it } from "node:test";

import { runCodegen as codegen } from "./helpers/codegen-cli.js";
import { useTempStampCache } from "./helpers/stamp-cache.js";
import { FIXTURE_PACKAGE, createUserProject, removeTempDirs, repoRoot } from "./helpers/user-project.js";

// The up-to-date check (docs/regeneration.md#nothing-to-do) through the CLI: a run with nothing
// to do skips the pipeline (its `--timings` line has no validate phase) and touches nothing;
// any change to an input or to the generated tree makes it run in full.

const cacheDir = useTempStampCache();

after(removeTempDirs);

/** A fixture project with the greeter config copied beside it (so a test may edit it), generated once into `out`. */
async function generatedProject(): Promise<{ dir: string; out: string; run: (...extra: string[]) => ReturnType<typeof codegen> }> {
  const dir = await createUserProject();
  await cp(path.join(dir, "node_modules", FIXTURE_PACKAGE, "examples", "greeter.jsonnet"), path.join(dir, "greeter.jsonnet"));
  const run = (...extra: string[]) => codegen(dir, ["generate", "-t", "greeter", "-c", "greeter.jsonnet", "-o", "out", "--timings", ...extra]);
  const first = await run();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /validate/);
  // Past the racy window, so the next run trusts identities (a racy file is read and hashed instead).
  await sleep(150);
  return { dir, out: path.join(dir, "out"), run };
}

const FAST = /^codegen: timings: start-up \d+ ms, load config \d+ ms, write \d+ ms; total \d+ ms$/m;
const FULL = /^codegen: timings: .*validate \d+ ms, build \d+ ms, render \d+ ms/m;

async function mtimes(dir: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) result[path.relative(dir, path.join(entry.parentPath, entry.name))] = (await stat(path.join(entry.parentPath, entry.name))).mtimeMs;
  }
  return result;
}

describe("the up-to-date check", () => {
  it("skips the pipeline of a run with nothing to do: same summary, no file or manifest touched; --check and --dry-run too", async () => {
    const { out, run } = await generatedProject();
    const before = await mtimes(out);
    const manifest = await readFile(path.join(out, ".codegen-manifest.json"));
    const summary = `codegen: 0 files written, 3 unchanged, 2 skipped, 0 deleted, in ${out}\n`;
    for (let round = 0; round < 2; round++) {
      const again = await run();
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, summary);
      assert.match(again.stderr, FAST);
    }
    const checked = await run("--check");
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(checked.stdout, `codegen: up to date, 5 files checked, in ${out}\n`);
    assert.match(checked.stderr, FAST);
    const dry = await run("--dry-run");
    assert.match(dry.stderr, FAST);
    // The full pipeline's dry run prints exactly the same plan.
    await rm(path.join(cacheDir(), "up-to-date"), { recursive: true, force: true });
    const fullDry = await run("--dry-run");
    assert.match(fullDry.stderr, FULL);
    assert.equal(dry.stdout, fullDry.stdout);
    assert.deepEqual(await mtimes(out), before);
    assert.deepEqual(await readFile(path.join(out, ".codegen-manifest.json")), manifest);
    assert.deepEqual((await readdir(out)).sort(), [".codegen-manifest.json", "CHANGELOG.md", "README.md", "greetings", "index.ts"]);
  });

  it("sees a generated file edited by hand with its size and mtime kept, and rewrites it", async () => {
    const { out, run } = await generatedProject();
    // This run checks the files written just before by content, then trusts them by identity alone.
    assert.match((await run()).stderr, FAST);
    const file = path.join(out, "greetings", "ada.ts");
    const original = await readFile(file, "utf8");
    // `touch -r` copies timestamps to the nanosecond (Node's utimes cannot): only the ctime tells.
    const reference = path.join(out, "..", "reference");
    await writeFile(reference, "");
    execFileSync("touch", ["-r", file, reference]);
    const edited = original.replace(/[a-z]/, (letter) => (letter === "x" ? "y" : "x"));
    assert.equal(edited.length, original.length);
    assert.notEqual(edited, original);
    await writeFile(file, edited);
    execFileSync("touch", ["-r", reference, file]);
    assert.equal((await stat(file, { bigint: true })).mtimeNs, (await stat(reference, { bigint: true })).mtimeNs);
    const checked = await run("--check");
    assert.equal(checked.code, 1);
    assert.equal(checked.stdout, "overwrite greetings/ada.ts\n");
    const written = await run();
    assert.match(written.stderr, FULL);
    assert.match(written.stdout, /^codegen: 1 file written, 2 unchanged/);
    assert.equal(await readFile(file, "utf8"), original);
  });

  it("recreates a deleted generated file, and a deleted skip file", async () => {
    const { out, run } = await generatedProject();
    await unlink(path.join(out, "index.ts"));
    await unlink(path.join(out, "README.md"));
    const written = await run();
    assert.match(written.stderr, FULL);
    assert.match(written.stdout, /^codegen: 2 files written, 2 unchanged, 1 skipped/);
  });

  it("runs in full when the config, a plugin's template or an option changed", async () => {
    const { dir, out, run } = await generatedProject();
    // The config.
    const config = path.join(dir, "greeter.jsonnet");
    await writeFile(config, (await readFile(config, "utf8")).replace('greeting="Hi"', 'greeting="Hey"'));
    const changed = await run();
    assert.match(changed.stderr, FULL);
    assert.match(changed.stdout, /^codegen: 1 file written/);
    await sleep(150);
    assert.match((await run()).stderr, FAST);
    // A template of the plugin.
    const template = path.join(dir, "node_modules", FIXTURE_PACKAGE, "greeter", "templates", "index.ts.njk");
    await writeFile(template, `// edited\n${await readFile(template, "utf8")}`);
    const retemplated = await run();
    assert.match(retemplated.stderr, FULL);
    assert.match(retemplated.stdout, /^codegen: 1 file written/);
    assert.match(await readFile(path.join(out, "index.ts"), "utf8"), /\/\/ edited/);
    await sleep(150);
    // A TypeScript declaration of the plugin: no run executes it, so editing it changes nothing.
    // (Adding it does: its directory changed.)
    const declaration = path.join(dir, "node_modules", FIXTURE_PACKAGE, "greeter", "types.d.ts");
    await writeFile(declaration, "export {};\n");
    assert.match((await run()).stderr, FULL);
    await sleep(150);
    await writeFile(declaration, "export type Greeting = string;\n");
    assert.match((await run()).stderr, FAST);
    // An option that changes the output: README.md is overwritten despite its skip policy.
    await writeFile(path.join(out, "README.md"), "mine\n");
    const forced = await run("--force-paths", "README.md");
    assert.match(forced.stderr, FULL);
    assert.match(forced.stdout, /^codegen: 1 file written/);
    await sleep(150);
    assert.match((await run("--force-paths", "README.md")).stderr, FAST);
    const unforced = await run();
    assert.match(unforced.stderr, FULL);
    assert.match(unforced.stdout, /^codegen: 0 files written, 3 unchanged, 2 skipped/);
  });

  it("runs in full when a file the config names changed (the be target's comms templates)", async () => {
    const dir = await createUserProject({ fixture: false });
    await cp(path.join(repoRoot, "examples", "blog", "config"), path.join(dir, "config"), { recursive: true });
    const run = () => codegen(dir, ["generate", "-t", "be", "-c", "config/comms.jsonnet", "-o", "out", "--timings"]);
    assert.match((await run()).stderr, FULL);
    await sleep(150);
    assert.match((await run()).stderr, FAST);
    const template = path.join(dir, "config", "templates", "article_published.txt");
    await writeFile(template, `${await readFile(template, "utf8")}Edited.\n`);
    const changed = await run();
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stderr, FULL);
    assert.match(changed.stdout, /^codegen: 1 file written/);
  });

  it("runs in full over a temp file a killed run left", async () => {
    const { out, run } = await generatedProject();
    await writeFile(path.join(out, "greetings", ".codegen-0123456789ab-0.tmp"), "partial");
    const checked = await run("--check");
    assert.equal(checked.code, 1);
    assert.equal(checked.stdout, "delete greetings/.codegen-0123456789ab-0.tmp\n");
    assert.match((await run()).stderr, FULL);
  });

  it("forgets, at most once a day, the stamps of output directories that are gone", async () => {
    const stamps = path.join(cacheDir(), "up-to-date");
    const earlier = new Set(await readdir(stamps).catch(() => []));
    const gone = await generatedProject();
    const gonesStamp = (await readdir(stamps)).filter((name) => name.endsWith(".json") && !earlier.has(name));
    assert.equal(gonesStamp.length, 1);
    await rm(gone.out, { recursive: true, force: true });
    // The marker says the last pruning was two days ago, so the next write prunes.
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(path.join(stamps, ".pruned"), twoDaysAgo, twoDaysAgo);
    const kept = await generatedProject();
    assert.ok(!(await readdir(stamps)).includes(gonesStamp[0]!), "the stamp outlived its output directory");
    assert.match((await kept.run()).stderr, FAST);
  });
});
