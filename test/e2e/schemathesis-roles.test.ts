/**
 * Outside clients by role: schemathesis drives the blog's authorization example
 * (examples/blog/config/authz.jsonnet) from its OpenAPI, signed in as each role the example
 * tells apart (two writers, an editor, a reader) and with no token, over real HTTP against a
 * real PostgreSQL. It checks that no request meets a server error and that every status
 * answered is documented for its route.
 *
 * Each writer first makes an author, a draft and a published article with a comment on each
 * (support/attack.ts); generated requests name those rows as well as drawn keys
 * (support/schemathesis_hooks.py), so row routes, reference fields, ownership checks and the
 * visibility rule meet rows that exist, are hidden, or belong to someone else. The five runs
 * share one server and go at once; each is seeded and bounded in cases per operation.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type AttackRows, attackRows } from "./support/attack.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { type Actor, BlogRoles } from "./support/roles.js";
import { type KnownRows, configDir, generatedCases, runBoundMs, schemathesis, summary } from "./support/schemathesis.js";

const SECRET = randomBytes(48).toString("base64url");

/** The roles the runs sign in as: `author` and `other` are the two writers. */
const RUNS: Actor[] = ["author", "other", "editor", "reader", "anonymous"];

/** Cases per operation: what each run does, about 200 cases a role. */
const MAX_EXAMPLES = 6;
/** How long one run may take: several times what it takes on a busy machine; past it the run is stuck. */
const RUN_TIMEOUT_MS = 600_000;

/**
 * The setup's bound: the venv (cached), PostgreSQL, generating the example, the server
 * (itself bounded by serveBlog's wait), then the writers' rows over HTTP.
 */
const SETUP_TIMEOUT_MS = 240_000;
/** The runs go at once: the test waits as long as one run may take, and a little more for the report. */
const RUNS_TIMEOUT_MS = runBoundMs(RUN_TIMEOUT_MS) + 30_000;

// No links are inferred for stateful runs (see schemathesis.test.ts): keys come from the
// rows made first.
const CONFIG = `
[phases.stateful.inference]
algorithms = []
`;

let venv: Venv;
let postgres: Postgres | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let config: Awaited<ReturnType<typeof configDir>> | undefined;
let known: KnownRows;

const blog = new BlogRoles(() => server!.baseUrl, SECRET);

before(async () => {
  venv = await ensureVenv();
  [postgres, dir, config] = await Promise.all([startPostgres(), prepareBlogProject("config/authz.jsonnet"), configDir(CONFIG)]);
  // The example's token endpoint limits attempts per address: every run comes from 127.0.0.1.
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
  const rows = await writersRows(server);
  const writers = [rows.author, rows.other];
  const articles = writers.flatMap((owned) => [owned.draft, owned.published]);
  const authors = writers.map((owned) => owned.author);
  known = {
    paths: { "/articles": articles, "/authors": authors, "/comments": writers.map((owned) => owned.draftComment), "/tags": [rows.tag] },
    fields: { article_id: articles, author_id: authors, tag_id: [rows.tag] },
  };
}, { timeout: SETUP_TIMEOUT_MS });

/** Each writer's author and rows (support/attack.ts); a failure shows the server's output. */
async function writersRows(server: BlogServer): Promise<AttackRows> {
  try {
    await blog.createAuthors();
    return await attackRows(blog);
  } catch (error) {
    throw new Error(`making the writers' rows failed: ${(error as Error).message}\n\nserver output:\n${server.process.output()}`, { cause: error });
  }
}

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await config?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("schemathesis against the authorization example, by role", () => {
  it("finds no server error and no undocumented status, signed in as each role", { timeout: RUNS_TIMEOUT_MS }, async (t) => {
    const started = Date.now();
    const outcomes = await Promise.all(
      RUNS.map((role) =>
        schemathesis(venv, config!.path, server!.baseUrl, {
          checks: ["not_a_server_error", "status_code_conformance"],
          phases: ["examples", "fuzzing"],
          maxExamples: MAX_EXAMPLES,
          timeoutMs: RUN_TIMEOUT_MS,
          workers: 1,
          headers: blog.headers(role),
          known,
        }),
      ),
    );
    const lines: string[] = [];
    const failed: string[] = [];
    for (const [index, role] of RUNS.entries()) {
      const outcome = outcomes[index]!;
      const generated = generatedCases(outcome.output);
      if (!outcome.ok) failed.push(`signed in as ${role}:\n${outcome.output}`);
      else if (generated < 100) failed.push(`signed in as ${role}, too few test cases ran:\n${summary(outcome.output)}`);
      lines.push(`${role}: ${generated} cases`);
    }
    assert.deepEqual(failed, [], `${failed.join("\n\n")}\n\nserver output:\n${server!.process.output()}`);
    t.diagnostic(`${lines.join(", ")}, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
});
