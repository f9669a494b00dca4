import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { z } from "zod";

import { DuplicateTargetError, discoverTargets, loadTarget, packagePrefixOf, targetNames, type Target } from "../../src/codegen/target.js";

const temps: string[] = [];
after(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "codegen-target-")));
  temps.push(dir);
  return dir;
}

/** A target module's source: a plain object; the schema only needs zod's `safeParse`. */
function targetModule(exports: Record<string, Record<string, unknown>>): string {
  return Object.entries(exports)
    .map(([name, fields]) => {
      const body = { language: "python", templateDir: "/templates", operationsEntryPoint: `${fields.name}.operations`, ...fields };
      return `export const ${name} = { ...${JSON.stringify(body)}, schema: { safeParse: (value) => ({ success: true, data: value }) } };`;
    })
    .join("\n");
}

/** Installs a package `name` in `<root>/node_modules` with a `codegen.targets` manifest and one module. */
async function installPackage(root: string, name: string, targets: Record<string, string>, source: string): Promise<void> {
  const dir = path.join(root, "node_modules", name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name, type: "module", codegen: { "codegen.targets": targets } }));
  await writeFile(path.join(dir, "targets.mjs"), source);
}

/** Names of the targets this package itself declares (the own manifest is always read first). */
async function ownTargetNames(): Promise<string[]> {
  return (await discoverTargets({ cwd: await tempDir() })).map((target) => target.name);
}

describe("discoverTargets", () => {
  it("returns the targets of installed manifests, after this package's own, in discovery order", async () => {
    const root = await tempDir();
    await installPackage(root, "zz-gen", { gamma: "./targets.mjs#gamma" }, targetModule({ gamma: { name: "gamma" } }));
    await installPackage(
      root,
      "aa-gen",
      { beta: "./targets.mjs#beta", alpha: "./targets.mjs#alpha" },
      targetModule({ alpha: { name: "alpha" }, beta: { name: "beta", configClass: "beta.Config" } }),
    );
    const targets = await discoverTargets({ cwd: root });
    assert.deepEqual(
      targets.map((target) => target.name),
      [...(await ownTargetNames()), "beta", "alpha", "gamma"],
    );
    const beta = targets.find((target) => target.name === "beta")!;
    assert.equal(beta.configClass, "beta.Config");
    assert.equal(beta.operationsEntryPoint, "beta.operations");
    assert.equal(typeof beta.schema.safeParse, "function");
  });

  it("finds nothing more in a directory without packages", async () => {
    const names = await ownTargetNames();
    const root = await tempDir();
    await mkdir(path.join(root, "node_modules"));
    assert.deepEqual((await discoverTargets({ cwd: root })).map((target) => target.name), names);
  });

  const malformed: [string, Record<string, unknown>, RegExp][] = [
    ["no name", { name: undefined }, /target has no string "name"/],
    ["a non-string language", { name: "x", language: 3 }, /target has no string "language"/],
    ["no template directory", { name: "x", templateDir: undefined }, /target has no string "templateDir"/],
    ["no operations group", { name: "x", operationsEntryPoint: undefined }, /target has no string "operationsEntryPoint"/],
  ];
  for (const [label, fields, message] of malformed) {
    it(`raises TypeError naming the package and entry for a target with ${label}`, async () => {
      const root = await tempDir();
      await installPackage(root, "broken-gen", { x: "./targets.mjs#x" }, targetModule({ x: fields }));
      await assert.rejects(
        discoverTargets({ cwd: root }),
        (error: unknown) =>
          error instanceof TypeError && message.test(error.message) && error.message.includes("broken-gen: codegen.targets.x"),
      );
    });
  }

  it("raises TypeError for a schema that is not a zod schema", async () => {
    const root = await tempDir();
    await installPackage(
      root,
      "noschema-gen",
      { x: "./targets.mjs#x" },
      'export const x = { name: "x", language: "python", templateDir: "/t", operationsEntryPoint: "x.operations", schema: {} };',
    );
    await assert.rejects(discoverTargets({ cwd: root }), (error: unknown) => error instanceof TypeError && /"schema" is not a zod schema/.test(error.message));
  });

  it("raises TypeError when jsonnetStdlibDir is not named after the target", async () => {
    const root = await tempDir();
    await installPackage(root, "stdlib-gen", { x: "./targets.mjs#x" }, targetModule({ x: { name: "x", jsonnetStdlibDir: "/lib/jsonnet" } }));
    await assert.rejects(
      discoverTargets({ cwd: root }),
      (error: unknown) => error instanceof TypeError && /jsonnetStdlibDir must be a directory named "x"/.test(error.message),
    );
  });

  it("accepts a jsonnetStdlibDir named after the target", async () => {
    const root = await tempDir();
    await installPackage(root, "stdlib-gen", { x: "./targets.mjs#x" }, targetModule({ x: { name: "x", jsonnetStdlibDir: "/lib/jsonnet/x" } }));
    assert.equal((await discoverTargets({ cwd: root })).at(-1)!.jsonnetStdlibDir, "/lib/jsonnet/x");
  });

  it("refuses two packages declaring a target of the same name, naming both", async () => {
    const root = await tempDir();
    await installPackage(root, "first-gen", { twin: "./targets.mjs#twin" }, targetModule({ twin: { name: "twin" } }));
    await installPackage(root, "second-gen", { twin: "./targets.mjs#twin" }, targetModule({ twin: { name: "twin" } }));
    const named = (error: unknown) =>
      error instanceof DuplicateTargetError &&
      /2 installed packages declare a target named "twin": first-gen \(.*first-gen\) and second-gen \(.*second-gen\)/.test(error.message);
    await assert.rejects(discoverTargets({ cwd: root }), named);
    await assert.rejects(loadTarget("twin", { cwd: root }), named);
    // Another target still loads alone: the clash only matters to whoever asks for it.
    assert.equal((await loadTarget("be", { cwd: root }))?.name, "be");
  });

  it("loads one target by name without loading the others, and names the installed ones", async () => {
    const root = await tempDir();
    await installPackage(root, "broken-gen", { broken: "./targets.mjs#nothere" }, targetModule({ x: { name: "x" } }));
    await installPackage(root, "good-gen", { good: "./targets.mjs#good" }, targetModule({ good: { name: "good" } }));
    assert.equal((await loadTarget("good", { cwd: root }))?.name, "good");
    assert.equal(await loadTarget("absent", { cwd: root }), undefined);
    assert.deepEqual((await targetNames({ cwd: root })).slice(-2), ["broken", "good"]);
  });

  it("raises TypeError when an entry's name is not its target's name", async () => {
    const root = await tempDir();
    await installPackage(root, "alias-gen", { alias: "./targets.mjs#real" }, targetModule({ real: { name: "real" } }));
    await assert.rejects(loadTarget("alias", { cwd: root }), /alias-gen: codegen.targets.alias: the entry is named "alias" but its target "real"/);
  });

  it("names the entry when its module lacks the export", async () => {
    const root = await tempDir();
    await installPackage(root, "missing-gen", { x: "./targets.mjs#nothere" }, targetModule({ x: { name: "x" } }));
    await assert.rejects(discoverTargets({ cwd: root }), /entry "x" of group "codegen\.targets".*no export "nothere"/s);
  });
});

describe("packagePrefixOf", () => {
  const base: Target = {
    name: "t",
    language: "python",
    schema: z.object({}),
    templateDir: "/t",
    operationsEntryPoint: "t.operations",
  };

  it("uses the target's own rule when it has one", () => {
    const target: Target<{ root: { pkg: string } }> = { ...base, packagePrefix: (config) => config.root.pkg };
    assert.equal(packagePrefixOf(target, { root: { pkg: "acme.api" }, package_prefix: "ignored" }), "acme.api");
  });

  it("defaults to the config's package_prefix", () => {
    assert.equal(packagePrefixOf(base, { package_prefix: "blog.api" }), "blog.api");
  });

  it("is empty when package_prefix is absent or not a string", () => {
    for (const config of [{}, { package_prefix: 3 }, { package_prefix: null }, null, undefined, "text"]) {
      assert.equal(packagePrefixOf(base, config), "", JSON.stringify(config));
    }
  });
});
