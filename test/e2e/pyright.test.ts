/**
 * pyright over the projects the end-to-end tests serve, generated from their configs: the
 * blog example with its default, auth (both flows), authz, comms, hooks and OPA configs, the
 * lending library, and the list test project. Each project is checked as its own root (its imports
 * resolve in it only), all in one pyright run: analysing the venv's libraries is most of a
 * run's time, and one run does it once. The tests that serve these projects check them with
 * ruff; projects other tests build otherwise (the plugin endpoint's, sessions', the
 * bootstrapped ones) are type-checked there.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, describe, it } from "node:test";
import { pyrightProjects } from "../support/python.js";
import { ensureVenv } from "../support/venv.js";
import { CATALOG_DIR, prepareBlogProject, prepareLibraryProject, prepareProject } from "./support/blog.js";
import { prepareHooksProject, prepareOpaProject } from "./support/projects.js";

/** Each project: how to prepare it, and its package (what is checked). */
const PROJECTS: readonly { name: string; prepare: () => Promise<string>; pkg: string }[] = [
  { name: "the blog", prepare: () => prepareBlogProject(), pkg: "blog" },
  { name: "the blog with JWT auth", prepare: () => prepareBlogProject("config/auth.jsonnet"), pkg: "blog" },
  { name: "the blog with get_current_user_fn", prepare: () => prepareBlogProject("config/auth_custom.jsonnet"), pkg: "blog" },
  { name: "the blog with authorization rules", prepare: () => prepareBlogProject("config/authz.jsonnet"), pkg: "blog" },
  { name: "the blog with comms", prepare: () => prepareBlogProject("config/comms.jsonnet"), pkg: "blog" },
  { name: "the blog with hooks", prepare: prepareHooksProject, pkg: "blog" },
  { name: "the blog with OPA", prepare: () => prepareOpaProject(), pkg: "blog" },
  { name: "the lending library", prepare: prepareLibraryProject, pkg: "library" },
  { name: "the list test project", prepare: () => prepareProject(CATALOG_DIR, "catalog.jsonnet", "catalog"), pkg: "catalog" },
];

const dirs: string[] = [];

after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("pyright over the projects the end-to-end tests serve", () => {
  it(`passes on each of ${PROJECTS.length} generated projects, in one run`, async (t) => {
    const venv = await ensureVenv();
    for (const project of PROJECTS) dirs.push(await project.prepare());
    const result = await pyrightProjects(
      venv,
      PROJECTS.map((project, index) => ({ root: dirs[index]!, paths: [project.pkg] })),
    );
    assert.ok(result.ok, `pyright failed on ${PROJECTS.map((project, index) => `${project.name} (${dirs[index]})`).join(", ")}:\n${result.output}`);
    t.diagnostic(result.output.trim().split("\n").at(-1)!);
  });
});
