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
import { configDir, generatedCases, schemathesis, summary, testedOperations } from "./support/schemathesis.js";

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

/**
 * Each backend's operations, split into runs that go side by side. schemathesis spends about
 * 90 s of CPU, once per process, making the coverage phase's valid email for the blog's
 * authors (an `email` string that also has a `pattern`: POST /authors alone takes 92 s of
 * CPU for 48 cases, and 5 s once the pattern is dropped), longer than the blog's other 31
 * operations (about 40 s) and the library's 39 (about 25 s) take together: the authors'
 * routes get a run of their own.
 * Together a backend's runs test every operation of its document (checked).
 */
const AUTHORS = "^/authors(/|$)";

// The backends, and the runs of each, are tested side by side: a schemathesis run keeps one
// core busy (one Python process, one worker: see support/schemathesis.ts), and each backend has
// a PostgreSQL cluster, a port and a project of its own, each run a schemathesis directory (its
// example database). A run is bounded by its case count, not by time, so sharing the machine
// makes it slower, never less thorough.
describe("schemathesis against generated backends", { concurrency: 2 }, () => {
  for (const [name, prepare, pkg, runs] of [
    ["the blog backend", () => prepareBlogProject(), "blog", [["--include-path-regex", AUTHORS], ["--exclude-path-regex", AUTHORS]]],
    ["the lending library backend", prepareLibraryProject, "library", [[]]],
  ] as const) {
    describe(`schemathesis against ${name}`, () => {
      let postgres: Postgres | undefined;
      let projectDir: string | undefined;
      let server: BlogServer | undefined;
      let configs: Awaited<ReturnType<typeof configDir>>[] = [];

      before(async () => {
        [postgres, projectDir, configs] = await Promise.all([startPostgres(), prepare(), Promise.all(runs.map(() => configDir(CONFIG)))]);
        server = await serveBlog(projectDir, venv, postgres.asyncUrl, {}, { pkg });
      });

      after(async () => {
        await server?.process.stop();
        await postgres?.stop();
        for (const config of configs) await config.dispose();
        if (projectDir) await rm(projectDir, { recursive: true, force: true });
      });

      it("finds no failure of any check", async () => {
        const outcomes = await Promise.all(
          runs.map((operations, index) => schemathesis(venv, configs[index]!.path, server!.baseUrl, { operations, maxExamples: MAX_EXAMPLES, timeoutMs: RUN_TIMEOUT_MS })),
        );
        for (const outcome of outcomes) assert.ok(outcome.ok, `${outcome.output}\n\nserver output:\n${server!.process.output()}`);
        const tested = outcomes.map((outcome) => testedOperations(outcome.output));
        const of = tested[0]!.of;
        assert.ok(of > 0 && tested.every((run) => run.of === of), `the runs read different documents:\n${outcomes.map((outcome) => summary(outcome.output)).join("\n")}`);
        assert.equal(tested.reduce((sum, run) => sum + run.tested, 0), of, "the runs together test every operation once");
        const generated = outcomes.reduce((sum, outcome) => sum + generatedCases(outcome.output), 0);
        assert.ok(generated >= 500, `too few test cases ran:\n${outcomes.map((outcome) => summary(outcome.output)).join("\n")}`);
        for (const outcome of outcomes) console.log(summary(outcome.output));
      });
    });
  }
});
