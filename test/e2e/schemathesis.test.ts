/**
 * Outside clients: schemathesis (test/e2e/requirements.txt) drives generated backends from
 * their OpenAPI alone, with every check it offers, over real HTTP against a real
 * PostgreSQL. A run passes only with no failure of any check: no server error, no response
 * outside its schema, no undocumented status code, no schema-valid request refused, no
 * schema-violating request accepted, a correct `Allow` on every 405.
 *
 * Each run is bounded by its cases per operation and seeded, with one worker, so it draws the
 * same cases every time and a failure replays.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, prepareLibraryProject, serveBlog } from "./support/blog.js";
import { configDir, generatedCases, schemathesis, summary } from "./support/schemathesis.js";

/** Cases per operation and phase: what each run does. */
const MAX_EXAMPLES = 10;
/** How long one run may take: several times what it takes on a busy machine; past it the run is stuck. */
const RUN_TIMEOUT_MS = 600_000;

// The coverage phase skips the search routes (`POST /…/search`): it walks a search body's
// condition tree to the depth its schema recurses and makes every condition case again in
// each chain of `and`/`or` groups, 6,000 of the blog's 7,458 cases and most of the run's
// time, while a group's items are one recursive type at every depth. The fuzzing phase still
// sends drawn trees, valid and not, to both; test/e2e/lists.test.ts sends bad fields,
// operators, values, nesting and sizes to a search route and expects its 422s.
//
// Lists take an opaque `cursor`: only a `next_cursor` the server handed out is valid, and
// any other string is answered 422 naming the cursor. No schema can say which strings the
// server issued, so for list routes a 422 on a schema-valid request is the right answer.
//
// No links are inferred for stateful runs: schemathesis learns them from any `Location`,
// a trailing-slash redirect's too (`/articles/search/` → `/articles/search`), and then takes
// "search" for an article's key, a request no schema allows. Which phases a bounded run
// reaches depends on the machine's speed; without links the run is the same everywhere.
const CONFIG = `
[phases.stateful.inference]
algorithms = []

[[operations]]
include-method = "GET"
include-path-regex = "^(/[a-z-]+)+$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-path-regex = "/search$"
phases.coverage.enabled = false
`;

let venv: Venv;

before(async () => {
  venv = await ensureVenv();
});

// The two backends are tested side by side: a schemathesis run keeps one core busy (one
// Python process, one worker: see support/schemathesis.ts), and each backend has a PostgreSQL
// cluster, a port, a project and a schemathesis directory (its example database) of its own.
// A run is bounded by its case count, not by time, so sharing the machine makes it slower,
// never less thorough.
describe("schemathesis against generated backends", { concurrency: 2 }, () => {
  for (const [name, prepare, pkg] of [
    ["the blog backend", () => prepareBlogProject(), "blog"],
    ["the lending library backend", prepareLibraryProject, "library"],
  ] as const) {
    describe(`schemathesis against ${name}`, () => {
      let postgres: Postgres | undefined;
      let projectDir: string | undefined;
      let server: BlogServer | undefined;
      let config: Awaited<ReturnType<typeof configDir>> | undefined;

      before(async () => {
        [postgres, projectDir, config] = await Promise.all([startPostgres(), prepare(), configDir(CONFIG)]);
        server = await serveBlog(projectDir, venv, postgres.asyncUrl, {}, { pkg });
      });

      after(async () => {
        await server?.process.stop();
        await postgres?.stop();
        await config?.dispose();
        if (projectDir) await rm(projectDir, { recursive: true, force: true });
      });

      it("finds no failure of any check", async () => {
        const outcome = await schemathesis(venv, config!.path, server!.baseUrl, { maxExamples: MAX_EXAMPLES, timeoutMs: RUN_TIMEOUT_MS });
        const generated = generatedCases(outcome.output);
        assert.ok(outcome.ok, `${outcome.output}\n\nserver output:\n${server!.process.output()}`);
        assert.ok(generated >= 500, `too few test cases ran:\n${summary(outcome.output)}`);
        console.log(summary(outcome.output));
      });
    });
  }
});
