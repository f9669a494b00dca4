// User templates through the real CLI on the blog example: an override changes the file it
// renders; an override reading an unknown variable, or printing an undefined one, fails with
// its path and line and writes nothing; removing the override restores the built-in output
// byte for byte.

import assert from "node:assert/strict";
import { cp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import { MANIFEST_FILE, discoverTargets } from "../../../src/codegen/index.js";
import { watchGeneration } from "../../../src/codegen/watch.js";
import { runCodegen } from "../../helpers/codegen-cli.js";
import { treeHashes } from "../../helpers/trees.js";
import { makeTempDir, removeTempDirs, repoRoot } from "../../helpers/user-project.js";

after(removeTempDirs);

describe("user templates (be, blog example, through the CLI)", async () => {
  const project = await makeTempDir("codegen-user-templates-");
  await cp(path.join(repoRoot, "examples/blog/config"), project, { recursive: true });
  await writeFile(path.join(project, "with-overrides.jsonnet"), "(import 'project.jsonnet') + { user_templates: { dir: 'overrides' } }\n");
  const overrides = path.join(project, "overrides");
  const getOverride = path.join(overrides, "operations/get/get.py.njk");
  const generate = (config: string, out: string) => runCodegen(project, ["generate", "-t", "be", "-c", config, "-o", out]);
  const articleRoutes = (out: string) => readFile(path.join(project, out, "content/routes/article.py"), "utf8");
  // A get reads an ORM object (articles, whose read shape has a collection) or a row of columns (comments).
  const getBody = (objects: string, columns = "    return await {{ reader.name }}(session, pk)\n") =>
    `{% if loader %}\n${objects}{% else %}\n${columns}{% endif %}\n`;

  it("an override replaces the built-in template's output", async () => {
    const baseline = await generate("project.jsonnet", "baseline");
    assert.equal(baseline.code, 0, baseline.stderr);
    await mkdir(path.dirname(getOverride), { recursive: true });
    await writeFile(getOverride, getBody("    row = await {{ loader.name }}(session, pk)\n    return {{ serializer.name }}(row)\n"));
    const run = await generate("with-overrides.jsonnet", "overridden");
    assert.equal(run.code, 0, run.stderr);
    const before = await articleRoutes("baseline");
    const after = await articleRoutes("overridden");
    assert.match(before, /return to_article_read\(await _load_article\(session, pk\)\)/);
    assert.match(after, /row = await _load_article\(session, pk\)\n {4}return to_article_read\(row\)/);
    assert.notEqual(after, before);
  });

  it("an override reading a variable its template is not given fails with path, line and column, writing nothing", async () => {
    await writeFile(getOverride, `{% if audit %}\n    log(pk)\n{% endif %}\n${getBody("    return {{ serializer.name }}(await {{ loader.name }}(session, pk))\n")}`);
    const run = await generate("with-overrides.jsonnet", "unknown");
    assert.equal(run.code, 1);
    const given = run.stderr.split(`${getOverride}:1:7: unknown variable "audit" in the override of operations/get/get.py.njk (it is given: `)[1]?.split(")")[0];
    assert.ok(given !== undefined, run.stderr);
    assert.deepEqual(given.split(", ").sort(), ["handler", "loader", "reader", "row", "serializer"]);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
    await assert.rejects(readdir(path.join(project, "unknown")), { code: "ENOENT" });
  });

  it("an override printing a value that is undefined for some resource fails with its path and line", async () => {
    await rm(getOverride);
    // `read_options` is given to every routes module, but is undefined where a resource shows no relationship.
    const routes = path.join(overrides, "modules/routes.py.njk");
    await mkdir(path.dirname(routes), { recursive: true });
    const builtIn = await readFile(path.join(repoRoot, "src/targets/be/modules/routes.py.njk"), "utf8");
    await writeFile(routes, builtIn.replace('"""{{ doc }}"""\n', '"""{{ doc }}"""\n\n# {{ read_options.name }}\n'));
    const run = await generate("with-overrides.jsonnet", "undefined");
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`${routes.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+: attempted to output null or undefined value`));
    await rm(routes);
  });

  it("removing the override restores the built-in output byte for byte", async () => {
    const run = await generate("with-overrides.jsonnet", "restored");
    assert.equal(run.code, 0, run.stderr);
    const [baseline, restored] = [await treeHashes(path.join(project, "baseline")), await treeHashes(path.join(project, "restored"))];
    assert.ok(baseline.size > 20);
    // The manifests differ only in the hash of the run's inputs: the configs differ.
    for (const tree of [baseline, restored]) tree.delete(MANIFEST_FILE);
    assert.deepEqual(restored, baseline);
  });

  it("watch mode watches the override directory and regenerates when an override changes", async () => {
    const targets = await discoverTargets();
    const errors: unknown[] = [];
    const out = path.join(project, "watched");
    const watcher = await watchGeneration(
      { target: targets.find((target) => target.name === "be")!, configFile: path.join(project, "with-overrides.jsonnet"), outDir: out, stdlibTargets: targets },
      { onRun: () => undefined, onError: (error) => errors.push(error) },
    );
    try {
      assert.ok(watcher.watched.includes(overrides), watcher.watched.join("\n"));
      await writeFile(getOverride, getBody("    return {{ serializer.name }}(await {{ loader.name }}(session, pk))  # watched\n"));
      const deadline = Date.now() + 15_000;
      while (!(await articleRoutes("watched")).includes("# watched") && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
      await watcher.idle();
      assert.match(await articleRoutes("watched"), /# watched/);
      assert.deepEqual(errors, []);
    } finally {
      watcher.close();
      await rm(getOverride);
    }
  });

  it("a directory that does not exist is a config error at user_templates.dir", async () => {
    await writeFile(path.join(project, "missing.jsonnet"), "(import 'project.jsonnet') + { user_templates: { dir: 'nowhere' } }\n");
    const run = await generate("missing.jsonnet", "missing");
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Error loading config: missing\.jsonnet: invalid configuration\n {2}user_templates\.dir: no directory .*nowhere/);
  });
});
