/**
 * End-to-end: the README's quick start, run literally in an empty directory by `sh`, with
 * `npx codegen-kit` resolving to this repository's CLI (a shim first on PATH) and no
 * database given: `codegen dev` starts the project's embedded PostgreSQL, generates,
 * migrates and serves; the app answers /health, /ready and its routes, picks up a config
 * change, and keeps its data across a restart, when it also serves a fe_root front end
 * beside it through its proxy. SIGINT stops everything.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generateWithCli } from "../helpers/codegen-cli.js";
import { repoRoot, tsxLoader } from "../helpers/user-project.js";
import { JsonClient } from "../support/http.js";
import { linkNodeModules } from "../support/node-modules.js";
import { freePort } from "../support/ports.js";
import { type RunningProcess, startProcess, waitForHttp } from "../support/processes.js";
import { ensureVenv } from "../support/venv.js";

/** The shell commands of the README's quick start, as a user would paste them. */
async function quickStart(): Promise<string[]> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const block = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "README.md has a Quick start with a sh block");
  return block[1]!.split("\n").filter((line) => line.trim() !== "");
}

let root: string;
let env: NodeJS.ProcessEnv;
let project: string;
let port: number;
const running = new Set<RunningProcess>();

before(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-dev-"));
  // As a user's project directory is: others may pass through (PostgreSQL runs as its own user under root).
  await chmod(root, 0o755);
  // `npx codegen-kit …` runs this repository's CLI; any other npx call is the real one.
  const shims = join(root, "shims");
  await mkdir(shims);
  const npx = join(shims, "npx");
  await writeFile(
    npx,
    `#!/bin/sh\nif [ "$1" = "codegen-kit" ]; then shift; exec "${process.execPath}" --conditions=codegen-source --import "${tsxLoader}" "${join(repoRoot, "src", "cli.ts")}" "$@"; fi\n` +
      `echo "npx $* is not part of the quick start" >&2; exit 1\n`,
  );
  await chmod(npx, 0o755);
  const venv = await ensureVenv();
  port = await freePort();
  const { DATABASE_URL: _none, ...rest } = process.env;
  env = { ...rest, PATH: `${shims}:${process.env.PATH}`, VIRTUAL_ENV: dirname(dirname(venv.python)), PORT: String(port), NODE_OPTIONS: "" };
});

after(async () => {
  for (const run of running) await run.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Runs `script` with sh in `cwd`, in a process group of its own (as a terminal would). */
function shell(script: string, cwd: string): RunningProcess {
  const run = startProcess("sh", ["-ec", script], { cwd, env });
  running.add(run);
  return run;
}

/** Polls `url` until it answers 2xx (a route that 404s until a change is served counts as not yet). */
async function waitFor(url: string, run: RunningProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.exited()) assert.fail(`codegen dev exited before ${url} answered:\n${run.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${url} did not answer within ${timeoutMs} ms:\n${run.output()}`);
}

/**
 * Ctrl-C: SIGINT to the process group, as a terminal sends it. The shell dies of it at once;
 * resolves once codegen dev has stopped the backend and PostgreSQL too.
 */
async function interrupt(run: RunningProcess): Promise<void> {
  process.kill(-run.child.pid!, "SIGINT");
  await run.exitCode;
  running.delete(run);
  const pidFile = join(project, ".codegen", "postgres", "postmaster.pid");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const listening = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false);
    if (!listening && !existsSync(pidFile)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`codegen dev left the backend or PostgreSQL running after SIGINT:\n${run.output()}`);
}

describe("the README's quick start", () => {
  it("runs from an empty directory to a backend answering /health, with its own PostgreSQL", { timeout: 240_000 }, async () => {
    const lines = await quickStart();
    assert.match(lines.at(-1)!, /^npx codegen-kit dev$/, "the quick start ends with codegen dev");
    const started = performance.now();
    const run = shell(lines.join("\n"), root);
    await waitFor(`http://127.0.0.1:${port}/health`, run);
    const firstRunMs = performance.now() - started;
    project = join(root, "shop");

    const api = new JsonClient(`http://127.0.0.1:${port}`);
    assert.deepEqual((await api.get("/health")).body, { status: "ok" });
    assert.deepEqual((await api.get("/ready")).body, { status: "ok", database: "ok" });
    const note = await api.post("/notes", { title: "First" });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    // The action's only param has a default: no body at all calls it with the default (issue 16).
    const pinned = await api.post(`/notes/${note.body.id}/pin`);
    assert.equal(pinned.status, 200, JSON.stringify(pinned.body));
    assert.equal(pinned.body.pinned, true);
    const unpinned = await api.post(`/notes/${note.body.id}/pin`, { pinned: false });
    assert.equal(unpinned.body.pinned, false);
    assert.equal((await api.post(`/notes/${note.body.id}/pin`, { pinned: "sideways" })).status, 422);
    assert.ok(existsSync(join(project, ".codegen", "postgres", "PG_VERSION")), "the database lives in the project");
    assert.match(run.output(), /embedded PostgreSQL for this project/);
    // The reloader polls the app's package, not the project with its .venv/.
    assert.ok(run.output().includes(`Will watch for changes in these directories: ['${join(project, "shop")}']`), run.output());

    // A config change is regenerated and served without a restart.
    const configFile = join(project, "config", "project.jsonnet");
    const config = await readFile(configFile, "utf8");
    await writeFile(configFile, config.replace("model: 'shop.models.Note',", "model: 'shop.models.Note',\n      route_prefix: '/memos',"));
    await waitFor(`http://127.0.0.1:${port}/memos/${note.body.id}`, run, 30_000);

    await interrupt(run);
    process.stderr.write(`# quick start to /health: ${(firstRunMs / 1000).toFixed(1)} s\n`);

    // A front end made by fe_root in frontend/: the next run serves it, its proxy passing /api/ to the backend.
    const frontend = join(project, "frontend");
    const webPort = await freePort();
    await writeFile(join(root, "fe_root.jsonnet"), `{ name: 'shop-web', title: 'Shop', port: ${webPort}, backend_url: 'http://127.0.0.1:${port}' }\n`);
    await mkdir(frontend);
    await generateWithCli(frontend, "fe_root", "../../fe_root.jsonnet", ".");
    await linkNodeModules(frontend);

    // A second run finds the same database: the note is still there.
    const again = shell("npx codegen-kit dev", project);
    await waitFor(`http://127.0.0.1:${port}/health`, again);
    const kept = await api.get(`/memos/${note.body.id}`);
    assert.equal(kept.status, 200, again.output());
    assert.equal(kept.body.title, "First");
    await waitFor(`http://localhost:${webPort}/`, again, 60_000);
    assert.match(await (await fetch(`http://localhost:${webPort}/`)).text(), /<div id="root"><\/div>/);
    const proxied = await fetch(`http://localhost:${webPort}/api/memos/${note.body.id}`);
    assert.equal(proxied.status, 200);
    assert.equal(((await proxied.json()) as { title: string }).title, "First");
    await interrupt(again);
    await assert.rejects(fetch(`http://localhost:${webPort}/`), "the front end's dev server stopped with codegen dev");
  });

  it("runs a project with auth without JWT_SECRET: a development secret, kept in the project, signs tokens", { timeout: 120_000 }, async () => {
    const vault = join(root, "vault");
    await mkdir(vault);
    await writeFile(join(vault, "be_root.jsonnet"), "{ name: 'vault', auth: true }\n");
    const scaffolded = shell("npx codegen-kit generate -t be_root -c be_root.jsonnet", vault);
    assert.equal(await scaffolded.exitCode, 0, scaffolded.output());
    const run = shell("npx codegen-kit dev --no-frontend", vault);
    await waitFor(`http://127.0.0.1:${port}/health`, run);
    assert.match(run.output(), /JWT_SECRET: a development secret kept in \.codegen\/dev-secret/);
    const secret = join(vault, ".codegen", "dev-secret");
    assert.equal((await stat(secret)).mode & 0o777, 0o600);
    assert.ok((await readFile(secret, "utf8")).trim().length >= 43, "at least 32 random bytes");
    // The app started (it refuses to without its secret), and its routes want a token.
    assert.equal((await fetch(`http://127.0.0.1:${port}/notes`)).status, 401);
    const refused = await fetch(`http://127.0.0.1:${port}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "ada", password: "anything" }),
    });
    assert.equal(refused.status, 401, "verify_credentials lets nobody in until it is written");
    project = vault;
    await interrupt(run);
    project = join(root, "shop");
  });

  it("uses DATABASE_URL from the environment instead of the embedded database, and says when it does not answer", { timeout: 60_000 }, async () => {
    assert.ok(project, "the quick start ran");
    const dead = `postgresql+asyncpg://postgres:postgres@127.0.0.1:${await freePort()}/shop`;
    const run = shell(`DATABASE_URL=${dead} npx codegen-kit dev --no-frontend`, project);
    const code = await run.exitCode;
    running.delete(run);
    assert.notEqual(code, 0);
    assert.match(run.output(), /database from DATABASE_URL/);
    assert.match(run.output(), /codegen dev: alembic upgrade head failed/);
    assert.doesNotMatch(run.output(), /embedded PostgreSQL/);
    assert.ok(!existsSync(join(project, ".codegen", "postgres", "postmaster.pid")), "no embedded PostgreSQL was started");
  });

  it("the starter's readiness route answers 503 while the database is down; liveness stays 200", { timeout: 60_000 }, async () => {
    const venv = await ensureVenv();
    const dead = `postgresql+asyncpg://postgres:postgres@127.0.0.1:${await freePort()}/shop`;
    const appPort = await freePort();
    const server = startProcess(venv.python, ["-m", "uvicorn", "shop.main:app", "--host", "127.0.0.1", "--port", String(appPort)], {
      cwd: project,
      env: { ...env, DATABASE_URL: dead },
    });
    running.add(server);
    const base = `http://127.0.0.1:${appPort}`;
    await waitForHttp(`${base}/health`, server);
    assert.equal((await fetch(`${base}/health`)).status, 200, server.output());
    const ready = await fetch(`${base}/ready`);
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get("retry-after"), "5");
    assert.deepEqual(await ready.json(), { detail: "the database does not answer" });
    await server.stop();
    running.delete(server);
  });
});
