/**
 * End-to-end: an endpoint operation from a package. The fixture package (test/fixtures/plugin)
 * adds `bulk_delete` to the `be` target; installed in a user project, with no edit to this
 * one, the blog's articles get `POST /articles/bulk-delete`, generated from that project and
 * served by uvicorn against a real PostgreSQL. The route requires a token (401 without),
 * counts under the project's rate limit (429 past it), is documented in OpenAPI with both
 * statuses and the 409 of a write, calls the entry's `post` hook for each row it deleted once
 * committed, is offered by the articles' permissions route, and its generated test runs and
 * passes; the generated code passes ruff (and pyright, in test/e2e/pyright.test.ts).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { removeTempDirs } from "../helpers/user-project.js";
import { JsonClient, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, PYTEST_ARGS, PYTEST_ENV, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, serveBlog, signedInClient } from "./support/blog.js";
import { preparePluginEndpointProject } from "./support/projects.js";

const SECRET = "e2e-plugin-endpoint-secret-of-at-least-32-bytes";

let venv: Venv;
let postgres: Postgres | undefined;
let projectDir: string | undefined;
let server: BlogServer | undefined;
let staticChecks: Promise<CheckResult>;

before(async () => {
  venv = await ensureVenv();
  projectDir = await preparePluginEndpointProject();
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = ruffCheck(venv, projectDir, ["blog"]);
  postgres = await startPostgres();
  server = await serveBlog(projectDir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
  await removeTempDirs();
});

describe("an endpoint operation from a package", () => {
  it("is documented in OpenAPI with its 401, 429 and the 409 of a write", async () => {
    const spec = (await new JsonClient(server!.baseUrl).get("/openapi.json")).body;
    const operation = spec.paths["/articles/bulk-delete"]?.post;
    assert.ok(operation, `no POST /articles/bulk-delete in ${Object.keys(spec.paths).join(", ")}`);
    assert.equal(operation.operationId, "bulkDeleteArticles");
    for (const status of ["401", "409", "413", "429", "503"]) assert.ok(operation.responses[status], `bulkDeleteArticles documents ${status}`);
  });

  it("is among the operations the permissions route offers, with no list naming it", async () => {
    const client = await signedInClient(server!.baseUrl);
    const permissions = await client.get("/articles/permissions");
    expectStatus(permissions, 200, "the articles' permissions");
    assert.ok(
      (permissions.body as { name: string; scope: string }[]).some((action) => action.name === "bulk_delete" && action.scope === "collection"),
      `bulk_delete offered: ${JSON.stringify(permissions.body)}`,
    );
  });

  it("answers 401 without a token, deletes with one, and 429 past the project's limit", async () => {
    const anonymous = new JsonClient(server!.baseUrl);
    expectStatus(await anonymous.post("/articles/bulk-delete", { ids: [crypto.randomUUID()] }), 401, "without a token");
    const client = await signedInClient(server!.baseUrl);
    const author = await client.post("/authors", { name: "Ada", email: `ada-${crypto.randomUUID()}@example.com` });
    expectStatus(author, 201, "create an author");
    const ids: string[] = [];
    for (const title of ["One", "Two"]) {
      const article = await client.post("/articles", { title, body: "b", author_id: author.body.id });
      expectStatus(article, 201, "create an article");
      ids.push(article.body.id);
    }
    const deleted = await client.post("/articles/bulk-delete", { ids });
    expectStatus(deleted, 200, "bulk delete");
    assert.deepEqual(deleted.body, { deleted: 2 });
    const logged = await postgres!.query("SELECT kind, summary FROM activity WHERE subject_id = ANY($1::uuid[]) ORDER BY summary", [ids]);
    assert.deepEqual(logged.map((row) => [row.kind, row.summary]), [["article_bulk_deleted", "One"], ["article_bulk_deleted", "Two"]], "the post hook ran for each deleted row");
    expectStatus(await client.get(`/articles/${ids[0]}`), 404, "a deleted article");
    // The route counts its own 6 a minute per client: 2 used above, 4 more pass, the next is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await client.post("/articles/bulk-delete", { ids })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  });

  it("gets a generated test, which passes against PostgreSQL", async () => {
    const tests = await readFile(join(projectDir!, "blog", "api", "content", "tests", "test_article.py"), "utf8");
    assert.match(tests, /async def test_bulk_delete_article_requires_a_user\(/);
    const env: NodeJS.ProcessEnv = { ...process.env, ...PYTEST_ENV, TEST_DATABASE_URL: postgres!.asyncUrl, PYTHONDONTWRITEBYTECODE: "1" };
    delete env.JWT_SECRET;
    const args = [...PYTEST_ARGS, "blog/api/content/tests/test_article.py", "-k", "bulk_delete", "-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function", "-q"];
    const { code, output } = await new Promise<{ code: number; output: string }>((done) => {
      execFile(venv.python, args, { cwd: projectDir, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, output: stdout + stderr }),
      );
    });
    assert.equal(code, 0, output);
    assert.match(output, /\b1 passed\b/, output);
  });

  it("generates code that passes ruff check", async () => {
    const result = await staticChecks;
    assert.ok(result.ok, result.output);
  });
});
