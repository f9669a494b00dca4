/**
 * End-to-end: the README's quick start, run literally in an empty directory by `sh`, with
 * `npx codegen-kit` resolving to this repository's CLI (a shim first on PATH) and no
 * database given: `codegen dev` starts the project's embedded PostgreSQL, generates,
 * migrates and serves; the app answers /health, /ready and its routes, picks up a config
 * change, and keeps its data across a restart, when it also serves a fe_root front end
 * beside it through its proxy. SIGINT stops everything.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { dataDirectory } from "../../src/dev/postgres.js";
import { builtCli, generateWithCli } from "../helpers/codegen-cli.js";
import { repoRoot } from "../helpers/user-project.js";
import { JsonClient } from "../support/http.js";
import { linkNodeModules } from "../support/node-modules.js";
import { freePort } from "../support/ports.js";
import { type RunningProcess, exitWithin, startProcess, waitForHttp } from "../support/processes.js";
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
  // `npx codegen-kit …` runs this repository's built CLI, the package's bin; any other npx call is the real one.
  const shims = join(root, "shims");
  await mkdir(shims);
  const npx = join(shims, "npx");
  await writeFile(
    npx,
    `#!/bin/sh\nif [ "$1" = "codegen-kit" ]; then shift; exec "${process.execPath}" "${await builtCli()}" "$@"; fi\n` +
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
  await exitWithin(run, 30_000);
  const pidFile = join(project, ".codegen", "postgres", "postmaster.pid");
  const lockFile = join(project, ".codegen", "dev.lock");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const listening = await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false);
    if (!listening && !existsSync(pidFile) && !existsSync(lockFile)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`codegen dev left the backend, PostgreSQL or its lock after SIGINT:\n${run.output()}`);
}

/** The pids of every process descended from `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(Number(entry), "stat");
    if (stat === undefined) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (const todo = [pid]; todo.length > 0; ) for (const child of children.get(todo.pop()!) ?? []) found.push(child), todo.push(child);
  return found;
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs (a zombie has ended: its parent has not reaped it yet). */
const alive = (pid: number) => {
  const stat = readProc(pid, "stat");
  return stat !== undefined && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
};

const command = (pid: number) => readProc(pid, "cmdline")?.replaceAll("\0", " ").trim() ?? "";

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
    // codegen dev starts the backend again itself: no uvicorn reloader polls the project.
    assert.doesNotMatch(run.output(), /Started reloader process|Will watch for changes/);

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
    assert.equal(await exitWithin(scaffolded, 60_000), 0, scaffolded.output());
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
    assert.equal(refused.status, 401, "verify_credentials lets nobody in until it is written, but codegen dev's user");
    // The development user codegen dev prints signs in, and finds the seeded notes.
    const password = /sign in as dev, password (\S+) \(kept in \.codegen\/dev-password/.exec(run.output())?.[1];
    assert.ok(password, run.output());
    const token = await fetch(`http://127.0.0.1:${port}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "dev", password }),
    });
    assert.equal(token.status, 200, await token.clone().text());
    const { access_token } = (await token.json()) as { access_token: string };
    const notes = await fetch(`http://127.0.0.1:${port}/notes`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(notes.status, 200);
    assert.deepEqual(((await notes.json()) as { items: { title: string }[] }).items.map((item) => item.title).sort(), ["Pinned", "Welcome"]);
    const wrong = await fetch(`http://127.0.0.1:${port}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "dev", password: `${password}x` }),
    });
    assert.equal(wrong.status, 401);
    project = vault;
    await interrupt(run);
    project = join(root, "shop");
  });

  it("uses DATABASE_URL from the environment instead of the embedded database, and says when it does not answer", { timeout: 60_000 }, async () => {
    assert.ok(project, "the quick start ran");
    const dead = `postgresql+asyncpg://postgres:postgres@127.0.0.1:${await freePort()}/shop`;
    const run = shell(`DATABASE_URL=${dead} npx codegen-kit dev --no-frontend`, project);
    const code = await exitWithin(run, 50_000);
    assert.notEqual(code, 0);
    assert.match(run.output(), /database from DATABASE_URL/);
    assert.match(run.output(), /codegen dev: the database at DATABASE_URL does not answer \(/);
    assert.doesNotMatch(run.output(), /embedded PostgreSQL/);
    assert.ok(!existsSync(join(project, ".codegen", "postgres", "postmaster.pid")), "no embedded PostgreSQL was started");
  });

  it("owns its processes: a second run is refused while the first serves; after kill -9 nothing of it survives and the next run serves", { timeout: 240_000 }, async () => {
    assert.ok(project, "the quick start ran");
    // With the front end of the first test: npm and vite are part of the tree too.
    const first = shell("npx codegen-kit dev", project);
    await waitFor(`http://127.0.0.1:${port}/health`, first);

    const second = shell("npx codegen-kit dev --no-frontend", project);
    const status = await exitWithin(second, 60_000);
    assert.notEqual(status, 0, second.output());
    const holder = JSON.parse(await readFile(join(project, ".codegen", "dev.lock"), "utf8")) as { pid: number };
    assert.match(second.output(), new RegExp(`another codegen dev is running in .* \\(pid ${holder.pid}, since `));
    assert.doesNotMatch(second.output(), /stopping|backend on/);
    assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/ready`)).json(), { status: "ok", database: "ok" }, "the first run's database is untouched");

    // A busy port is a failure too, before anything starts.
    const busy = await freePort();
    const blocker = createServer().listen(busy, "127.0.0.1");
    try {
      const vault = join(root, "vault");
      const refused = shell(`PORT=${busy} npx codegen-kit dev --no-frontend`, vault);
      assert.notEqual(await exitWithin(refused, 60_000), 0, refused.output());
      assert.match(refused.output(), new RegExp(`port ${busy} of 127\\.0\\.0\\.1, for the backend, is in use`));
    } finally {
      blocker.close();
    }

    // kill -9 of codegen dev itself: its keeper stops uvicorn and PostgreSQL.
    let tree = descendants(holder.pid);
    for (const deadline = Date.now() + 30_000; !tree.some((pid) => /\bvite\b/.test(command(pid))); tree = descendants(holder.pid)) {
      if (Date.now() > deadline) assert.fail(`no vite among the processes of codegen dev: ${tree.map(command).join("; ")}\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The backend runs uvicorn_when_told.py: named so on its command line when started cold, by
    // its process name (comm) when an interpreter started ahead runs it. A spare interpreter
    // with uvicorn imported ahead but no script yet is neither.
    const runs = (pid: number) => `${command(pid)} ${readProc(pid, "comm")?.trim() ?? ""}`;
    for (const expected of [/^sh -c/, /postgres -D/, /uvicorn_when_to/]) assert.ok(tree.some((pid) => expected.test(runs(pid))), `${expected} among ${tree.map(runs).join("; ")}`);
    process.kill(holder.pid, "SIGKILL");
    await exitWithin(first, 10_000);
    running.delete(first);
    const deadline = Date.now() + 20_000;
    while (tree.some(alive)) {
      if (Date.now() > deadline) assert.fail(`processes of the killed codegen dev survive: ${tree.filter(alive).map((pid) => `${pid} ${command(pid)}`).join("; ")}\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const next = shell("npx codegen-kit dev --no-frontend", project);
    await waitFor(`http://127.0.0.1:${port}/health`, next);
    assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/ready`)).json(), { status: "ok", database: "ok" }, next.output());
    await interrupt(next);
  });

  it("as root, runs from an install the postgres user cannot enter (as the npx cache under /root), a project there too", { timeout: 240_000, skip: process.getuid?.() !== 0 && "only root runs PostgreSQL as another user" }, async () => {
    // A directory only root may enter, holding codegen as an install does (hard links: no copy) and a project.
    const closed = await mkdtemp(join(tmpdir(), "codegen-dev-root-only-"));
    try {
      assert.equal((await stat(closed)).mode & 0o777, 0o700);
      const install = join(closed, "install");
      await mkdir(install);
      await builtCli();
      await promisify(execFile)("cp", ["-al", join(repoRoot, "node_modules"), join(repoRoot, "dist"), join(repoRoot, "package.json"), install]);
      const codegen = `"${process.execPath}" "${join(install, "dist", "cli.js")}"`;
      const clinic = join(closed, "clinic");
      await mkdir(clinic);
      await writeFile(join(clinic, "be_root.jsonnet"), "{ name: 'clinic' }\n");
      const scaffolded = shell(`${codegen} generate -t be_root -c be_root.jsonnet`, clinic);
      assert.equal(await exitWithin(scaffolded, 60_000), 0, scaffolded.output());
      const run = shell(`exec ${codegen} dev --no-frontend`, clinic);
      await waitFor(`http://127.0.0.1:${port}/health`, run);
      assert.deepEqual(await (await fetch(`http://127.0.0.1:${port}/ready`)).json(), { status: "ok", database: "ok" }, run.output());
      assert.match(run.output(), /as root, its postgres user cannot enter the project/);
      process.kill(-run.child.pid!, "SIGINT");
      assert.equal(await exitWithin(run, 30_000), 0, run.output());
    } finally {
      await rm(dataDirectory(join(closed, "clinic")).dir, { recursive: true, force: true });
      await rm(closed, { recursive: true, force: true });
    }
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
