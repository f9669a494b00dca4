/**
 * `npm run bench:api`: requests per server CPU second of the blog's article routes, from
 * the generated backend, the same routes written by hand (FastAPI + SQLAlchemy +
 * Pydantic), the floor (the raw driver: asyncpg, no ORM, no framework) and the stack's
 * floor (the floor's reads, get and list, on FastAPI routes and SQLAlchemy's ORM session).
 *
 * One embedded PostgreSQL holds 1,000 authors and 10,000 articles; each app is served by
 * uvicorn with one worker, and `--clients` concurrent keep-alive clients (default 32)
 * load one app and one route at a time for `--duration` seconds. The server's CPU time
 * is read from /proc before and after each run, so the figures hold on a shared machine.
 * Rounds alternate the order of the apps; the table gives medians of the rounds, and
 * the ratio columns the median of the rounds' ratios. bench/README.md, "API throughput".
 *
 * With `--calls N` (default 200; 0 skips it), a second table: the Python calls per request
 * of each app and route, counted in process by bench/calls.py over N of the requests the
 * load sends, a figure the machine's load does not move.
 *
 *   node --import tsx bench/api.ts [--duration 15] [--rounds 5] [--clients 32] [--warmup 3]
 *     [--apps generated,handwritten,floor,stack] [--routes get,list,create,update] [--calls 200]
 *     [--profile DIR]   (bench/calls.py's cProfile statistics of each app and route, as DIR/<route>-<app>.pstats)
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SERVE_SCRIPT, prepareBlogProject, serveBlog, serveScript } from "../test/e2e/support/blog.js";
import { type LoadRequest, type LoadResult, describeLoad, loadAgent, runLoad } from "../test/e2e/support/load.js";
import { REQUEST_TIMEOUT_MS } from "../test/support/http.js";
import { startPostgres } from "../test/support/postgres.js";
import { runCheck } from "../test/support/python.js";
import type { RunningProcess } from "../test/support/processes.js";
import { median } from "../test/support/stats.js";
import { ensureVenv } from "../test/support/venv.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "15" },
    rounds: { type: "string", default: "5" },
    clients: { type: "string", default: "32" },
    warmup: { type: "string", default: "3" },
    apps: { type: "string", default: "generated,handwritten,floor,stack" },
    routes: { type: "string", default: "get,list,create,update" },
    calls: { type: "string", default: "200" },
    profile: { type: "string" },
  },
});
const durationMs = Number(values.duration) * 1000;
const rounds = Number(values.rounds);
const clients = Number(values.clients);
const warmupMs = Number(values.warmup) * 1000;
const callRequests = Number(values.calls);
if (values.profile !== undefined) await mkdir(values.profile, { recursive: true });

const CALLS_SCRIPT = resolve(fileURLToPath(import.meta.url), "../calls.py");
/** How long bench/calls.py may take for one app and route (it starts Python, then sends --calls requests). */
const CALLS_TIMEOUT_MS = 300_000;
/** Requests bench/calls.py sends before it counts: every statement prepared, every pool connection open. */
const CALLS_WARMUP = 50;
/** The ASGI application of each app, as bench/calls.py loads it. */
const ASGI_APPS: Record<AppName, string> = {
  generated: "blog.main:app",
  handwritten: "handwritten_articles:app",
  floor: "floor_articles:app",
  stack: "stack_floor_articles:app",
};

const AUTHORS = 1_000;
const ARTICLES = 10_000;

// The blog's articles cut to the issue's shape: the article's columns and its author
// nested (joined), read by get and by a keyset list of 20, written by create and update.
const CONFIG = `
local f = import 'be/fields.libsonnet';
local l = import 'be/lists.libsonnet';
local article = {
  model: 'blog.models.Article',
  fields: [
    f.uuid('id'),
    f.str('title'),
    f.str('body'),
    f.bool('published', { default: false }),
    f.str('status'),
    f.datetime('published_at', { nullable: true }),
    f.date('publish_on', { nullable: true }),
    f.int('word_count', { default: 0 }),
    f.float('rating', { nullable: true }),
    f.json('extra', { default: {} }),
    f.uuid('author_id'),
    f.nested('author', 'blog.models.Author', [f.uuid('id'), f.str('name')], load='joined'),
  ],
  local writable = [field for field in self.fields if !std.member(['id', 'status', 'author'], field.name)],
  operations: ['get', { name: 'list', modifiers: [l.keyset(20, 100)] }, { name: 'create', fields: writable }, { name: 'update', fields: writable }],
};
(import 'project.jsonnet') + { resources: [article], generate_tests: false }`;

const APPS = {
  generated: "generated",
  handwritten: "hand-written",
  floor: "floor",
  stack: "stack floor",
} as const;
type AppName = keyof typeof APPS;

const ROUTES = {
  get: "get one article, nested author",
  list: "list 20 articles, nested author",
  create: "create",
  update: "update (PATCH)",
} as const;
type RouteName = keyof typeof ROUTES;

function pick<T extends string>(given: string, known: Record<T, string>, what: string): T[] {
  const names = given.split(",").filter(Boolean);
  for (const name of names) assert.ok(name in known, `--${what}: unknown ${name} (known: ${Object.keys(known).join(", ")})`);
  return names as T[];
}
const apps = pick<AppName>(values.apps!, APPS, "apps");
/** The routes of an app that does not serve them all: the stack's floor reads only. */
const SERVED_ROUTES: Partial<Record<AppName, readonly RouteName[]>> = { stack: ["get", "list"] };
const serves = (app: AppName, route: RouteName): boolean => SERVED_ROUTES[app]?.includes(route) ?? true;
const routes = pick<RouteName>(values.routes!, ROUTES, "routes");

interface App {
  name: AppName;
  baseUrl: string;
  process: RunningProcess;
}

/** A request of `route`, on articles picked at random among `ids` (creates by random authors). */
function requests(route: RouteName, ids: string[], authors: string[]): () => LoadRequest {
  const any = (list: string[]) => list[Math.floor(Math.random() * list.length)]!;
  switch (route) {
    case "get":
      return () => ({ method: "GET", path: `/articles/${any(ids)}` });
    case "list":
      return () => ({ method: "GET", path: "/articles?limit=20" });
    case "create":
      return () => ({ method: "POST", path: "/articles", body: { title: `Bench ${randomBytes(4).toString("hex")}`, body: "one two three", author_id: any(authors) } });
    case "update":
      return () => ({ method: "PATCH", path: `/articles/${any(ids)}`, body: { rating: Math.round(Math.random() * 50) / 10 } });
  }
}

const loadBefore = loadavg()[0]!;
const started = new Date();
const venv = await ensureVenv();
const postgres = await startPostgres();
const projectDir = await prepareBlogProject("config/override.jsonnet", CONFIG);
const running: App[] = [];
try {
  // The generated app first: its launcher creates the tables the others use.
  const generated = await serveBlog(projectDir, venv, postgres.asyncUrl, {}, { countStatements: false });
  running.push({ name: "generated", ...generated });
  await postgres.query(
    `INSERT INTO authors (id, name, email) SELECT gen_random_uuid(), 'Author ' || n, 'author' || n || '@example.com' FROM generate_series(1, ${AUTHORS}) n`,
  );
  await postgres.query(
    `INSERT INTO articles (id, title, body, published, status, word_count, extra, author_id)
     SELECT gen_random_uuid(), 'Article ' || n, repeat('word ', 200), n % 2 = 0, 'draft', 200, '{}', ids[1 + n % ${AUTHORS}]
     FROM generate_series(1, ${ARTICLES}) n, (SELECT array_agg(id) AS ids FROM authors) authors`,
  );
  await postgres.query("ANALYZE");
  if (apps.includes("handwritten")) running.push({ name: "handwritten", ...(await serveScript("handwritten_articles.py", projectDir, venv.python, postgres.asyncUrl, "/articles?limit=1")) });
  if (apps.includes("floor")) running.push({ name: "floor", ...(await serveScript("floor_articles.py", projectDir, venv.python, postgres.asyncUrl, "/articles?limit=1")) });
  if (apps.includes("stack")) running.push({ name: "stack", ...(await serveScript("stack_floor_articles.py", projectDir, venv.python, postgres.asyncUrl, "/articles?limit=1")) });
  const served = apps.map((name) => running.find((app) => app.name === name)!);

  const ids = (await postgres.query("SELECT id FROM articles ORDER BY random() LIMIT 1000")).map((row) => String(row.id));
  const authors = (await postgres.query("SELECT id FROM authors")).map((row) => String(row.id));

  // Same contract: every app answers the same article with the same body.
  const answers = await Promise.all(
    served.map(async (app) => (await fetch(`${app.baseUrl}/articles/${ids[0]}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).json()),
  );
  for (const [index, answer] of answers.entries()) assert.deepEqual(answer, answers[0], `${served[index]!.name} answers another body than ${served[0]!.name}`);

  /** Python calls per request, by route and app (bench/calls.py). */
  const calls = new Map<string, number>();
  if (callRequests > 0) {
    for (const route of routes) {
      for (const app of served.filter((candidate) => serves(candidate.name, route))) {
        const requestsFile = join(projectDir, `calls-${route}-${app.name}.json`);
        await writeFile(requestsFile, JSON.stringify(Array.from({ length: CALLS_WARMUP + callRequests }, requests(route, ids, authors))));
        const args = [CALLS_SCRIPT, "--app", ASGI_APPS[app.name], "--requests", requestsFile, "--warmup", String(CALLS_WARMUP)];
        if (values.profile !== undefined) args.push("--stats", resolve(values.profile, `${route}-${app.name}.pstats`));
        const env = { ...process.env, DATABASE_URL: postgres.asyncUrl, PYTHONPATH: [projectDir, dirname(SERVE_SCRIPT)].join(delimiter), PYTHONDONTWRITEBYTECODE: "1" };
        const result = await runCheck(venv.python, args, projectDir, { env, timeoutMs: CALLS_TIMEOUT_MS });
        const line = /^\{"calls": .*\}$/m.exec(result.output);
        assert.ok(result.ok && line, `bench/calls.py ${app.name} ${route}:\n${result.output}`);
        calls.set(`${route} ${app.name}`, (JSON.parse(line[0]) as { calls: number }).calls);
      }
    }
  }

  const agents = new Map(served.map((app) => [app.name, loadAgent(clients)]));
  const run = (app: App, route: RouteName, ms: number, measured: boolean): Promise<LoadResult> =>
    runLoad({ baseUrl: app.baseUrl, clients, durationMs: ms, next: requests(route, ids, authors), agent: agents.get(app.name)!, serverPid: measured ? app.process.child.pid : undefined });

  for (const route of routes) for (const app of served) if (serves(app.name, route)) await run(app, route, warmupMs, false);

  /** Requests per server CPU second, by route and app, one per round. */
  const perCpu = new Map<string, number[]>();
  const results = new Map<string, LoadResult[]>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? served : [...served].reverse();
    for (const route of routes) {
      for (const app of order.filter((candidate) => serves(candidate.name, route))) {
        const result = await run(app, route, durationMs, true);
        const bad = [...result.statuses].filter(([status]) => status === 0 || status >= 500);
        assert.deepEqual(bad, [], `${app.name} ${route}: ${describeLoad(result)}\n${app.process.output().slice(-5000)}`);
        const key = `${route} ${app.name}`;
        perCpu.set(key, [...(perCpu.get(key) ?? []), result.requests / result.serverCpuSeconds!]);
        results.set(key, [...(results.get(key) ?? []), result]);
        console.error(`round ${round + 1} ${route} ${APPS[app.name]}: ${describeLoad(result)}`);
      }
    }
  }
  for (const agent of agents.values()) agent.destroy();

  const ratio = (route: RouteName, mine: AppName, theirs: AppName): string => {
    const a = perCpu.get(`${route} ${mine}`);
    const b = perCpu.get(`${route} ${theirs}`);
    return a && b ? median(a.map((value, index) => value / b[index]!)).toFixed(2) : "–";
  };
  const figure = (route: RouteName, app: AppName) => (serves(app, route) ? Math.round(median(perCpu.get(`${route} ${app}`)!)).toLocaleString("en-US") : "–");
  const p99 = (route: RouteName, app: AppName) => (serves(app, route) ? median(results.get(`${route} ${app}`)!.map((result) => result.p99Ms)).toFixed(0) : "–");

  console.log(
    `Requests per server CPU second: ${clients} clients, ${rounds} rounds of ${durationMs / 1000} s per route and app, medians. ` +
      `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}; 1-minute load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after; ${started.toISOString()}.\n`,
  );
  const ratios = [
    ...(apps.includes("generated") && apps.includes("handwritten") ? [["generated / hand-written", "generated", "handwritten"] as const] : []),
    ...(apps.includes("generated") && apps.includes("floor") ? [["floor / generated", "floor", "generated"] as const] : []),
    ...(apps.includes("stack") && apps.includes("floor") ? [["floor / stack floor", "floor", "stack"] as const] : []),
  ];
  console.log(`| route | ${apps.map((app) => APPS[app]).join(" | ")} | ${ratios.map(([title]) => title).join(" | ")} | p99 ms (${apps.map((app) => APPS[app]).join(" / ")}) |`);
  console.log(`|---|${apps.map(() => "---:").join("|")}|${ratios.map(() => "---:").join("|")}|---:|`);
  for (const route of routes) {
    const cells = [...apps.map((app) => figure(route, app)), ...ratios.map(([, mine, theirs]) => ratio(route, mine, theirs))];
    console.log(`| ${ROUTES[route]} | ${cells.join(" | ")} | ${apps.map((app) => p99(route, app)).join(" / ")} |`);
  }
  if (calls.size > 0) {
    console.log(`\nPython calls per request, in process over ${callRequests} requests (bench/calls.py):\n`);
    console.log(`| route | ${apps.map((app) => APPS[app]).join(" | ")} |`);
    console.log(`|---|${apps.map(() => "---:").join("|")}|`);
    for (const route of routes) console.log(`| ${ROUTES[route]} | ${apps.map((app) => (serves(app, route) ? Math.round(calls.get(`${route} ${app}`)!).toLocaleString("en-US") : "–")).join(" | ")} |`);
  }
} finally {
  for (const app of running) await app.process.stop();
  await postgres.stop();
  await rm(projectDir, { recursive: true, force: true });
}
