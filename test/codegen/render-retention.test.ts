// What the render phase hands on must not keep the build store alive: the CLI collects garbage
// as formatting starts (cli-v8-flags.ts), and a store still reachable then stays in memory to
// the end of the run (at 1,000 resources, peak RSS 260 -> 316 MB when it once did).
import assert from "node:assert/strict";
import { setImmediate as nextTurn } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { after, describe, it } from "node:test";

import { renderWith } from "../../src/codegen/build-output.js";
import { Engine, discoverScopes, loadImportFormatters, loadRegistry, packagePrefixOf } from "../../src/codegen/index.js";
import { createTemplateEnv } from "../../src/codegen/templating.js";
import { installToyTarget } from "../helpers/toy-target.js";
import { removeTempDirs } from "../helpers/user-project.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

after(removeTempDirs);

/** Renders a fresh store of the toy target's three pages; returns what the render phase returned and a weak reference to the store. */
async function rendered(): Promise<{ output: ReturnType<typeof renderWith>; store: WeakRef<object> }> {
  const { project, toy: target } = await installToyTarget();
  const config = target.schema.parse({ pages: [{ name: "home" }, { name: "about" }, { name: "contact" }] });
  await loadImportFormatters();
  const registry = await loadRegistry(target.operationsEntryPoint, { cwd: project });
  const store = new Engine(registry, { packagePrefix: packagePrefixOf(target, config), scopes: discoverScopes(target.schema) }).build(config);
  const output = renderWith(target, config, store, createTemplateEnv(target.templateDir), undefined);
  return { output, store: new WeakRef(store) };
}

/** True once `ref`'s object has been collected: weak references hold until the current job ends, so this waits a turn first. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  await nextTurn();
  collectGarbage();
  return ref.deref() === undefined;
}

describe("the render phase's result", () => {
  it("does not keep the build store alive", async () => {
    const { output, store } = await rendered();
    assert.ok(output.files.length > 0);
    assert.ok(await collected(store), "the store is still reachable from the files or the origin lookup");
    assert.deepEqual(output.originsOf("no/such/file.py"), [], "the lookup still answers");
  });
});
