// The runtime helpers copied into every generated tree (src/targets/be/runtime/*.py) are
// real Python: this runs their pytest suite (test/targets/be/runtime/) against a real
// PostgreSQL, and holds them to the gates generated code passes: `ruff format --check`,
// `ruff check` with the E, F, I, UP, B and SIM rules, and pyright (test/e2e/pyright.test.ts).

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { PYTEST_ARGS, PYTEST_ENV, runCheck } from "../../support/python.js";
import { type Postgres, startPostgres } from "../../support/postgres.js";
import { type Venv, ensureVenv } from "../../support/venv.js";

const root = resolve(fileURLToPath(import.meta.url), "../../../..");
const targetDir = join(root, "src/targets/be");
const runtimeDir = join(targetDir, "runtime");
const testsDir = join(root, "test/targets/be/runtime");

let venv: Venv;
let postgres: Postgres;

before(async () => {
  [venv, postgres] = await Promise.all([ensureVenv(), startPostgres()]);
});
after(() => postgres?.stop());

/** Generous on a busy machine: the pytest suite takes seconds, ruff less. */
const PYTEST_TIMEOUT_MS = 300_000;
const RUFF_TIMEOUT_MS = 60_000;

describe("the runtime helpers", () => {
  it("pass their own pytest suite against a real PostgreSQL", async () => {
    const env = { ...process.env, ...PYTEST_ENV, PYTHONPATH: targetDir, TEST_DATABASE_URL: postgres.asyncUrl, PYTHONDONTWRITEBYTECODE: "1" };
    const result = await runCheck(venv.python, [...PYTEST_ARGS, "-q", "-p", "no:cacheprovider", "--rootdir", testsDir, testsDir], root, { env, timeoutMs: PYTEST_TIMEOUT_MS });
    assert.ok(result.ok, result.output);
    assert.match(result.output, /\b(1[5-9]\d|[2-9]\d\d) passed\b/, `fewer tests ran than written:\n${result.output}`);
  });

  it("are ruff-formatted and pass ruff check (E, F, I, UP, B, SIM)", async () => {
    const ruff = join(venv.bin, "ruff");
    const format = await runCheck(ruff, ["format", "--check", "--no-cache", runtimeDir, testsDir], root, { timeoutMs: RUFF_TIMEOUT_MS });
    assert.ok(format.ok, format.output);
    const lint = await runCheck(ruff, ["check", "--no-cache", "--select", "E,F,I,UP,B,SIM", runtimeDir, testsDir], root, { timeoutMs: RUFF_TIMEOUT_MS });
    assert.ok(lint.ok, lint.output);
  });
});
