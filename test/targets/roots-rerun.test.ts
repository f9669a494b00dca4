// Re-running a root target (be_root, fe_root) through the real CLI: files the user edited
// are left alone, a deleted one comes back, `--force-paths` overwrites exactly the files its
// globs match, `--force` overwrites them all; a bad config writes nothing.

import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, describe, it } from "node:test";
import { type CliRun, generateWithCli, runCodegen } from "../helpers/codegen-cli.js";
import { makeTempDir, removeTempDirs, snapshot } from "../helpers/user-project.js";

after(removeTempDirs);

interface Case {
  target: string;
  config: string;
  /** Two files a user would edit; `glob` matches the `matched` files and not the first edit. */
  edits: [string, string];
  glob: string;
  matched: string[];
}

const CASES: Case[] = [
  {
    target: "be_root",
    config: "{ name: 'shop', auth: true }",
    edits: ["shop/models.py", "config/project.jsonnet"],
    glob: "migrations/*",
    matched: ["migrations/env.py", "migrations/script.py.mako"],
  },
  {
    target: "fe_root",
    config: "{ name: 'shop-web' }",
    edits: ["src/App.tsx", "vite.config.ts"],
    glob: "*.json",
    matched: ["package.json", "tsconfig.json"],
  },
];

const EDITED = "# edited by the user\n";

/** Number of files the CLI reports as skipped. */
function skipped(run: CliRun): number {
  const match = /(\d+) skipped/.exec(run.stdout);
  assert.ok(match, run.stdout);
  return Number(match[1]);
}

/** The project's files (directories and the engine's manifest left out). */
async function files(dir: string): Promise<Record<string, string>> {
  const all = await snapshot(dir);
  return Object.fromEntries(Object.entries(all).filter(([file, text]) => text !== "<dir>" && !file.endsWith(".codegen-manifest.json")));
}

for (const spec of CASES) {
  describe(`re-running ${spec.target}`, () => {
    let dir: string;
    let out: string;
    let pristine: Record<string, string>;
    const generate = (...extra: string[]) => generateWithCli(dir, spec.target, "root.jsonnet", "out", ...extra);
    const edit = async (file: string) => writeFile(path.join(out, file), EDITED);

    it("writes every file into an empty directory", async () => {
      dir = await makeTempDir(`codegen-${spec.target}-`);
      out = path.join(dir, "out");
      await writeFile(path.join(dir, "root.jsonnet"), spec.config);
      const run = await generate();
      assert.equal(skipped(run), 0);
      pristine = await files(out);
      assert.ok(Object.keys(pristine).length >= 10, Object.keys(pristine).join(", "));
    });

    it("leaves edited files untouched and brings back a deleted one", async () => {
      for (const file of spec.edits) await edit(file);
      const deleted = Object.keys(pristine).find((file) => !spec.edits.includes(file))!;
      await rm(path.join(out, deleted));
      const run = await generate();
      assert.equal(skipped(run), Object.keys(pristine).length - 1);
      const now = await files(out);
      for (const file of spec.edits) assert.equal(now[file], EDITED, file);
      assert.equal(now[deleted], pristine[deleted]);
      assert.deepEqual({ ...now, ...Object.fromEntries(spec.edits.map((file) => [file, pristine[file]])) }, pristine);
    });

    it("--force-paths overwrites exactly the files its globs match", async () => {
      for (const file of spec.matched) await edit(file);
      const before = await files(out);
      await generate("--force-paths", spec.glob, spec.edits[1]);
      const now = await files(out);
      const forced = new Set([...spec.matched, spec.edits[1]]);
      for (const [file, text] of Object.entries(now)) {
        assert.equal(text, forced.has(file) ? pristine[file] : before[file], file);
      }
      assert.equal(now[spec.edits[0]], EDITED, "a file outside the globs stays edited");
    });

    it("--force overwrites every file", async () => {
      await edit(spec.matched[0]!);
      await generate("--force");
      assert.deepEqual(await files(out), pristine);
    });

    it("writes nothing for a bad config, naming the file and the config path", async () => {
      const bad = path.join(dir, "bad.jsonnet");
      await writeFile(bad, "{ name: 'Bad Name', colour: 'red' }");
      const target = path.join(dir, "fresh");
      await mkdir(target);
      const run = await runCodegen(dir, ["generate", "-t", spec.target, "-c", "bad.jsonnet", "-o", "fresh"]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`^Error loading config: bad\\.jsonnet: invalid configuration for target "${spec.target}"\\n`));
      assert.match(run.stderr, /^ {2}name: must be /m);
      assert.match(run.stderr, /^ {2}colour: unknown key$/m);
      assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
      assert.deepEqual(await snapshot(target), {});
    });
  });
}

describe("re-running fe", () => {
  it("rewrites openapi-ts.config.ts: it is generated, not the user's", async () => {
    const dir = await makeTempDir("codegen-fe-");
    await writeFile(path.join(dir, "fe.jsonnet"), "{ input: 'openapi.json' }");
    await generateWithCli(dir, "fe", "fe.jsonnet", ".");
    const file = path.join(dir, "openapi-ts.config.ts");
    const generated = await readFile(file, "utf8");
    await writeFile(file, EDITED);
    await generateWithCli(dir, "fe", "fe.jsonnet", ".");
    assert.equal(await readFile(file, "utf8"), generated);
  });
});
