// The files a jsonnet evaluation reads, found by lexing: every import form, none inside
// comments, strings or text blocks; resolved beside the importer first, then the library paths.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { jsonnetImports, jsonnetInputs } from "../../src/codegen/jsonnet-imports.js";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";
import { jsonnetValue } from "../support/jsonnet.js";

let work: string;
before(async () => {
  work = await makeTempDir("codegen-jsonnet-imports-");
});
after(removeTempDirs);

describe("jsonnetImports", () => {
  it("finds every import form, and none in comments, strings or text blocks", () => {
    const source = [
      "local a = import 'a.libsonnet';",
      'local b = importstr "b\\u0031.txt"; // import "not-this.libsonnet"',
      "/* import 'nor-this.libsonnet' */ local c = importbin @'c''s.bin';",
      "# import 'neither.libsonnet'",
      "local s = 'a # not a comment'; local d = import \"d.libsonnet\";",
      "local t = |||",
      "  import 'in-a-text-block.libsonnet'",
      "|||;",
      "{ url: 'http://example.com', e: import 'e.json', importer: 'import' }",
    ].join("\n");
    assert.deepEqual(jsonnetImports(source), [
      { kind: "import", target: "a.libsonnet" },
      { kind: "importstr", target: "b1.txt" },
      { kind: "importbin", target: "c's.bin" },
      { kind: "import", target: "d.libsonnet" },
      { kind: "import", target: "e.json" },
    ]);
  });
});

describe("jsonnetInputs", () => {
  it("lists exactly the files libjsonnet reads, transitively, and where a missing import would go", async () => {
    const project = path.join(work, "project");
    const lib = path.join(work, "lib");
    await mkdir(path.join(project, "parts"), { recursive: true });
    await mkdir(path.join(lib, "shared"), { recursive: true });
    await writeFile(path.join(project, "config.jsonnet"), "local p = import 'parts/one.libsonnet'; local s = import 'shared/util.libsonnet'; p + s");
    await writeFile(path.join(project, "parts", "one.libsonnet"), "{ one: import 'two.json', text: importstr 'note.txt' }");
    await writeFile(path.join(project, "parts", "two.json"), '{"two": 2}');
    await writeFile(path.join(project, "parts", "note.txt"), "import 'not-jsonnet.libsonnet'");
    await writeFile(path.join(lib, "shared", "util.libsonnet"), "{ util: true }");
    const config = path.join(project, "config.jsonnet");

    const inputs = jsonnetInputs(config, [lib]);
    assert.deepEqual([...inputs.files.keys()].sort(), [
      config,
      path.join(lib, "shared", "util.libsonnet"),
      path.join(project, "parts", "note.txt"),
      path.join(project, "parts", "one.libsonnet"),
      path.join(project, "parts", "two.json"),
    ].sort());
    assert.deepEqual(inputs.missing, []);
    // The lexer's answer is what the evaluator needs: the config evaluates with exactly these files.
    const evaluated = await jsonnetValue(config, [lib]);
    assert.deepEqual(evaluated, { one: { two: 2 }, text: "import 'not-jsonnet.libsonnet'", util: true });

    await writeFile(path.join(project, "parts", "one.libsonnet"), "{ one: import 'gone/three.libsonnet' }");
    assert.deepEqual(jsonnetInputs(config, [lib]).missing, [path.join(project, "parts", "gone", "three.libsonnet")]);
  });
});
