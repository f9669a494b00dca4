import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { ValueError } from "../../src/codegen/errors.js";
import { entryPoints, loadEntryPoint, type EntryPoint } from "../../src/codegen/plugins.js";

const GROUP = "toy.plugins";
const temps: string[] = [];
after(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "codegen-plugins-")));
  temps.push(dir);
  return dir;
}

/** Writes `<dir>/package.json` (and optional files) for a package named `name`. */
async function writePackage(dir: string, pkg: Record<string, unknown>, files: Record<string, string> = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), JSON.stringify(pkg));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
}

const summary = (entries: EntryPoint[]) => entries.map((e) => `${e.packageName}:${e.name}=${e.specifier}`);

describe("entryPoints", () => {
  it("lists entries of the group from every node_modules package, sorted by package name", async () => {
    const root = await tempDir();
    const nm = path.join(root, "node_modules");
    await writePackage(path.join(nm, "zeta"), { name: "zeta", codegen: { [GROUP]: { z1: "./z.js#Z", z0: "./z.js" } } });
    await writePackage(path.join(nm, "@scope", "alpha"), { name: "@scope/alpha", codegen: { [GROUP]: { a: "./a.js#A" } } });
    await writePackage(path.join(nm, "beta"), { name: "beta", codegen: { "other.group": { b: "./b.js#B" } } });
    await writePackage(path.join(nm, "plain"), { name: "plain" });
    await mkdir(path.join(nm, "no-manifest"));
    await writePackage(path.join(nm, "mid"), { name: "mid", codegen: { [GROUP]: { m: "lib/m.js#M" } } });

    const entries = await entryPoints(GROUP, { cwd: root });
    assert.deepEqual(summary(entries), ["@scope/alpha:a=./a.js#A", "mid:m=lib/m.js#M", "zeta:z1=./z.js#Z", "zeta:z0=./z.js"]);
    assert.deepEqual(entries[0], {
      group: GROUP,
      name: "a",
      packageName: "@scope/alpha",
      packageDir: path.join(nm, "@scope", "alpha"),
      specifier: "./a.js#A",
    });
    assert.deepEqual(summary(await entryPoints("other.group", { cwd: root })), ["beta:b=./b.js#B"]);
  });

  it("looks in node_modules from cwd upward; the nearest package of a name wins", async () => {
    const root = await tempDir();
    const cwd = path.join(root, "project", "sub");
    await mkdir(cwd, { recursive: true });
    await writePackage(path.join(root, "node_modules", "far"), { name: "far", codegen: { [GROUP]: { far: "./f.js#F" } } });
    await writePackage(path.join(root, "node_modules", "shadowed"), { name: "shadowed", codegen: { [GROUP]: { old: "./o.js#O" } } });
    await writePackage(path.join(root, "project", "node_modules", "shadowed"), {
      name: "shadowed",
      codegen: { [GROUP]: { near: "./n.js#N" } },
    });
    assert.deepEqual(summary(await entryPoints(GROUP, { cwd })), ["far:far=./f.js#F", "shadowed:near=./n.js#N"]);
  });

  it("follows symlinked packages and reads each real directory once", async () => {
    const root = await tempDir();
    const real = path.join(root, "elsewhere", "linked");
    await writePackage(real, { name: "linked", codegen: { [GROUP]: { l: "./l.js#L" } } });
    await mkdir(path.join(root, "node_modules", "@alias"), { recursive: true });
    await symlink(real, path.join(root, "node_modules", "linked"), "dir");
    await symlink(real, path.join(root, "node_modules", "@alias", "linked"), "dir");
    const entries = await entryPoints(GROUP, { cwd: root });
    assert.deepEqual(summary(entries), ["linked:l=./l.js#L"]);
    assert.equal(entries[0].packageDir, real);
  });

  it("lets this package's own manifest shadow another copy named codegen-kit", async () => {
    const root = await tempDir();
    await writePackage(path.join(root, "node_modules", "codegen-kit"), { name: "codegen-kit", codegen: { [GROUP]: { copy: "./c.js#C" } } });
    assert.deepEqual(await entryPoints(GROUP, { cwd: root }), []);
  });

  it("caches the scan per cwd", async () => {
    const root = await tempDir();
    await writePackage(path.join(root, "node_modules", "first"), { name: "first", codegen: { [GROUP]: { f: "./f.js#F" } } });
    assert.equal((await entryPoints(GROUP, { cwd: root })).length, 1);
    await writePackage(path.join(root, "node_modules", "second"), { name: "second", codegen: { [GROUP]: { s: "./s.js#S" } } });
    assert.equal((await entryPoints(GROUP, { cwd: root })).length, 1);
    assert.equal((await entryPoints(GROUP, { cwd: path.join(root, "node_modules") })).length, 2);
  });

  it("names the package.json of a malformed manifest", async () => {
    const root = await tempDir();
    await writePackage(path.join(root, "node_modules", "bad"), { name: "bad", codegen: ["not", "an", "object"] });
    await assert.rejects(entryPoints(GROUP, { cwd: root }), (e: unknown) => e instanceof Error && e.message.includes(path.join("bad", "package.json")));

    const other = await tempDir();
    await writePackage(path.join(other, "node_modules", "worse"), { name: "worse", codegen: { [GROUP]: { x: 42 } } });
    await assert.rejects(entryPoints(GROUP, { cwd: other }), /worse.*"codegen"\."toy\.plugins"\."x"/s);
  });
});

describe("loadEntryPoint", () => {
  async function entryFor(specifier: string): Promise<EntryPoint> {
    const dir = await tempDir();
    await writePackage(dir, { name: "toy" }, { "mod.mjs": "export const Named = 'named';\nexport default 'fallback';\n" });
    return { group: GROUP, name: "toy-entry", packageName: "toy", packageDir: dir, specifier };
  }

  it("returns the named export, or the default export without #name", async () => {
    assert.equal(await loadEntryPoint(await entryFor("./mod.mjs#Named")), "named");
    assert.equal(await loadEntryPoint(await entryFor("mod.mjs")), "fallback");
  });

  it("names the entry when the export is missing", async () => {
    await assert.rejects(
      loadEntryPoint(await entryFor("./mod.mjs#Missing")),
      (e: unknown) => e instanceof Error && /entry "toy-entry"/.test(e.message) && /no export "Missing"/.test(e.message),
    );
  });

  it("loads this package's dist/ entries from src/ when running from TypeScript", async () => {
    const ownRoot = await realpath(fileURLToPath(new URL("../../", import.meta.url)));
    const entry: EntryPoint = {
      group: GROUP,
      name: "errors",
      packageName: "codegen-kit",
      packageDir: ownRoot,
      specifier: "./dist/codegen/errors.js#ValueError",
    };
    assert.equal(await loadEntryPoint(entry), ValueError);
  });
});
