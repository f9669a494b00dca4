// Watch mode's memory of the output directory: a file is trusted to hold what was written only
// while its identity on disk (inode, size, mtime, ctime) is unchanged and was not racy; a user's
// edit that keeps the size and even the mtime is still seen (ctime), and rewritten.
import assert from "node:assert/strict";
import { readFile, readdir, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { benchConfig } from "../../bench/configs.js";
import { type GenerateResult, countActions, generate } from "../../src/codegen/generate.js";
import { GenerationCache } from "../../src/codegen/generation-cache.js";
import { discoverTargets, type Target } from "../../src/codegen/target.js";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";

let work: string;
let be: Target;
before(async () => {
  work = await makeTempDir("codegen-output-memory-");
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(removeTempDirs);

/** Sets every file's atime and mtime `seconds` into the past (which changes their ctime). */
async function age(dir: string, seconds: number): Promise<void> {
  const then = new Date(Date.now() - seconds * 1000);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(path.join(entry.parentPath, entry.name), then, then);
  }
}

/** A config of two resources, a warm process's options to generate it into `work/<name>`, and resource 1's schemas module there. */
async function warmSetup(name: string) {
  const config = path.join(work, "config.json");
  await writeFile(config, JSON.stringify(benchConfig(2)));
  const out = path.join(work, name);
  const cache = new GenerationCache();
  const options = { target: be, configFile: config, outDir: out, cache };
  return { options, cache, out, memory: cache.outputMemory(out), schema: path.join(out, "app00", "schemas", "model0001.py") };
}

/** The paths a run overwrote. */
function overwrites(result: GenerateResult): string[] {
  return result.plan.filter((entry) => entry.action === "overwrite").map((entry) => entry.path);
}

describe("OutputMemory through generate", () => {
  it("trusts an untouched file without reading it, and sees an edit that keeps size and mtime", async () => {
    const { options, memory, schema, out } = await warmSetup("out");

    await generate(options);
    const content = await readFile(schema, "utf8");
    assert.equal(memory.holds(schema, content), false, "a file written just now is racy: not trusted");
    await age(out, 5);
    assert.equal(countActions((await generate(options)).plan).overwrite, 0);
    assert.equal(memory.holds(schema, content), true, "read once, unchanged and old: trusted");
    assert.equal(memory.holds(schema, `${content} `), false, "only for the content it holds");

    // The user edits the file in place: same size, mtime put back as it was.
    const edited = content.replace("from", "FROM");
    assert.equal(edited.length, content.length);
    const { mtime } = await stat(schema);
    await writeFile(schema, edited);
    await utimes(schema, mtime, mtime);
    assert.equal(memory.holds(schema, content), false, "the change time gives the edit away");
    assert.deepEqual(overwrites(await generate(options)), ["app00/schemas/model0001.py"]);
    assert.equal(await readFile(schema, "utf8"), content);
  });

  it("trusts a file again once a run has read it back after someone rewrote the same text", async () => {
    const { options, memory, schema, out } = await warmSetup("rewritten");

    await generate(options);
    await age(out, 5);
    await generate(options);
    const content = await readFile(schema, "utf8");
    assert.equal(memory.holds(schema, content), true);

    // Another process (a plain `codegen generate`, a checkout) writes the very same text again.
    await writeFile(schema, content);
    await age(out, 5);
    assert.equal(memory.holds(schema, content), false, "a new identity: read again");
    assert.equal(countActions((await generate(options)).plan).overwrite, 0);
    assert.equal(memory.holds(schema, content), true, "read back unchanged and old: trusted under its new identity");
  });

  it("plans once with identities read ahead (a watch reads them while a change settles), then reads the disk again", async () => {
    const { options, cache, schema, out } = await warmSetup("ahead");
    const overwritten = async () => overwrites(await generate(options));

    await generate(options);
    await age(out, 5);
    await generate(options);
    const content = await readFile(schema, "utf8");

    // Read ahead, then the user edits the file by hand: that planning goes by what was read ahead.
    cache.readOutputsAhead();
    await writeFile(schema, `${content}# edited\n`);
    assert.deepEqual(await overwritten(), [], "planned with the identities read ahead");
    assert.deepEqual(await overwritten(), ["app00/schemas/model0001.py"], "read once only: the next run sees the edit");
    assert.equal(await readFile(schema, "utf8"), content);
  });

  it("does not plan with identities read ahead once another codegen run wrote to the directory", async () => {
    const { options, cache, out } = await warmSetup("ahead-other-run");
    const other = path.join(work, "other.json");
    const project = benchConfig(2) as { apps: { config: { resources: { fields: { name: string }[] }[] } }[] };
    project.apps[0]!.config.resources[1]!.fields[2]!.name = "contact";
    await writeFile(other, JSON.stringify(project));

    await generate(options);
    await age(out, 5);
    await generate(options);
    cache.readOutputsAhead();
    // A plain `codegen generate` of another config rewrites resource 1's files, and the manifest.
    const rewritten = overwrites(await generate({ target: be, configFile: other, outDir: out }));
    assert.ok(rewritten.includes("app00/schemas/model0001.py"));
    assert.deepEqual(overwrites(await generate(options)), rewritten, "every file the other run rewrote is seen and written back");
  });
});
