// The benchmark's inputs: the jsonnet config (the be stdlib helpers) and the JSON config of the
// same size describe the same project, so the two scenarios measure the same work.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { benchConfig, benchJsonnet } from "../bench/configs.js";
import { evaluateConfigFile } from "../src/codegen/config.js";
import { discoverTargets } from "../src/codegen/target.js";
import { makeTempDir, removeTempDirs } from "./helpers/user-project.js";

after(removeTempDirs);

describe("bench configs", () => {
  it("the jsonnet config evaluates to the JSON config, across several apps", async () => {
    const file = path.join(await makeTempDir("codegen-bench-config-"), "resources-150.jsonnet");
    await writeFile(file, benchJsonnet(150));
    assert.deepEqual(await evaluateConfigFile(file, await discoverTargets()), benchConfig(150));
  });
});
