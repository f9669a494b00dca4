/**
 * End-to-end: the pytest suites codegen generates (`generate_tests: true`) run against a
 * real PostgreSQL and pass, and they fail when the generated API is broken.
 *
 * The blog example's config turns generate_tests on, so `prepareBlogProject()` writes
 * blog/api/content/tests/. pytest runs from the venv, in the prepared project, with
 * TEST_DATABASE_URL pointing at an embedded PostgreSQL; with each auth flow of the
 * example too. Two sabotaged copies show the suites can fail: one generated from a
 * template whose update handler forgets to commit, one whose generated create route
 * answers 200 instead of 201.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { discoverTargets, generate } from "../../src/codegen/index.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { PYTEST_ARGS, PYTEST_ENV, ruff, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { EXAMPLE_DIR, copyExample, generateBlogApi, prepareBlogProject } from "./support/blog.js";
import { AUTHZ_TESTS_CONFIG, TESTS_DIR } from "./support/projects.js";

const RESOURCES = ["author", "article", "tag", "comment", "category"];

let venv: Venv;
let postgres: Postgres | undefined;
const cleanup: string[] = [];

before(async () => {
  venv = await ensureVenv();
  postgres = await startPostgres();
});

after(async () => {
  await postgres?.stop();
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

/** One test case of a pytest run, from its JUnit XML report. */
interface PytestCase {
  /** The test module's name, e.g. `test_article`. */
  module: string;
  name: string;
  seconds: number;
  failed: boolean;
}

interface PytestRun {
  exitCode: number;
  output: string;
  cases: PytestCase[];
}

let databases = 0;

/**
 * A new empty database on the file's cluster, as a SQLAlchemy async URL: each pytest run has
 * its own, so the cases run side by side and no run finds another's tables.
 */
async function freshDatabase(): Promise<string> {
  const name = `generated_tests_${++databases}`;
  await postgres!.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgres!.asyncUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Runs pytest (default import mode) on the generated tests of `projectDir`, against a database of its own. */
async function runGeneratedTests(projectDir: string, testsDirs: readonly string[] = [TESTS_DIR]): Promise<PytestRun> {
  const report = join(projectDir, "pytest-report.xml");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...PYTEST_ENV,
    TEST_DATABASE_URL: await freshDatabase(),
    PYTHONDONTWRITEBYTECODE: "1",
  };
  delete env.JWT_SECRET;
  const args = [...PYTEST_ARGS, ...testsDirs, "-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function", `--junitxml=${report}`, "-q"];
  const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((done) => {
    execFile(venv.python, args, { cwd: projectDir, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ exitCode: code, output: stdout + stderr });
    });
  });
  const xml = await readFile(report, "utf8").catch(() => "");
  return { exitCode, output, cases: parseJunit(xml) };
}

function parseJunit(xml: string): PytestCase[] {
  const cases: PytestCase[] = [];
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attributes = match[1]!;
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1] ?? "";
    cases.push({
      module: attribute("classname").split(".").pop()!,
      name: attribute("name"),
      seconds: Number(attribute("time")),
      failed: /<(failure|error)\b/.test(match[3] ?? ""),
    });
  }
  return cases;
}

/** A copy of the blog example without its generated package, removed after the suite. */
async function copyBlog(): Promise<string> {
  const dir = await copyExample(EXAMPLE_DIR, "blog-tests");
  cleanup.push(dir);
  return dir;
}

function failedNames(run: PytestRun): string[] {
  return run.cases.filter((test) => test.failed).map((test) => test.name).sort();
}

// Two cases at a time: a pytest run keeps one core busy, and each case has its project
// directory and its database of its own.
describe("generated tests of the blog example", { concurrency: 2 }, () => {
  it("pass against PostgreSQL, every resource covered, and are lint-clean", async (t) => {
    const projectDir = await prepareBlogProject();
    cleanup.push(projectDir);
    const started = Date.now();
    const run = await runGeneratedTests(projectDir);
    const wall = Date.now() - started;
    assert.equal(run.exitCode, 0, `pytest failed:\n${run.output}`);
    assert.ok(run.cases.length > 0, `no test ran:\n${run.output}`);
    assert.deepEqual(failedNames(run), []);

    const lines: string[] = [];
    for (const resource of RESOURCES) {
      const cases = run.cases.filter((test) => test.module === `test_${resource}`);
      assert.ok(cases.length >= 9, `test_${resource}.py ran ${cases.length} tests`);
      const seconds = cases.reduce((sum, test) => sum + test.seconds, 0);
      lines.push(`test_${resource}.py: ${cases.length} tests, ${seconds.toFixed(2)} s`);
    }
    const total = run.cases.reduce((sum, test) => sum + test.seconds, 0);
    lines.push(`all: ${run.cases.length} tests, ${total.toFixed(2)} s in tests, ${(wall / 1000).toFixed(1)} s for the pytest process`);
    t.diagnostic(lines.join("; "));

    const ruff = await ruffCheck(venv, projectDir, [TESTS_DIR]);
    assert.ok(ruff.ok, `ruff check failed on the generated tests:\n${ruff.output}`);
  });

  for (const [config, flow] of [["auth.jsonnet", "the JWT flow"], ["auth_custom.jsonnet", "get_current_user_fn"]] as const) {
    it(`pass with ${flow}, and check 401 without credentials`, async (t) => {
      const projectDir = await copyBlog();
      const configFile = join(projectDir, "config", "generated-tests.jsonnet");
      await writeFile(configFile, `(import '${config}') + { generate_tests: true }\n`);
      await generateBlogApi(configFile, join(projectDir, "blog/api"));
      const run = await runGeneratedTests(projectDir);
      assert.equal(run.exitCode, 0, `pytest failed:\n${run.output}`);
      const unauthorized = run.cases.filter((test) => test.name.endsWith("_requires_a_user"));
      assert.ok(unauthorized.length > 0, "no 401 test ran");
      t.diagnostic(`${run.cases.length} tests, ${unauthorized.length} of them 401 tests`);
    });
  }

  it("with the authorization example: a row the rule hides from another user is a 404 to get, update and delete, and missing from lists", async (t) => {
    const projectDir = await copyBlog();
    const configFile = join(projectDir, "config", "generated-tests.jsonnet");
    await writeFile(configFile, AUTHZ_TESTS_CONFIG);
    await generateBlogApi(configFile, join(projectDir, "blog/api"));
    // pyright: test/e2e/pyright.test.ts.
    const checks = Promise.all([ruffCheck(venv, projectDir, [TESTS_DIR]), ruff(venv, projectDir, ["format", "--check", TESTS_DIR])]);
    const started = Date.now();
    const run = await runGeneratedTests(projectDir);
    const wall = Date.now() - started;
    assert.equal(run.exitCode, 0, `pytest failed:\n${run.output}`);
    const hidden = run.cases.filter((test) => test.name.endsWith("_hides_a_row_from_another_user")).map((test) => test.name).sort();
    // Articles and comments have a rule; each of their get, list, update and delete routes gets a case, and
    // so does the articles' row permissions route, which no list of routes names.
    const expected = ["article", "comment"]
      .flatMap((name) => [`test_get_${name}`, `test_list_${name}s`, `test_update_${name}`, `test_delete_${name}`])
      .concat("test_row_permissions_article")
      .map((base) => `${base}_hides_a_row_from_another_user`)
      .sort();
    assert.deepEqual(hidden, expected);
    for (const check of await checks) assert.ok(check.ok, check.output);
    t.diagnostic(`${run.cases.length} tests, ${hidden.length} of them visibility cases, ${(wall / 1000).toFixed(1)} s for the pytest process`);

    // The visibility cases fail, and only they, when the runtime applies no rule.
    const runtime = join(projectDir, "blog/api/runtime/visibility.py");
    const source = await readFile(runtime, "utf8");
    const broken = source.replace("        if state.is_relationship_load or state.is_column_load:\n", "        if True:\n");
    assert.notEqual(broken, source, "runtime/visibility.py no longer skips loads where the test expects it");
    await writeFile(runtime, broken);
    const sabotaged = await runGeneratedTests(projectDir);
    assert.deepEqual(failedNames(sabotaged), expected, sabotaged.output);
  });

  it("of two apps with a resource of the same name run together under pytest's default import mode", async (t) => {
    const projectDir = await copyBlog();
    const configFile = join(projectDir, "config", "two-tag-apps.jsonnet");
    await writeFile(
      configFile,
      `local r = import 'resources.libsonnet';
(import 'multi.jsonnet') + {
  generate_tests: true,
  apps: [
    { config: { module: 'content', resources: [r.author, r.article, r.tag, r.comment, r.category] }, prefix: '/content' },
    { config: { module: 'community', resources: [r.tag] }, prefix: '/community' },
  ],
}
`,
    );
    await generateBlogApi(configFile, join(projectDir, "blog/api"));
    const run = await runGeneratedTests(projectDir, ["blog/api/content/tests", "blog/api/community/tests"]);
    assert.equal(run.exitCode, 0, `pytest failed:\n${run.output}`);
    const tags = run.cases.filter((test) => test.module === "test_tag");
    assert.ok(tags.length >= 18, `both test_tag.py modules should run: ${tags.length} tests`);
    t.diagnostic(`${run.cases.length} tests, ${tags.length} of them in the two test_tag.py`);
  });

  it("go red when a template drops the commit of update", async (t) => {
    const be = (await discoverTargets()).find((target) => target.name === "be")!;
    const templates = await mkdtemp(join(tmpdir(), "codegen-broken-templates-"));
    cleanup.push(templates);
    await cp(be.templateDir, templates, { recursive: true });
    const update = join(templates, "operations/update/update.py.njk");
    const source = await readFile(update, "utf8");
    const broken = source.replace("    await session.commit()\n", "");
    assert.notEqual(broken, source, "the update template no longer commits in the expected line");
    await writeFile(update, broken);

    const projectDir = await copyBlog();
    const targets = await discoverTargets();
    await generate({
      target: { ...be, templateDir: templates },
      configFile: join(projectDir, "config/project.jsonnet"),
      outDir: join(projectDir, "blog/api"),
      stdlibTargets: targets,
    });

    const run = await runGeneratedTests(projectDir);
    t.diagnostic(`failed: ${failedNames(run).join(", ")}`);
    assert.notEqual(run.exitCode, 0, "pytest passed against routes that never commit an update");
    const updates = RESOURCES.map((resource) => `test_update_${resource}`).sort();
    assert.deepEqual(failedNames(run), updates, run.output);
    for (const name of updates) assert.match(run.output, new RegExp(`FAILED \\S+::${name} `), `the output names ${name}`);
  });

  it("go red when the create route answers 200 instead of 201", async (t) => {
    const projectDir = await prepareBlogProject();
    cleanup.push(projectDir);
    const routes = join(projectDir, "blog/api/content/routes/category.py");
    const source = await readFile(routes, "utf8");
    const broken = source.replace(/status_code=status\.HTTP_201_CREATED,\s*/, "");
    assert.notEqual(broken, source, "the category create route is not where the test expects it");
    await writeFile(routes, broken);

    const run = await runGeneratedTests(projectDir);
    t.diagnostic(`failed: ${failedNames(run).join(", ")}`);
    assert.notEqual(run.exitCode, 0, "pytest passed against a create route answering 200");
    const failed = failedNames(run);
    assert.ok(failed.includes("test_create_category"), `test_create_category did not fail: ${failed.join(", ")}\n${run.output}`);
    assert.match(run.output, /FAILED \S+::test_create_category /);
    // Every test that makes a category through the API notices; no other resource's does.
    assert.ok(failed.every((name) => name.includes("categor")), `unrelated tests failed: ${failed.join(", ")}`);
  });
});
