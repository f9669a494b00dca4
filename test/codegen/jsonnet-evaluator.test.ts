// codegen's jsonnet evaluator (native/jsonnet, compiled to src/codegen/jsonnet-evaluator.wasm)
// and the WASI host that runs it (jsonnet-evaluate.mjs), through the function configs are
// evaluated with (config.ts).

import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type ConfigReads, evaluateJsonnetText } from "../../src/codegen/config.js";
import { ConfigError } from "../../src/codegen/errors.js";
import { sha256 } from "../../src/codegen/prune.js";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";

const crate = fileURLToPath(new URL("../../native/jsonnet/", import.meta.url));
const wasm = fileURLToPath(new URL("../../src/codegen/jsonnet-evaluator.wasm", import.meta.url));

let dir: string;
before(async () => {
  dir = await makeTempDir("codegen-jsonnet-evaluator-");
});
after(removeTempDirs);

describe("jsonnet-evaluator.wasm", () => {
  it("is the build of the sources beside it (npm run build:jsonnet after editing native/jsonnet)", async () => {
    const built = JSON.parse(await readFile(path.join(crate, "built.json"), "utf8")) as { files: string[]; sources: string; wasm: string };
    const sources = await Promise.all(built.files.map((name) => readFile(path.join(crate, name), "utf8")));
    assert.equal(sha256(sources.join("\0")), built.sources, "native/jsonnet changed since the module was built");
    assert.equal(sha256(await readFile(wasm)), built.wasm, "jsonnet-evaluator.wasm is not the module built.json records");
  });

  it("returns all of a result made after the evaluator's memory grew", async () => {
    // About 3.8 MB of JSON and 56 MB of memory: Node 20's own WASI host loses track of a memory
    // this size once it grows, and its process dies with the output written (why ours exists).
    const file = path.join(dir, "large.jsonnet");
    await writeFile(file, "std.makeArray(60000, function(i) { name: 'item' + i, tags: ['a', 'b', 'c'], size: i * 2 })\n");
    const items = JSON.parse(await evaluateJsonnetText(file, [])) as { name: string; size: number }[];
    assert.equal(items.length, 60000);
    assert.deepEqual(items.at(-1), { name: "item59999", size: 119998, tags: ["a", "b", "c"] });
  });

  it("reads imports beside the importing file, then in the library directories, the last given first", async () => {
    await writeFile(path.join(dir, "near.libsonnet"), "'near'");
    for (const lib of ["lib1", "lib2"]) {
      await mkdir(path.join(dir, lib), { recursive: true });
      await writeFile(path.join(dir, lib, "shared.libsonnet"), `'${lib}'`);
    }
    const file = path.join(dir, "imports.jsonnet");
    await writeFile(file, "{ near: import 'near.libsonnet', shared: import 'shared.libsonnet', text: importstr 'near.libsonnet' }\n");
    const answer = await evaluateJsonnetText(file, [path.join(dir, "lib1"), path.join(dir, "lib2")]);
    assert.deepEqual(JSON.parse(answer), { near: "near", shared: "lib2", text: "'near'" });
  });

  it("tells what it read, transitively, and where it looked in vain, whether or not the evaluation succeeds", async () => {
    const project = path.join(dir, "reads");
    const lib = path.join(dir, "reads-lib");
    await mkdir(path.join(project, "parts"), { recursive: true });
    await mkdir(path.join(lib, "shared"), { recursive: true });
    await writeFile(path.join(project, "config.jsonnet"), "local p = import 'parts/one.libsonnet'; local s = import 'shared/util.libsonnet'; p + s");
    await writeFile(path.join(project, "parts", "one.libsonnet"), "{ one: import 'two.json', text: importstr 'note.txt' }");
    await writeFile(path.join(project, "parts", "two.json"), '{"two": 2}');
    await writeFile(path.join(project, "parts", "note.txt"), "import 'not-jsonnet.libsonnet'");
    await writeFile(path.join(lib, "shared", "util.libsonnet"), "{ util: true }");
    const config = path.join(project, "config.jsonnet");
    let reads: ConfigReads | undefined;
    const answer = await evaluateJsonnetText(config, [lib], (found) => (reads = found));
    assert.deepEqual(JSON.parse(answer), { one: { two: 2 }, text: "import 'not-jsonnet.libsonnet'", util: true });
    const util = path.join(lib, "shared", "util.libsonnet");
    assert.deepEqual(reads!.files.sort(), [config, util, ...["note.txt", "one.libsonnet", "two.json"].map((name) => path.join(project, "parts", name))].sort());
    // Looked for beside the config first: a file created there would be imported instead.
    assert.deepEqual(reads!.missing, [path.join(project, "shared", "util.libsonnet")]);

    await writeFile(path.join(project, "parts", "one.libsonnet"), "{ one: import 'gone/three.libsonnet' }");
    await assert.rejects(evaluateJsonnetText(config, [lib], (found) => (reads = found)), ConfigError);
    assert.deepEqual(reads!.files.sort(), [config, util, path.join(project, "parts", "one.libsonnet")].sort());
    assert.ok(reads!.missing.includes(path.join(project, "parts", "gone", "three.libsonnet")), reads!.missing.join(", "));
  });

  it("names a relative config as it was given, and a missing one clearly", async () => {
    const relative = path.relative(process.cwd(), path.join(dir, "broken.jsonnet"));
    await writeFile(relative, "{ a: }\n");
    const where = new RegExp(` --> ${relative.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:6\\n`);
    await assert.rejects(evaluateJsonnetText(relative, []), (error) => error instanceof ConfigError && where.test(error.message));
    await assert.rejects(evaluateJsonnetText(path.join(dir, "absent.jsonnet"), []), /absent\.jsonnet: file not found/);
  });
});
