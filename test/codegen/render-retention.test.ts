// What the render phase hands on must not keep the build store alive: the CLI collects garbage
// as formatting starts (cli-v8-flags.ts), and a store still reachable then stays in memory to
// the end of the run (at 1,000 resources, peak RSS 260 -> 316 MB when it once did).
import assert from "node:assert/strict";
import { setImmediate as nextTurn } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, it } from "node:test";

import { benchConfig } from "../../bench/configs.js";
import { renderWith } from "../../src/codegen/build-output.js";
import { BuildMemory } from "../../src/codegen/incremental.js";
import { Engine, discoverScopes, discoverTargets, loadImportFormatters, loadRegistry, packagePrefixOf } from "../../src/codegen/index.js";
import { createTemplateEnv } from "../../src/codegen/templating.js";
import { ProjectConfig } from "../../src/targets/be/config/schema.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Renders a fresh store of three be resources; returns what the render phase returned and a weak reference to the store. */
async function rendered(memory?: BuildMemory): Promise<{ output: ReturnType<typeof renderWith>; store: WeakRef<object> }> {
  const target = (await discoverTargets()).find((candidate) => candidate.name === "be")!;
  const config = ProjectConfig.parse(benchConfig(3));
  await loadImportFormatters();
  const registry = await loadRegistry(target.operationsEntryPoint);
  const store = new Engine(registry, { packagePrefix: packagePrefixOf(target, config), scopes: discoverScopes(target.schema) }).build(config);
  const output = renderWith(target, config, store, createTemplateEnv(target.templateDir), undefined, { memory });
  return { output, store: new WeakRef(store) };
}

/** True once `ref`'s object has been collected: weak references hold until the current job ends, so this waits a turn first. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  await nextTurn();
  collectGarbage();
  return ref.deref() === undefined;
}

describe("the render phase's result", () => {
  it("does not keep the build store alive (a fresh run)", async () => {
    const { output, store } = await rendered();
    assert.ok(output.files.length > 0);
    assert.ok(await collected(store), "the store is still reachable from the files or the origin lookup");
    assert.deepEqual(output.originsOf("no/such/file.py"), [], "the lookup still answers");
  });

  it("does not keep the build store alive (a watch run, whose memory keeps the fragments)", async () => {
    const { output, store } = await rendered(new BuildMemory());
    assert.ok(await collected(store), "the store is still reachable from the files or the origin lookup");
    assert.ok(output.files.length > 0);
  });
});
