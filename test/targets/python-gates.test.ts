// Generated Python passes the gates its users run on their own repositories, unchanged:
// `ruff format --check` (default settings, line length 88) and `ruff check` with the E, F,
// I, UP, B and SIM rules. Checked on every golden tree and on the example's generated tree,
// each laid out as in a user's repository so isort tells first-party packages apart.

import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { runCodegen } from "../helpers/codegen-cli.js";
import { ruff } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { prepareBlogProject } from "../e2e/support/blog.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const golden = join(root, "test/golden");
const RULES = "E,F,I,UP,B,SIM";

let venv: Venv;
const cleanup: string[] = [];
before(async () => {
  venv = await ensureVenv();
});
after(() => Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true }))));

async function assertGates(projectDir: string, paths: string[]): Promise<void> {
  const format = await ruff(venv, projectDir, ["format", "--check", "--diff", ...paths]);
  assert.ok(format.ok, `ruff format would change generated files:\n${format.output}`);
  const lint = await ruff(venv, projectDir, ["check", "--select", RULES, "--output-format", "concise", ...paths]);
  assert.ok(lint.ok, `ruff check (${RULES}) failed:\n${lint.output}`);
}

/** The package of the example a golden `be` tree comes from: `library` for the lending library, else `blog`. */
function examplePackage(tree: string): string {
  return tree === "library" ? "library" : "blog";
}

/**
 * A golden `be` tree placed at `<package>/api/` of a new directory beside the example's own
 * modules (models, actions), as in the example's repository: isort tells first-party
 * modules by finding them.
 */
async function asUserProject(tree: string, pkg: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-gates-"));
  cleanup.push(dir);
  await mkdir(join(dir, pkg));
  const own = join(root, "examples", pkg, pkg);
  for (const name of await readdir(own)) if (name.endsWith(".py")) await cp(join(own, name), join(dir, pkg, name));
  await cp(tree, join(dir, pkg, "api"), { recursive: true });
  return dir;
}

/**
 * A copy of a golden `be_root` tree with the API its config describes generated into it, as
 * in a user's project: isort tells the generated modules that migrations/env.py imports
 * as first-party by finding them. The gates check the tree's own files.
 */
async function withGeneratedApi(tree: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-gates-"));
  cleanup.push(dir);
  await cp(tree, dir, { recursive: true });
  const generated = await runCodegen(dir, ["generate", "--target", "be", "--config", "config/project.jsonnet"]);
  assert.equal(generated.code, 0, generated.stderr);
  return dir;
}

describe("ruff format and ruff check on generated Python", () => {
  it("pass on every be golden tree", async () => {
    for (const name of await readdir(join(golden, "be"))) {
      const pkg = examplePackage(name);
      await assertGates(await asUserProject(join(golden, "be", name), pkg), [pkg]);
    }
  });

  it("pass on every be_root golden tree, with its generated API beside it", async () => {
    for (const name of await readdir(join(golden, "be_root"))) {
      const tree = join(golden, "be_root", name);
      const files = (await readdir(tree, { recursive: true })).filter((file) => file.endsWith(".py"));
      await assertGates(await withGeneratedApi(tree), files);
    }
  });

  it("pass on the blog example, hand-written and generated modules together", async () => {
    const projectDir = await prepareBlogProject();
    cleanup.push(projectDir);
    await assertGates(projectDir, ["blog"]);
  });
});
