// The config references under docs/reference/ are generated (`npm run docs`) from the JSON
// Schema each target prints; this test fails when a committed file differs from what the
// script writes now, so a schema change cannot leave its reference behind.

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { referenceDir, references } from "../scripts/docs.js";
import { runCodegen } from "./helpers/codegen-cli.js";
import { repoRoot } from "./helpers/user-project.js";

describe("docs/reference", async () => {
  const expected = await references();

  for (const [file, text] of expected) {
    it(`${path.relative(repoRoot, file)} is what npm run docs writes`, async () => {
      assert.equal(await readFile(file, "utf8"), text, `${path.relative(repoRoot, file)} is out of date: run npm run docs and commit the result`);
    });
  }

  it("holds no reference the script does not write", async () => {
    const files = (await readdir(referenceDir)).map((file) => path.join(referenceDir, file)).sort();
    assert.deepEqual(files, [...expected.keys()].sort());
  });

  it("is what codegen schema --markdown prints", async () => {
    const run = await runCodegen(repoRoot, ["schema", "-t", "fe", "--markdown"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, expected.get(path.join(referenceDir, "fe.md")));
  });
});
