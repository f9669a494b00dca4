// Regenerating into a directory that already holds output: the manifest, pruning of the files
// a run no longer produces, and what is never touched (the user's files, skip-policy files,
// edited files, another target's files). Uses the fixture plugin's greeter and shouter
// targets, installed in a temp project, through the real `generate`/`planGeneration`.

import assert from "node:assert/strict";
import { mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";

import { GenerationError } from "../../src/codegen/errors.js";
import { countActions, driftOf, generate, planGeneration, type GenerateOptions } from "../../src/codegen/generate.js";
import { MANIFEST_FILE, readManifest } from "../../src/codegen/manifest.js";
import { discoverTargets, type Target } from "../../src/codegen/target.js";
import { applyPlan } from "../../src/codegen/writer.js";
import { createUserProject, installPackage, removeTempDirs, snapshot } from "../helpers/user-project.js";

let project: string;
let greeter: Target;
let shouter: Target;
/** A target whose only file is a bootstrap file with the skip policy (like be_root's). */
let bootstrapOnly: Target;
let runs = 0;

before(async () => {
  project = await createUserProject();
  // Installed first: package scans are cached per directory.
  await installPackage(project, "bootstrap-only", { codegen: { "bootstrap.operations": { boot: "./ops.ts#BootOp" } } }, {
    "ops.ts": [
      'import { StaticFile, operation } from "codegen-kit";',
      '@operation("boot", { scope: "project" })',
      "export class BootOp {",
      "  build() {",
      '    return [new StaticFile({ path: "BOOTSTRAP.md", template: "", ifExists: "skip" })];',
      "  }",
      "}",
      "",
    ].join("\n"),
  });
  const targets = await discoverTargets({ cwd: project });
  greeter = targets.find((target) => target.name === "greeter")!;
  shouter = targets.find((target) => target.name === "shouter")!;
  bootstrapOnly = { name: "bootstrap", language: "python", schema: z.object({}), templateDir: project, operationsEntryPoint: "bootstrap.operations" };
});

after(removeTempDirs);

/** Options for a run of `target` with `config` (written as JSON) into `out` (relative to the project). */
async function options(target: Target, config: unknown, out: string): Promise<GenerateOptions> {
  const configFile = path.join(project, `config-${++runs}.json`);
  await writeFile(configFile, JSON.stringify(config));
  return { target, configFile, outDir: path.join(project, out), cwd: project };
}

const people = (...names: (string | { name: string; file?: string })[]) => ({
  people: names.map((name) => (typeof name === "string" ? { name } : name)),
});

const recordedPaths = async (out: string, target = "greeter") =>
  ((await readManifest(path.join(project, out))).recorded.get(target) ?? []).map((file) => file.path);

describe("the manifest", () => {
  it("records the overwrite-policy files with their hashes, never the skip-policy ones nor itself", async () => {
    const result = await generate(await options(greeter, people("ada", "bob"), "m1"));
    assert.deepEqual(await recordedPaths("m1"), ["greetings/ada.ts", "greetings/bob.ts", "index.ts"]);
    const text = await readFile(path.join(project, "m1", MANIFEST_FILE), "utf8");
    assert.equal(text, result.manifest!.content);
    assert.ok(text.endsWith("}\n"));
    assert.doesNotMatch(JSON.stringify(JSON.parse(text).targets), /README|CHANGELOG|codegen-manifest/);
    // The run's record lists the skip files it made, so a run with nothing to do knows they are there.
    assert.deepEqual(JSON.parse(text).runs.greeter.skip, ["CHANGELOG.md", "README.md"]);
  });

  it("is deterministic and not rewritten when nothing changed", async () => {
    const opts = await options(greeter, people("ada"), "m2");
    await generate(opts);
    const file = path.join(project, "m2", MANIFEST_FILE);
    const first = await readFile(file, "utf8");
    const past = new Date("2001-02-03T04:05:06Z");
    await utimes(file, past, past);
    const again = await generate(opts);
    assert.equal(again.manifest, undefined);
    assert.equal(await readFile(file, "utf8"), first);
    assert.equal((await stat(file)).mtime.getTime(), past.getTime());
  });

  it("is not created when a run records nothing (only skip-policy files)", async () => {
    const opts: GenerateOptions = { ...(await options(greeter, {}, "m3")), target: bootstrapOnly };
    const result = await generate(opts);
    assert.deepEqual(result.plan.map((entry) => `${entry.action} ${entry.path}`), ["create BOOTSTRAP.md"]);
    assert.equal(result.manifest, undefined);
    assert.deepEqual(Object.keys(await snapshot(opts.outDir!)), ["BOOTSTRAP.md"]);
  });

  it("refuses a generated file at the manifest's path", async () => {
    const opts = await options(greeter, people({ name: "ada", file: MANIFEST_FILE }), "m4");
    await assert.rejects(generate(opts), (error: unknown) => {
      assert.ok(error instanceof GenerationError);
      assert.equal(error.message, `${opts.configFile}: output path "${MANIFEST_FILE}" is reserved for codegen's manifest (generated for people[0])`);
      return true;
    });
    assert.deepEqual(await snapshot(opts.outDir!), {});
  });

  it("fails on a corrupt manifest, naming it, and writes nothing", async () => {
    const opts = await options(greeter, people("ada"), "m5");
    await generate(opts);
    const file = path.join(opts.outDir!, MANIFEST_FILE);
    for (const [text, problem] of [
      ["{ not json", /: not valid JSON \(/],
      ['{"version": 2, "targets": {}}', /: version: must be 1 \(this manifest was written by another codegen version\)/],
      ['{"version": 1, "targets": {"greeter": [{"path": "../x.ts", "sha256": "00"}]}}', /targets\.greeter\[0\]\.path: must be a normalised path/],
      ['{"version": 1, "targets": {"greeter": [{"path": "a.ts", "sha256": "00"}]}}', /targets\.greeter\[0\]\.sha256: must be 64 lowercase hex digits/],
      ['{"version": 1, "targets": {}, "extra": 1}', /extra: unknown key/],
    ] as const) {
      await writeFile(file, text);
      const before = await snapshot(opts.outDir!);
      await assert.rejects(generate(opts), (error: unknown) => {
        assert.ok(error instanceof GenerationError);
        assert.ok(error.message.startsWith(`corrupt manifest ${file}: `), error.message);
        assert.match(error.message, problem);
        return true;
      });
      assert.deepEqual(await snapshot(opts.outDir!), before);
    }
  });

  it("names a listed-twice path", async () => {
    const file = path.join(project, "m6", MANIFEST_FILE);
    await mkdir(path.dirname(file));
    const entry = { path: "a.ts", sha256: "a".repeat(64) };
    await writeFile(file, JSON.stringify({ version: 1, targets: { greeter: [entry, entry] } }));
    await assert.rejects(readManifest(path.dirname(file)), /targets\.greeter\[1\]\.path: "a\.ts" is listed twice/);
  });
});

describe("pruning stale files", () => {
  it("deletes the files a removed entry produced, and the directories they leave empty", async () => {
    const opts = await options(greeter, people("ada", { name: "bob", file: "deep/er/bob.ts" }), "p1");
    await generate(opts);
    await writeFile(path.join(opts.outDir!, "deep", "mine.txt"), "the user's\n");
    await mkdir(path.join(opts.outDir!, "empty-before"));
    const fewer = { ...opts, configFile: (await options(greeter, people("ada"), "p1")).configFile };
    const result = await generate(fewer);
    assert.deepEqual(
      result.plan.filter((entry) => entry.action === "delete").map((entry) => entry.path),
      ["deep/er/bob.ts"],
    );
    const after = await snapshot(opts.outDir!);
    assert.equal(after["deep/er/bob.ts"], undefined);
    assert.equal(after["deep/er"], undefined, "left empty by the deletion: removed");
    assert.equal(after.deep, "<dir>", "still holds the user's file");
    assert.equal(after["deep/mine.txt"], "the user's\n");
    assert.equal(after["empty-before"], "<dir>", "held no deleted file: kept");
    assert.deepEqual(await recordedPaths("p1"), ["greetings/ada.ts", "index.ts"]);
  });

  it("removes a whole directory tree it emptied, but never the output directory", async () => {
    const opts = await options(greeter, people({ name: "ada", file: "a/b/c/ada.ts" }), "p2");
    await generate(opts);
    await generate({ ...opts, configFile: (await options(greeter, { people: [] }, "p2")).configFile });
    // With nobody to greet, greeter writes no index.ts either: it goes too, and the manifest lists nothing.
    assert.deepEqual(Object.keys(await snapshot(opts.outDir!)).sort(), [MANIFEST_FILE, "CHANGELOG.md", "README.md"]);
    assert.deepEqual(await recordedPaths("p2"), []);
  });

  it("keeps a stale file the user edited, says why, and stops tracking it", async () => {
    const opts = await options(greeter, people("ada", "bob"), "p3");
    await generate(opts);
    const bob = path.join(opts.outDir!, "greetings", "bob.ts");
    await writeFile(bob, "// my own now\n");
    const fewer = { ...opts, configFile: (await options(greeter, people("ada"), "p3")).configFile };
    const result = await generate(fewer);
    assert.deepEqual(result.kept.map((file) => [file.path, file.reason]), [["greetings/bob.ts", "it changed since codegen generated it"]]);
    assert.equal(countActions(result.plan).delete, 0);
    assert.equal(await readFile(bob, "utf8"), "// my own now\n");
    assert.deepEqual(await recordedPaths("p3"), ["greetings/ada.ts", "index.ts"]);
    assert.deepEqual((await planGeneration(fewer)).kept, [], "untracked: no warning the next time");
  });

  it("keeps a stale path that is no longer a regular file", async () => {
    const opts = await options(greeter, people("ada", "bob"), "p4");
    await generate(opts);
    const bob = path.join(opts.outDir!, "greetings", "bob.ts");
    await rm(bob);
    await mkdir(bob);
    const result = await planGeneration({ ...opts, configFile: (await options(greeter, people("ada"), "p4")).configFile });
    assert.deepEqual(result.kept.map((file) => file.reason), ["it is no longer a regular file"]);
  });

  it("needs nothing for a stale file the user already deleted", async () => {
    const opts = await options(greeter, people("ada", "bob"), "p5");
    await generate(opts);
    await rm(path.join(opts.outDir!, "greetings", "bob.ts"));
    const result = await generate({ ...opts, configFile: (await options(greeter, people("ada"), "p5")).configFile });
    assert.equal(countActions(result.plan).delete, 0);
    assert.deepEqual(result.kept, []);
    assert.deepEqual(await recordedPaths("p5"), ["greetings/ada.ts", "index.ts"]);
  });

  it("never prunes skip-policy files, which are the user's once written", async () => {
    const opts = await options(greeter, people("ada"), "p6");
    await generate(opts);
    await generate({ ...opts, configFile: (await options(greeter, people(), "p6")).configFile });
    const after = await snapshot(opts.outDir!);
    assert.ok("README.md" in after && "CHANGELOG.md" in after);
  });

  it("lets two targets share an output directory without pruning each other", async () => {
    const g = await options(greeter, people("ada"), "shared");
    const s = await options(shouter, { words: [{ name: "hey" }] }, "shared");
    await generate(g);
    await generate(s);
    assert.deepEqual(await recordedPaths("shared", "shouter"), ["__init__.py", "hey.py"]);
    assert.deepEqual(await recordedPaths("shared", "greeter"), ["greetings/ada.ts", "index.ts"]);
    // greeter runs again with fewer people: only its own stale file goes.
    const again = await generate({ ...g, configFile: (await options(greeter, people(), "shared")).configFile });
    assert.deepEqual(again.plan.filter((entry) => entry.action === "delete").map((entry) => entry.path), ["greetings/ada.ts", "index.ts"]);
    const after = await snapshot(g.outDir!);
    assert.ok("hey.py" in after && "__init__.py" in after);
    assert.deepEqual(await recordedPaths("shared", "shouter"), ["__init__.py", "hey.py"]);
  });

  it("leaves the tree as it was when a write fails: nothing deleted, manifest unchanged", async () => {
    const opts = await options(greeter, people("ada", "bob"), "p7");
    await generate(opts);
    const fewer = await planGeneration({ ...opts, configFile: (await options(greeter, people({ name: "ada", file: "blocked/ada.ts" }), "p7")).configFile });
    assert.deepEqual(driftOf(fewer.plan).map((entry) => `${entry.action} ${entry.path}`), [
      "create blocked/ada.ts",
      "delete greetings/ada.ts",
      "delete greetings/bob.ts",
      "overwrite index.ts",
    ]);
    // The disk changes between planning and writing: a file now sits where a directory must go.
    await writeFile(path.join(opts.outDir!, "blocked"), "in the way\n");
    const before = await snapshot(opts.outDir!);
    await assert.rejects(applyPlan(fewer.plan, { manifest: fewer.manifest }));
    assert.deepEqual(await snapshot(opts.outDir!), before);
  });
});

describe("planGeneration as dry run and check", () => {
  it("plans creates, overwrites, skips and deletes without writing anything", async () => {
    const opts = await options(greeter, people("ada", "bob"), "d1");
    await generate(opts);
    await writeFile(path.join(opts.outDir!, "README.md"), "mine\n");
    const before = await snapshot(opts.outDir!);
    const result = await planGeneration({ ...opts, configFile: (await options(greeter, people("ada", "cy"), "d1")).configFile });
    assert.deepEqual(result.plan.map((entry) => `${entry.action} ${entry.path}`), [
      "skip CHANGELOG.md",
      "skip README.md",
      "unchanged greetings/ada.ts",
      "delete greetings/bob.ts",
      "create greetings/cy.ts",
      "overwrite index.ts",
    ]);
    assert.deepEqual(driftOf(result.plan).map((entry) => entry.path), ["greetings/bob.ts", "greetings/cy.ts", "index.ts"]);
    assert.deepEqual(await snapshot(opts.outDir!), before);
  });

  it("finds no drift in a freshly generated tree", async () => {
    const opts = await options(greeter, people("ada"), "d2");
    await generate(opts);
    assert.deepEqual(driftOf((await planGeneration(opts)).plan), []);
  });
});
