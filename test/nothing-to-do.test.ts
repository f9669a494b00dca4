import assert from "node:assert/strict";
import { cp, mkdir, readFile, readdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { codeHash } from "../src/codegen/input-hash.js";
import { runCodegen as codegen } from "./helpers/codegen-cli.js";
import { treeMtimes as mtimes } from "./helpers/trees.js";
import { FIXTURE_PACKAGE, createUserProject, makeTempDir, removeTempDirs, repoRoot } from "./helpers/user-project.js";

// "Nothing to do" (docs/regeneration.md#nothing-to-do) through the CLI: a run whose inputs and
// code hash to what the manifest recorded, over files that still hold what was written, stops
// once the config is evaluated (its `--timings` line has no validate phase) and touches nothing;
// any change to an input or to the generated tree makes it run in full.

after(removeTempDirs);

/** The greeter project generated once, and the hash of the code that generated it. */
let template: { dir: string; code: string } | undefined;

/**
 * A fixture project with the greeter config copied beside it (so a test may edit it), generated
 * into `out`: a copy of one generated once, since a run's inputs count paths relative to the
 * config and each package (a moved project has nothing to do, and the tests' first runs see so).
 * The copy is of a tree the current code generated: sources edited while the file runs (a
 * rebase, an editor's save) change the code's hash, and a copy made before would run in full.
 */
async function generatedProject(): Promise<{ dir: string; out: string; run: (...extra: string[]) => ReturnType<typeof codegen> }> {
  if (template === undefined || (await codeHash(template.dir)) !== template.code) {
    const first = await createUserProject();
    await cp(path.join(first, "node_modules", FIXTURE_PACKAGE, "examples", "greeter.jsonnet"), path.join(first, "greeter.jsonnet"));
    const generated = await greeter(first)();
    assert.equal(generated.code, 0, generated.stderr);
    assert.match(generated.stderr, FULL);
    const manifest = JSON.parse(await readFile(path.join(first, "out", ".codegen-manifest.json"), "utf8")) as { runs: { greeter: { code: string } } };
    template = { dir: first, code: manifest.runs.greeter.code };
  }
  const dir = await makeTempDir("codegen-project-");
  await cp(template.dir, dir, { recursive: true, verbatimSymlinks: true });
  return { dir, out: path.join(dir, "out"), run: greeter(dir) };
}

/** `codegen generate` of the greeter config in `dir` into `out`, with `--timings` and `extra`. */
function greeter(dir: string): (...extra: string[]) => ReturnType<typeof codegen> {
  return (...extra) => codegen(dir, ["generate", "-t", "greeter", "-c", "greeter.jsonnet", "-o", "out", "--timings", ...extra]);
}

const FAST = /^codegen: timings: start-up \d+ ms, load config \d+ ms, write \d+ ms; total \d+ ms$/m;
const FULL = /^codegen: timings: .*validate \d+ ms, build \d+ ms, render \d+ ms/m;

describe("a run with nothing to do", () => {
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
    const fullDry = await run("--dry-run", "--force-paths", "no-such-file");
    assert.match(fullDry.stderr, FULL);
    assert.equal(dry.stdout, fullDry.stdout);
    assert.deepEqual(await mtimes(out), before);
    assert.deepEqual(await readFile(path.join(out, ".codegen-manifest.json")), manifest);
    assert.deepEqual((await readdir(out)).sort(), [".codegen-manifest.json", "CHANGELOG.md", "README.md", "greetings", "index.ts"]);
  });

  it("sees a generated file edited by hand, whatever its size and times, and rewrites it", async () => {
    const { out, run } = await generatedProject();
    assert.match((await run()).stderr, FAST);
    const file = path.join(out, "greetings", "ada.ts");
    const original = await readFile(file, "utf8");
    const edited = original.replace(/[a-z]/, (letter) => (letter === "x" ? "y" : "x"));
    assert.equal(edited.length, original.length);
    assert.notEqual(edited, original);
    await writeFile(file, edited);
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
    assert.match((await run()).stderr, FAST);
    // A template of the plugin.
    const template = path.join(dir, "node_modules", FIXTURE_PACKAGE, "greeter", "templates", "index.ts.njk");
    await writeFile(template, `// edited\n${await readFile(template, "utf8")}`);
    const retemplated = await run();
    assert.match(retemplated.stderr, FULL);
    assert.match(retemplated.stdout, /^codegen: 1 file written/);
    assert.match(await readFile(path.join(out, "index.ts"), "utf8"), /\/\/ edited/);
    assert.match((await run()).stderr, FAST);
    // A TypeScript declaration of the plugin: no run executes it, so adding or editing it changes nothing.
    const declaration = path.join(dir, "node_modules", FIXTURE_PACKAGE, "greeter", "types.d.ts");
    await writeFile(declaration, "export {};\n");
    assert.match((await run()).stderr, FAST);
    // An option that changes the output: README.md is overwritten despite its skip policy.
    await writeFile(path.join(out, "README.md"), "mine\n");
    const forced = await run("--force-paths", "README.md");
    assert.match(forced.stderr, FULL);
    assert.match(forced.stdout, /^codegen: 1 file written/);
    // A forced run always runs in full: a file it must overwrite may have changed.
    assert.match((await run("--force-paths", "README.md")).stderr, FULL);
    const unforced = await run();
    assert.match(unforced.stderr, FULL);
    assert.match(unforced.stdout, /^codegen: 0 files written, 3 unchanged, 2 skipped/);
  });

  it("runs in full when a file the config names changed (the be target's comms templates)", async () => {
    const dir = await createUserProject({ fixture: false });
    await cp(path.join(repoRoot, "examples", "blog", "config"), path.join(dir, "config"), { recursive: true });
    const run = () => codegen(dir, ["generate", "-t", "be", "-c", "config/comms.jsonnet", "-o", "out", "--timings"]);
    assert.match((await run()).stderr, FULL);
    assert.match((await run()).stderr, FAST);
    const template = path.join(dir, "config", "templates", "article_published.txt");
    await writeFile(template, `${await readFile(template, "utf8")}Edited.\n`);
    const changed = await run();
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stderr, FULL);
    assert.match(changed.stdout, /^codegen: 1 file written/);
  });

  it("runs in full when a file the config imports changed, though the config file did not", async () => {
    const { dir, out, run } = await generatedProject();
    const config = path.join(dir, "greeter.jsonnet");
    await writeFile(path.join(dir, "greeting.libsonnet"), '"Hi"\n');
    await writeFile(config, (await readFile(config, "utf8")).replace('greeting="Hi"', 'greeting=(import "greeting.libsonnet")'));
    // The same evaluated config: nothing to do.
    assert.match((await run()).stderr, FAST);
    await writeFile(path.join(dir, "greeting.libsonnet"), '"Hey"\n');
    const changed = await run();
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stderr, FULL);
    assert.match(changed.stdout, /^codegen: 1 file written/);
    assert.match((await run()).stderr, FAST);
  });

  it("runs in full when a template override changed, or one was added", async () => {
    const dir = await createUserProject({ fixture: false });
    await cp(path.join(repoRoot, "examples", "blog", "config"), path.join(dir, "config"), { recursive: true });
    await writeFile(path.join(dir, "config", "with-overrides.jsonnet"), "(import 'project.jsonnet') + { user_templates: { dir: 'overrides' } }\n");
    const override = path.join(dir, "config", "overrides", "operations", "get", "get.py.njk");
    await mkdir(path.dirname(override), { recursive: true });
    // The shipped template, so the override keeps up with the variables it is given.
    const shipped = await readFile(path.join(repoRoot, "src", "targets", "be", "operations", "get", "get.py.njk"), "utf8");
    await writeFile(override, shipped);
    const run = () => codegen(dir, ["generate", "-t", "be", "-c", "config/with-overrides.jsonnet", "-o", "out", "--timings"]);
    assert.match((await run()).stderr, FULL);
    assert.match((await run()).stderr, FAST);
    await writeFile(override, `${shipped}    # edited\n`);
    const changed = await run();
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stderr, FULL);
    assert.match(changed.stdout, /^codegen: [1-9]\d* files? written/);
    assert.match((await run()).stderr, FAST);
    // A new override, beside the others.
    const list = path.join(dir, "config", "overrides", "operations", "list", "page.py.njk");
    await mkdir(path.dirname(list), { recursive: true });
    await writeFile(list, await readFile(path.join(repoRoot, "src", "targets", "be", "operations", "list", "page.py.njk"), "utf8"));
    assert.match((await run()).stderr, FULL);
  });

  it("runs in full over a temp file a killed run left", async () => {
    const { out, run } = await generatedProject();
    await writeFile(path.join(out, "greetings", ".codegen-0123456789ab-0.tmp"), "partial");
    const checked = await run("--check");
    assert.equal(checked.code, 1);
    assert.equal(checked.stdout, "delete greetings/.codegen-0123456789ab-0.tmp\n");
    assert.match((await run()).stderr, FULL);
  });
});
