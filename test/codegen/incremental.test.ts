// Soundness of what watch mode reuses between runs (GenerationCache): after every edit of a
// sequence covering each kind of change a user makes, the tree a warm process wrote must be
// byte-identical to a fresh, uncached run of the same config into an empty directory.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { benchConfig, benchResource } from "../../bench/configs.js";
import { generate } from "../../src/codegen/generate.js";
import { GenerationCache } from "../../src/codegen/generation-cache.js";
import { discoverTargets, type Target } from "../../src/codegen/target.js";
import { treeHashes } from "../helpers/trees.js";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";

type Json = any;

let work: string;
let be: Target;

before(async () => {
  work = await makeTempDir("codegen-incremental-");
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});

after(removeTempDirs);

const RESOURCES = 6;
const overrideDir = "overrides";
const getOverride = path.join(overrideDir, "operations/get/get.py.njk");

describe("a warm process's reruns (GenerationCache)", () => {
  it("write, after every kind of edit, exactly the tree a fresh run writes", async () => {
    const config: Json = benchConfig(RESOURCES);
    const resources = (): Json[] => config.apps[0].config.resources;
    const fieldsOf = (index: number): Json[] => resources()[index].fields;
    const listOf = (index: number): Json => resources()[index].operations.find((entry: Json) => entry.name === "list");
    const pageSize = (index: number): Json => listOf(index).modifiers.find((modifier: Json) => modifier.type === "paginate");
    const writeOverride = (text: string) => writeFile(path.join(work, getOverride), text);

    // Each edit changes the config object or a template, and says what it did.
    const edits: [string, () => void | Promise<void>][] = [
      ["one resource's scalar option", () => void (pageSize(2).default_page_size = 33)],
      ["a field added", () => void fieldsOf(3).splice(2, 0, { name: "nickname", type: "str", nullable: true })],
      ["a field renamed", () => void (fieldsOf(3)[2].name = "alias")],
      ["a field's type changed", () => void (fieldsOf(3)[2].type = "int")],
      ["a field removed", () => void fieldsOf(3).splice(2, 1)],
      ["a nested field now reads another resource", () => void (fieldsOf(1).find((field: Json) => field.name === "owner").model = resources()[4].model)],
      ["a nested field's loading changed", () => void (fieldsOf(1).find((field: Json) => field.name === "owner").load = "subquery")],
      ["a resource added", () => void resources().push(benchResource(RESOURCES, RESOURCES + 1))],
      ["an operation removed", () => void (resources()[0].operations = resources()[0].operations.filter((entry: Json) => entry !== "delete"))],
      ["a resource removed", () => void resources().pop()],
      ["an app-level option", () => void (config.apps[0].config.generate_tests = true)],
      ["a project-level option", () => void (config.max_body_size = 4096)],
      ["a second project-level option", () => void (config.require_auth = false)],
      [
        "a user template added",
        async () => {
          await mkdir(path.dirname(path.join(work, getOverride)), { recursive: true });
          await writeOverride("    row = await {{ loader.name }}(session, pk)\n    return {{ serializer.name }}(row)\n");
          config.user_templates = { dir: overrideDir };
        },
      ],
      ["a user template edited", () => writeOverride("    found = await {{ loader.name }}(session, pk)\n    return {{ serializer.name }}(found)\n")],
      ["the user templates dropped", () => void delete config.user_templates],
      ["back to a resource's scalar option", () => void (pageSize(2).default_page_size = 20)],
    ];

    const configFile = path.join(work, "project.json");
    const warmOut = path.join(work, "warm");
    const cache = new GenerationCache();
    const run = (outDir: string, withCache?: GenerationCache) =>
      generate({ target: be, configFile, outDir, cache: withCache, cwd: work });

    await writeFile(configFile, JSON.stringify(config));
    await run(warmOut, cache);
    let fresh = 0;
    for (const [what, edit] of edits) {
      await edit();
      await writeFile(configFile, JSON.stringify(config));
      // What watch mode does on a change under a template directory.
      if (what.includes("template")) cache.templatesChanged();
      const warm = await run(warmOut, cache);
      const freshOut = path.join(work, `fresh-${fresh++}`);
      await run(freshOut);
      const [warmTree, freshTree] = [await treeHashes(warmOut), await treeHashes(freshOut)];
      assert.deepEqual([...warmTree].sort(), [...freshTree].sort(), `after "${what}", the warm tree differs from a fresh run's`);
      assert.ok(warm.written > 0, `"${what}" changed some file`);
    }
  });
});
