/**
 * End-to-end: the pgqueuer companion (blog.api.runtime.queue) against a real PostgreSQL.
 *
 * A job enqueued through `get_queue(session)` shares the session's transaction: it
 * disappears with a rollback and survives a commit. A worker started with pgqueuer's
 * own CLI (`pgq run`), connected through `open_worker_driver`, then runs it.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { startProcess } from "../support/processes.js";
import { ensureVenv, type Venv } from "../support/venv.js";
import { prepareBlogProject } from "./support/blog.js";
import { installPgqueuer } from "./support/pgqueuer.js";

const run = promisify(execFile);
const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "../support");
const JOBS_SCRIPT = join(SUPPORT_DIR, "queue_jobs.py");
/** One queue_jobs.py command: a few statements, far less on any machine. */
const JOBS_TIMEOUT_MS = 60_000;

let venv: Venv;
let postgres: Postgres | undefined;
let projectDir: string | undefined;
let markerDir: string | undefined;
let env: NodeJS.ProcessEnv;

async function jobs(...args: string[]): Promise<string> {
  const { stdout } = await run(venv.python, [JOBS_SCRIPT, ...args], { cwd: projectDir, env, timeout: JOBS_TIMEOUT_MS });
  return stdout;
}

async function count(marker: string): Promise<{ jobs: number; categories: number }> {
  return JSON.parse(await jobs("count", marker));
}

before(async () => {
  venv = await ensureVenv();
  projectDir = await prepareBlogProject();
  markerDir = await mkdtemp(join(tmpdir(), "codegen-markers-"));
  postgres = await startPostgres();
  env = {
    ...process.env,
    DATABASE_URL: postgres.asyncUrl,
    PGDSN: postgres.url,
    MARKER_DIR: markerDir,
    PYTHONPATH: [projectDir, SUPPORT_DIR].join(delimiter),
    PYTHONDONTWRITEBYTECODE: "1",
  };
  await installPgqueuer(venv, env);
  await jobs("init");
});

after(async () => {
  await postgres?.stop();
  for (const dir of [projectDir, markerDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe("queue companion", () => {
  it("drops a job enqueued in a transaction that rolls back", async () => {
    await jobs("enqueue", "rolled-back", "rollback");
    assert.deepEqual(await count("rolled-back"), { jobs: 0, categories: 0 });
  });

  it("keeps a job enqueued in a transaction that commits, together with the data", async () => {
    await jobs("enqueue", "committed", "commit");
    assert.deepEqual(await count("committed"), { jobs: 1, categories: 1 });
  });

  it("runs the committed job in a worker started with `pgq run`", async () => {
    const worker = startProcess(join(venv.bin, "pgq"), ["run", "queue_jobs:create_worker"], { cwd: SUPPORT_DIR, env });
    try {
      const marker = join(markerDir!, "committed");
      const deadline = Date.now() + 20_000;
      while (!existsSync(marker) && !worker.exited() && Date.now() < deadline) await sleep(100);
      assert.ok(existsSync(marker), `the worker did not run the job:\n${worker.output()}`);
      assert.match(await readFile(marker, "utf8"), /^\d+$/);
      assert.equal(existsSync(join(markerDir!, "rolled-back")), false);
      assert.deepEqual(await count("committed"), { jobs: 0, categories: 1 });
    } finally {
      await worker.stop();
    }
    assert.equal(worker.child.exitCode, 0, `the worker did not shut down cleanly on SIGTERM:\n${worker.output()}`);
  });
});
