// The built package (dist/, bundled by scripts/bundle.mjs) as users run it: the `codegen`
// command loads a few bundled modules instead of one per source file, writes what the sources
// write (with its templates compiled ahead of time), and a third-party plugin that imports
// `codegen-kit` gets the classes the command itself runs with.
import assert from "node:assert/strict";
import { readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { CODE_HASH_FILE, codeTreeHash, computeCodeTreeHash } from "../src/codegen/input-hash.js";
import { MANIFEST_FILE } from "../src/codegen/manifest.js";
import { sha256 } from "../src/codegen/prune.js";
import { type CliRun, builtCli, runCodegen, runNode } from "./helpers/codegen-cli.js";
import { createUserProject, installPackage, makeTempDir, removeTempDirs, repoRoot, snapshot } from "./helpers/user-project.js";

const BLOG = path.join(repoRoot, "examples", "blog", "config", "project.jsonnet");

/** Runs the built CLI (no TypeScript loader, no source condition) and fails unless it exits 0. */
async function runBuilt(cwd: string, args: string[], nodeArgs: string[] = []): Promise<CliRun> {
  return succeeded(args, await runNode(cwd, [...nodeArgs, await builtCli(), ...args]));
}

/** `run`, unless it exited other than 0: then an error with its output. */
function succeeded(args: string[], run: CliRun): CliRun {
  if (run.code !== 0) throw new Error(`codegen ${args.join(" ")} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}

after(removeTempDirs);

describe("the built package", () => {
  it("generates from a jsonnet config what the sources generate", async () => {
    const dir = await makeTempDir("codegen-bundle-");
    await runBuilt(dir, ["generate", "-t", "be", "-c", BLOG, "-o", "built"]);
    // The same config through the CLI run from its TypeScript sources: the bundle writes what they write.
    const fromSources = ["generate", "-t", "be", "-c", BLOG, "-o", "source"];
    succeeded(fromSources, await runCodegen(dir, fromSources, path.join(repoRoot, "src", "cli.ts")));
    // The manifests differ only in the run's record: the code that generated (dist/ or src/) differs.
    const withoutRuns = (tree: Record<string, string>) => ({ ...tree, [MANIFEST_FILE]: JSON.stringify({ ...JSON.parse(tree[MANIFEST_FILE]!), runs: undefined }) });
    const built = withoutRuns(await snapshot(path.join(dir, "built")));
    assert.ok(Object.keys(built).length > 30);
    assert.deepEqual(built, withoutRuns(await snapshot(path.join(dir, "source"))));
  });

  it("loads its code as a few bundled modules, zod, nunjucks and commander among them", async () => {
    const dir = await makeTempDir("codegen-bundle-");
    // Every module the ESM loader loads, reported by a loader hook.
    const hook = path.join(dir, "count-modules.mjs");
    await writeFile(
      hook,
      [
        'import { register } from "node:module";',
        'import { writeFileSync } from "node:fs";',
        'import { MessageChannel } from "node:worker_threads";',
        "const loaded = [];",
        "const { port1, port2 } = new MessageChannel();",
        "port1.on('message', (url) => loaded.push(url));",
        "port1.unref();",
        "const hooks = 'let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }';",
        "register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });",
        `process.on("exit", () => writeFileSync(${JSON.stringify(path.join(dir, "loaded.json"))}, JSON.stringify(loaded)));`,
      ].join("\n"),
    );
    await runBuilt(dir, ["generate", "-t", "be", "-c", BLOG, "-o", "out"], ["--import", hook]);
    const loaded: string[] = JSON.parse(await readFile(path.join(dir, "loaded.json"), "utf8"));
    const own = loaded.filter((url) => url.includes("/dist/"));
    const installed = loaded.filter((url) => /\/node_modules\/(zod|nunjucks|commander)\//.test(url));
    // Unbundled, the same run loaded 178 modules of dist/ and 95 of zod; nunjucks and commander
    // came through Node's CommonJS loader, 29 files.
    assert.ok(own.length > 0 && own.length <= 40, `${own.length} modules of dist/ loaded:\n${own.join("\n")}`);
    assert.deepEqual(installed, [], "zod, nunjucks and commander are bundled");
    // What V8 parses before the run does anything: 1.74 MB with zod's messages in 64 languages,
    // 1.53 MB now without them. The bound leaves room for features, not for another locale set.
    let bytes = 0;
    for (const url of own) bytes += (await stat(fileURLToPath(url))).size;
    assert.ok(bytes <= 1_600_000, `${bytes} bytes of dist/ loaded`);
  });

  it("ships every built-in target's templates compiled, each entry for the text it was compiled from", async () => {
    const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
    for (const specifier of Object.values(manifest.codegen["codegen.targets"]) as string[]) {
      const [module, exportName] = specifier.split("#") as [string, string];
      const target = (await import(pathToFileURL(path.join(repoRoot, module)).href))[exportName] as { templateDir: string };
      const table = JSON.parse(await readFile(`${path.resolve(target.templateDir)}.compiled.json`, "utf8")) as { templates: Record<string, { sha256: string }> };
      const templates = (await readdir(target.templateDir, { recursive: true })).filter((name) => name.endsWith(".njk")).sort();
      assert.deepEqual(Object.keys(table.templates), templates, specifier);
      for (const name of templates) {
        const text = await readFile(path.join(target.templateDir, name), "utf8");
        assert.equal(table.templates[name]!.sha256, sha256(text), name);
      }
    }
  });

  it("records the hash of its code as built, which runs read instead of hashing dist/", async () => {
    const dist = path.join(repoRoot, "dist");
    const recorded = (await readFile(path.join(dist, CODE_HASH_FILE), "utf8")).trim();
    assert.match(recorded, /^[0-9a-f]{64}$/);
    assert.equal(recorded, computeCodeTreeHash(dist));
    assert.equal(codeTreeHash(dist), recorded);
  });

  it("gives a third-party plugin the classes the command runs with", async () => {
    // An operation of the `be` group from another package, written as plain JavaScript: it
    // counts the route handlers of the build with `codegen-kit/be`'s RouteHandler and writes
    // the count into a file's name with `codegen-kit`'s StaticFile. A second copy of either class would count 0
    // or fail the build.
    const project = await createUserProject({ fixture: false });
    await installPackage(project, "route-count", { codegen: { "be.operations": { route_count: "./op.js#RouteCount" } } }, {
      "op.js": [
        'import { StaticFile, operation } from "codegen-kit";',
        'import { RouteHandler } from "codegen-kit/be";',
        "export class RouteCount {",
        "  build(ctx) {",
        "    const count = ctx.store.outputsUnder(ctx.instanceId, RouteHandler).length;",
        '    return [new StaticFile({ path: `route-count-${count}.txt`, template: "", banner: false })];',
        "  }",
        "}",
        'operation("route_count", { scope: "project", afterChildren: true })(RouteCount, { kind: "class" });',
      ].join("\n"),
    });
    await runBuilt(project, ["generate", "-t", "be", "-c", BLOG, "-o", "out"]);
    const written = (await readdir(path.join(project, "out"))).find((name) => name.startsWith("route-count-"));
    const count = Number(/^route-count-(\d+)\.txt$/.exec(written ?? "")?.[1]);
    assert.ok(count > 5, `the plugin counted ${count} route handlers`);
  });
});
