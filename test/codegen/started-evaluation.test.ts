import assert from "node:assert/strict";
import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { jsonnetLibraryDirs } from "../../src/codegen/config.js";
import { type StartedEvaluation, generate, planGeneration, startEvaluation } from "../../src/codegen/generate.js";
import { type Target, loadTarget } from "../../src/codegen/target.js";
import { useTempStampCache } from "../helpers/stamp-cache.js";
import { FIXTURE_PACKAGE, createUserProject, removeTempDirs } from "../helpers/user-project.js";

// The CLI begins evaluating a jsonnet config before the targets load (docs/regeneration.md):
// a run, writing or only planning (`--check`, `--dry-run`), uses that evaluation only when it
// provably read the inputs the run reads.

useTempStampCache();

after(removeTempDirs);

async function greeterProject(): Promise<{ dir: string; configFile: string; target: Target; out: string }> {
  const dir = await createUserProject();
  const configFile = path.join(dir, "greeter.jsonnet");
  await cp(path.join(dir, "node_modules", FIXTURE_PACKAGE, "examples", "greeter.jsonnet"), configFile);
  const target = (await loadTarget("greeter", { cwd: dir }))!;
  return { dir, configFile, target, out: path.join(dir, "out") };
}

/** Every generated file's text, joined: what the output says. */
async function outputText(out: string): Promise<string> {
  const names = (await readdir(out, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const texts = await Promise.all(names.map((entry) => readFile(path.join(entry.parentPath, entry.name), "utf8")));
  return texts.join("\n");
}

describe("an evaluation begun before the run", () => {
  it("is used by a run when its fingerprint is the run's", async () => {
    const { dir, configFile, target, out } = await greeterProject();
    const run = { targetName: "greeter", configFile, cwd: dir, outDir: out };
    const started = (await startEvaluation(run, jsonnetLibraryDirs([target])))!;
    assert.ok(started, "the config's inputs are fingerprinted");
    // A text only the evaluation holds shows which one the run used.
    const text = (await started.text).replace('"Hi"', '"Salutations"');
    assert.notEqual(text, await started.text);
    await generate({ target, configFile, cwd: dir, outDir: out, recordUpToDate: true, evaluation: { fingerprint: started.fingerprint, text: Promise.resolve(text) } });
    assert.match(await outputText(out), /Salutations/);
  });

  it("is not used when the config changed after it began or its library paths differ", async () => {
    const { dir, configFile, target, out } = await greeterProject();
    const run = { targetName: "greeter", configFile, cwd: dir, outDir: out };
    const libraryDirs = jsonnetLibraryDirs([target]);
    const decoy = (started: StartedEvaluation): StartedEvaluation => ({ fingerprint: started.fingerprint, text: Promise.resolve('{"package_prefix": "decoy", "people": []}') });

    // The config is edited while the evaluation runs: the run evaluates the new text.
    const early = (await startEvaluation(run, libraryDirs))!;
    await writeFile(configFile, (await readFile(configFile, "utf8")).replace('greeting="Hi"', 'greeting="Hey"'));
    await generate({ target, configFile, cwd: dir, outDir: out, recordUpToDate: true, evaluation: decoy(early) });
    assert.match(await outputText(out), /Hey/);
    assert.doesNotMatch(await outputText(out), /decoy/);

    // Begun with other library paths (the last run's, since changed).
    const elsewhere = (await startEvaluation(run, [...libraryDirs, path.join(dir, "elsewhere")]))!;
    await writeFile(configFile, (await readFile(configFile, "utf8")).replace('greeting="Hey"', 'greeting="Ahoy"'));
    const current = (await startEvaluation(run, libraryDirs))!;
    assert.notEqual(elsewhere.fingerprint, current.fingerprint);
    await generate({ target, configFile, cwd: dir, outDir: out, recordUpToDate: true, evaluation: decoy(elsewhere) });
    assert.match(await outputText(out), /Ahoy/);
  });

  it("is used by --check and --dry-run's plan under the same rule", async () => {
    const { dir, configFile, target, out } = await greeterProject();
    const run = { targetName: "greeter", configFile, cwd: dir, outDir: out };
    const libraryDirs = jsonnetLibraryDirs([target]);
    await generate({ target, configFile, cwd: dir, outDir: out });
    const planned = async (evaluation: StartedEvaluation): Promise<string> =>
      (await planGeneration({ target, configFile, cwd: dir, outDir: out, evaluation })).files.map((file) => file.content).join("\n");

    const started = (await startEvaluation(run, libraryDirs))!;
    const text = (await started.text).replace('"Hi"', '"Salutations"');
    assert.match(await planned({ fingerprint: started.fingerprint, text: Promise.resolve(text) }), /Salutations/);

    // Edited after the evaluation began: the plan reads the new text.
    await writeFile(configFile, (await readFile(configFile, "utf8")).replace('greeting="Hi"', 'greeting="Hey"'));
    const plan = await planned({ fingerprint: started.fingerprint, text: Promise.resolve(text) });
    assert.match(plan, /Hey/);
    assert.doesNotMatch(plan, /Salutations/);
  });

  it("fails as the run would when the config is broken, and is undefined when the config cannot be read", async () => {
    const { dir, configFile, target, out } = await greeterProject();
    const run = { targetName: "greeter", configFile, cwd: dir, outDir: out };
    await writeFile(configFile, "{ people: [ }\n");
    const started = (await startEvaluation(run, jsonnetLibraryDirs([target])))!;
    await assert.rejects(
      generate({ target, configFile, cwd: dir, outDir: out, recordUpToDate: true, evaluation: started }),
      (error: Error) => error.name === "ConfigError" && /jsonnet/.test(error.message),
    );
    assert.equal(await startEvaluation({ ...run, configFile: path.join(dir, "missing.jsonnet") }, []), undefined);
  });
});
