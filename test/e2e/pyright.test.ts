/**
 * pyright over the projects the tests serve or run, generated from their configs: the blog
 * example with its default, auth (both flows), authz, comms, hooks, OPA and sessions configs,
 * with an endpoint operation from a package, and the generated tests of its authz config; the
 * lending library; the list test project; the project of colliding names
 * (test/targets/be/names.test.ts); and the be target's runtime helpers. Each project is
 * checked as its own root (its imports resolve in it only), all in one pyright run: analysing
 * the venv's libraries is most of a run's time, and one run does it once. The tests that serve
 * or run these projects check them with ruff; the bootstrapped project (its migration written
 * by Alembic on the way) is type-checked in test/e2e/bootstrap.test.ts.
 */
import assert from "node:assert/strict";
import { cp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";
import { pyrightProjects } from "../support/python.js";
import { ensureVenv } from "../support/venv.js";
import { CATALOG_DIR, prepareBlogProject, prepareLibraryProject, prepareProject } from "./support/blog.js";
import {
  AUTHZ_TESTS_CONFIG,
  TESTS_DIR,
  prepareHooksProject,
  prepareHostileNamesProject,
  prepareOpaProject,
  preparePluginEndpointProject,
} from "./support/projects.js";

const RUNTIME_DIR = resolve(fileURLToPath(import.meta.url), "../../../src/targets/be/runtime");

/** Each project: how to prepare it (a temporary directory), and what in it is checked. */
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
  { name: "the blog with sessions", prepare: () => prepareBlogProject("config/sessions.jsonnet"), pkg: "blog" },
  { name: "the blog with an endpoint operation from a package", prepare: preparePluginEndpointProject, pkg: "blog" },
  { name: "the generated tests of the blog with authorization rules", prepare: () => prepareBlogProject("config/override.jsonnet", AUTHZ_TESTS_CONFIG), pkg: TESTS_DIR },
  { name: "the project of colliding names", prepare: async () => prepareHostileNamesProject(await makeTempDir("codegen-pyright-")), pkg: "shop" },
  {
    name: "the be target's runtime helpers",
    prepare: async () => {
      const dir = await makeTempDir("codegen-pyright-");
      await cp(RUNTIME_DIR, join(dir, "runtime"), { recursive: true, filter: (path) => !path.endsWith("__pycache__") });
      return dir;
    },
    pkg: "runtime",
  },
];

const dirs: string[] = [];

after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  await removeTempDirs();
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
    t.diagnostic(/^\d+ errors?, .*$/m.exec(result.output)?.[0] ?? result.output);
  });
});
