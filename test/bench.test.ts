// The benchmark's inputs: the jsonnet config (the be stdlib helpers), the JSON config of the
// same size and its translation for kiln describe the same project, so they measure the same work.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";

import { benchConfig, benchJsonnet } from "../bench/configs.js";
import { kilnConfig } from "../bench/kiln-config.js";
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

  it("the kiln config has the same apps, resources, operations and fields", () => {
    type Entry = Record<string, unknown>;
    const names = (fields: unknown): unknown => (fields as Entry[]).map((field) => (field.type === "nested" ? [field.name, field.model, names(field.fields)] : field.name));
    const apps = (config: Entry) => (config.apps as { config: { module: string; resources: Entry[] } }[]).map((app) => app.config);
    const ours = apps(benchConfig(150));
    const kilns = apps(kilnConfig(150));
    assert.deepEqual(kilns.map((app) => app.module), ours.map((app) => app.module));
    ours.forEach((app, appIndex) =>
      app.resources.forEach((resource, index) => {
        const kiln = kilns[appIndex]!.resources[index]!;
        assert.equal(kiln.model, resource.model);
        const operations = resource.operations as (string | Entry)[];
        const kilnOperations = kiln.operations as Entry[];
        assert.deepEqual(kilnOperations.map((operation) => operation.name), operations.map((operation) => (typeof operation === "string" ? operation : operation.name)));
        kilnOperations.forEach((operation, opIndex) => {
          const ourOperation = operations[opIndex]!;
          const readShape = operation.name === "get" || operation.name === "list";
          if (readShape) assert.deepEqual(names(operation.fields), names(resource.fields));
          else if (typeof ourOperation !== "string" && ourOperation.fields) assert.deepEqual(names(operation.fields), names(ourOperation.fields));
          if (typeof ourOperation !== "string" && ourOperation.modifiers) {
            assert.deepEqual((operation.modifiers as Entry[]).map((modifier) => modifier.type), (ourOperation.modifiers as Entry[]).map((modifier) => modifier.type));
          }
        });
      }),
    );
  });
});
