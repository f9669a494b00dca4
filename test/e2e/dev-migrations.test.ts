/**
 * End-to-end: `codegen dev` keeps the database in step with the code, run as a newcomer
 * runs it: `codegen` is the package as `npm pack` makes it, installed as npx installs it,
 * in a directory only root may enter (as root; PostgreSQL runs as its own user). In a `be_root`
 * project served by `codegen dev` (embedded PostgreSQL, real Alembic, uvicorn), a model and
 * a resource with a trigram search are added: dev writes a named migration (the table,
 * `pg_trgm`, the search index) and applies it, and `POST` with an `Idempotency-Key`, `?q=`
 * and `/_values` answer; the `fe_root` front end beside it gets the tags' pages and client.
 * A field added is served, migration included; the generated tests
 * pass against the test database (`codegen test`). A dropped field is not applied: dev says
 * what would be lost, `codegen db migrate` refuses too, and applies it with
 * `--allow-data-loss`. With `--no-migrate`, dev writes and applies no migration for a
 * changed model and says what one would hold. `codegen db url|migrate|reset` work beside
 * dev and without it.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { JsonClient } from "../support/http.js";
import { type PackedInstall, installPacked } from "../support/packed-install.js";
import { expectSearchableTags } from "./support/tags.js";
import { linkNodeModules } from "../support/node-modules.js";
import { freePort } from "../support/ports.js";
import { type RunningProcess, exitWithin, startProcess, until } from "../support/processes.js";
import { ensureVenv } from "../support/venv.js";

let root: string;
let npxCache: string;
let installed: PackedInstall;
let project: string;
let env: NodeJS.ProcessEnv;
let port: number;
const running = new Set<RunningProcess>();

/** `codegen <args>` in the project, as npx runs it: the installed package's command. */
function codegen(...args: string[]): RunningProcess {
  const run = startProcess(installed.bin, args, { cwd: project, env });
  running.add(run);
  return run;
}

/** Runs `codegen <args>` to its end; its status and output. */
async function codegenRun(timeoutMs: number, ...args: string[]): Promise<{ status: number; output: string }> {
  const run = codegen(...args);
  const status = await exitWithin(run, timeoutMs);
  return { status, output: run.output() };
}

const versions = async () => (await readdir(join(project, "migrations", "versions"))).filter((name) => name.endsWith(".py")).sort();

async function edit(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(join(project, file), "utf8");
  const changed = text.replace(from, to);
  assert.notEqual(changed, text, `${file} holds ${from}`);
  await writeFile(join(project, file), changed);
}

before(async () => {
  // As npx's cache under /root: a directory only root may enter.
  npxCache = await mkdtemp(join(tmpdir(), "codegen-dev-migrations-npx-"));
  assert.equal((await stat(npxCache)).mode & 0o777, 0o700);
  const packing = performance.now();
  installed = await installPacked(npxCache);
  process.stderr.write(`# codegen-kit packed and installed in ${((performance.now() - packing) / 1000).toFixed(1)} s\n`);
  root = await mkdtemp(join(tmpdir(), "codegen-dev-migrations-"));
  await chmod(root, 0o755); // PostgreSQL runs as its own user under root
  project = join(root, "shop");
  const venv = await ensureVenv();
  port = await freePort();
  const { DATABASE_URL: _none, TEST_DATABASE_URL: _neither, ...rest } = process.env;
  env = { ...rest, VIRTUAL_ENV: dirname(dirname(venv.python)), NODE_OPTIONS: "", NO_COLOR: "1" };
  await writeFile(join(root, "be_root.jsonnet"), "{ name: 'shop' }\n");
  await mkdir(project);
  const scaffold = await codegenRun(60_000, "generate", "-t", "be_root", "-c", "../be_root.jsonnet", "-o", ".");
  assert.equal(scaffold.status, 0, scaffold.output);
  await edit("config/project.jsonnet", "  package_prefix:", "  generate_tests: true,\n  package_prefix:");
});

after(async () => {
  for (const run of running) await run.stop();
  if (root) await rm(root, { recursive: true, force: true });
  if (npxCache) await rm(npxCache, { recursive: true, force: true });
});

/** The first test's steps, with dev serving. */
async function migrationsWhileServing(dev: RunningProcess): Promise<void> {
  const api = new JsonClient(`http://127.0.0.1:${port}`);
  await until("/ready answered 200", async () => (await fetch(`http://127.0.0.1:${port}/ready`)).ok, [dev], 180_000);
  assert.deepEqual(await versions(), ["0001_initial.py"], "the first migration covers the starter config");
  // A new database gets the seed module's rows.
  assert.match(dev.output(), /codegen dev: the database was empty: seeded it with shop\.seed\.seed/);
  const seeded = await api.get("/notes");
  assert.deepEqual(seeded.body.items.map((item: { title: string }) => item.title).sort(), ["Pinned", "Welcome"]);

  // A model and a resource with a trigram search, saved one file after the other.
  await writeFile(
    join(project, "shop", "models.py"),
    `${await readFile(join(project, "shop", "models.py"), "utf8")}

class Tag(Base):
  __tablename__ = "tags"

  id: Mapped[int] = mapped_column(primary_key=True)
  label: Mapped[str] = mapped_column(unique=True)
`,
  );
  await edit(
    "config/project.jsonnet",
    /\n {2}\],\n\}\n$/,
    `
  {
    model: 'shop.models.Tag',
    pk_type: 'int',
    fields: [f.int('id'), f.str('label')],
    link: { name: 'label' },
    search: { fields: ['label'], strategy: 'trigram' },
    operations: ['get', { name: 'list', modifiers: [{ type: 'filter', fields: [{ name: 'id', values: 'self' }] }] }, { name: 'create', fields: [f.str('label')] }],
  },
],
}
`,
  );
  const savedResource = performance.now();
  await until("GET /tags?q= answered 200", async () => (await fetch(`http://127.0.0.1:${port}/tags?q=x`)).status === 200, [dev], 120_000);
  const resourceMs = performance.now() - savedResource;
  const written = (await versions()).filter((name) => name !== "0001_initial.py");
  assert.ok(written.some((name) => /_create_tags/.test(name)), `a migration named after the new table: ${written.join(", ")}\n${dev.output()}`);
  const migrations = (await Promise.all(written.map((name) => readFile(join(project, "migrations", "versions", name), "utf8")))).join("\n");
  assert.match(migrations, /op\.execute\("CREATE EXTENSION IF NOT EXISTS pg_trgm"\)/);
  assert.match(migrations, /postgresql_ops=\{'label': 'gin_trgm_ops'\}/, "the search's index");
  assert.match(dev.output(), /codegen dev: migration migrations\/versions\/\S+_create_tags\S*\.py written and applied in [\d.]+ s:\n(codegen dev: {3}.*\n)*codegen dev: {3}create table tags\n/);

  // What the migrations hold serves: a POST retried with its Idempotency-Key, ?q= and /_values.
  const first = await expectSearchableTags(api);
  const values = await api.post("/_values", { resource: "tag", field: "id", q: "rout" });
  assert.equal(values.status, 200, JSON.stringify(values.body));
  assert.deepEqual(values.body.values.map((value: { value: number }) => value.value), [first.id]);

  // A field added to a model and the config: served, migration included.
  await edit("shop/models.py", "    pinned: Mapped[bool] = mapped_column(default=False)\n", '    pinned: Mapped[bool] = mapped_column(default=False)\n    priority: Mapped[int] = mapped_column(default=0, server_default="0")\n');
  await edit("config/project.jsonnet", "f.bool('pinned'),", "f.bool('pinned'), f.int('priority'),");
  const savedField = performance.now();
  await until("GET /notes shows priority", async () => {
    const created = await api.post("/notes", { title: "with a priority" });
    return created.status === 201 && created.body.priority === 0;
  }, [dev], 120_000);
  const fieldMs = performance.now() - savedField;
  assert.ok((await versions()).some((name) => /_add_notes_priority\.py$/.test(name)), (await versions()).join(", "));

  // The config names a column the model lacks: dev says where, and does not start the backend
  // on that code.
  await edit("config/project.jsonnet", "f.int('priority'),", "f.int('priority'), f.int('rank'),");
  await until("dev named the missing column", async () => /codegen dev: config\/project\.jsonnet: resources\[0\]\.fields\[\d+\]\.name: shop\.models\.Note has no column or attribute rank\n/.test(dev.output()), [dev], 60_000);
  assert.match(dev.output(), /codegen dev: the backend was not started again; fix this and save again\n/);
  const stale = await api.get("/notes");
  assert.equal(stale.status, 200, dev.output());
  assert.ok(!("rank" in stale.body.items[0]), "the generated code that names rank is not served");

  // The model gets the column (migrated) as actions.py breaks: the application fails to start,
  // dev says why in one line, and nothing listens (a request fails at once instead of hanging).
  const actions = await readFile(join(project, "shop", "actions.py"), "utf8");
  await writeFile(join(project, "shop", "actions.py"), `${actions}\nraise RuntimeError("actions.py is half written")\n`);
  const brokenLine = actions.split("\n").length + 1;
  await edit("shop/models.py", "    priority: Mapped[int]", '    rank: Mapped[int] = mapped_column(default=0, server_default="0")\n    priority: Mapped[int]');
  await until("dev said why the backend stopped", async () => /codegen dev: the backend stopped \(status 1\): RuntimeError: actions\.py is half written \(shop\/actions\.py, line \d+\); it starts again on the next save\n/.test(dev.output()), [dev], 120_000);
  assert.match(dev.output(), new RegExp(`\\(shop/actions\\.py, line ${brokenLine}\\)`));
  assert.match(dev.output(), /codegen dev: {3}add column notes\.rank \(INTEGER\)\n/);
  await assert.rejects(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }), (error: Error) => error.name !== "TimeoutError");

  // The next save starts it again, serving the column.
  await writeFile(join(project, "shop", "actions.py"), actions);
  await until("GET /notes shows rank", async () => {
    const listed = await api.get("/notes");
    return listed.status === 200 && listed.body.items.every((item: { rank?: number }) => item.rank === 0);
  }, [dev], 120_000);

  // The front end followed the backend's document: the tags' pages and client were written.
  await until("the front end has the tags' pages", async () => existsSync(join(project, "frontend", "src", "generated", "tags", "TagList.tsx")), [dev], 60_000);
  assert.match(await readFile(join(project, "frontend", "openapi.json"), "utf8"), /"\/tags"/);
  assert.match(dev.output(), /codegen dev: the backend's OpenAPI document changed: the front end's pages and client were regenerated/);

  // The URL of the running database, and the generated tests against the test database beside it.
  const url = await codegenRun(60_000, "db", "url");
  assert.equal(url.status, 0, url.output);
  assert.match(url.output.trim(), /^postgresql\+asyncpg:\/\/postgres:postgres@127\.0\.0\.1:\d+\/shop$/);
  const tests = await codegenRun(300_000, "test", "--", "-q", "-p", "no:cacheprovider");
  assert.equal(tests.status, 0, tests.output);
  assert.match(tests.output, /created the test database shop_test/);
  assert.match(tests.output, /\d+ passed/);

  // A dropped field: nothing written or applied, and dev says what would be lost.
  const before = await versions();
  await edit("shop/models.py", /    priority: Mapped\[int\].*\n/, "");
  await edit("config/project.jsonnet", "f.int('priority'), ", "");
  await until("dev held back the drop", async () => /a migration would drop column notes\.priority \(INTEGER\), and lose the data in it; nothing was written or applied/.test(dev.output()), [dev], 120_000);
  assert.deepEqual(await versions(), before, "no migration was written");
  const refused = await codegenRun(120_000, "db", "migrate");
  assert.equal(refused.status, 1, refused.output);
  assert.match(refused.output, /drop column notes\.priority/);
  assert.match(refused.output, /codegen db migrate --allow-data-loss/);
  const allowed = await codegenRun(120_000, "db", "migrate", "--allow-data-loss");
  assert.equal(allowed.status, 0, allowed.output);
  assert.match(allowed.output, /migration migrations\/versions\/\S+_drop_notes_priority\.py written and applied/);

  process.kill(-dev.child.pid!, "SIGINT");
  assert.equal(await exitWithin(dev, 60_000), 0, dev.output());
  process.stderr.write(`# codegen dev: a resource with search saved -> migrated and served in ${(resourceMs / 1000).toFixed(1)} s; a field in ${(fieldMs / 1000).toFixed(1)} s\n`);
}

describe("codegen dev keeps the database in step with the code", () => {
  it("the installed package holds every file its README links to, so the links work on the registry's page", async () => {
    const readme = await readFile(join(installed.packageDir, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(([^)#\s]+)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
    assert.ok(links.some((target) => target.startsWith("docs/")), "the README links to docs/");
    for (const target of links) assert.ok(existsSync(join(installed.packageDir, target)), `${target} is in the package`);
  });

  it("writes, names and applies migrations; holds back a dropped column; codegen test runs on the test database", { timeout: 600_000 }, async () => {
    // A front end made by fe_root beside it: its pages and client follow the backend's document.
    const webPort = await freePort();
    await writeFile(join(root, "fe_root.jsonnet"), `{ name: 'shop-web', title: 'Shop', port: ${webPort}, backend_url: 'http://127.0.0.1:${port}' }\n`);
    await mkdir(join(project, "frontend"));
    const scaffold = await codegenRun(60_000, "generate", "-t", "fe_root", "-c", "../fe_root.jsonnet", "-o", "frontend");
    assert.equal(scaffold.status, 0, scaffold.output);
    await linkNodeModules(join(project, "frontend"));
    const dev = codegen("dev", "--port", String(port));
    try {
      await migrationsWhileServing(dev);
    } finally {
      await dev.stop();
    }
  });

  it("codegen dev --no-migrate writes and applies no migration for a changed model, and says what one would hold", { timeout: 120_000 }, async () => {
    const before = await versions();
    const models = await readFile(join(project, "shop", "models.py"), "utf8");
    await edit("shop/models.py", "    rank: Mapped[int]", '    shelf: Mapped[int] = mapped_column(default=0, server_default="0")\n    rank: Mapped[int]');
    const started = performance.now();
    const dev = codegen("dev", "--no-migrate", "--no-frontend", "--port", String(port));
    try {
      // Either line ends the wait: an ignored flag writes and applies the migration.
      await until("dev said what it did with the new column", async () => /no migration was written for:|written and applied/.test(dev.output()), [dev], 90_000);
      assert.match(dev.output(), /codegen dev: the models differ from the database; no migration was written for:\ncodegen dev: {3}add column notes\.shelf \(INTEGER\)\ncodegen dev: to write and apply one: codegen db migrate\n/);
      assert.deepEqual(await versions(), before, "no migration was written");
      process.kill(-dev.child.pid!, "SIGINT");
      assert.equal(await exitWithin(dev, 60_000), 0, dev.output());
    } finally {
      await dev.stop();
      await writeFile(join(project, "shop", "models.py"), models);
    }
    process.stderr.write(`# codegen dev --no-migrate: started, planned and stopped in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  });

  it("codegen db without codegen dev: url fails naming why, migrate and reset start the project's database themselves", { timeout: 300_000 }, async () => {
    assert.ok(existsSync(join(project, ".codegen", "postgres", "PG_VERSION")), "the first test made the database");
    const url = await codegenRun(60_000, "db", "url");
    assert.equal(url.status, 1, url.output);
    assert.match(url.output, /codegen db: no database: DATABASE_URL is unset and no codegen dev runs in /);
    const migrate = await codegenRun(120_000, "db", "migrate");
    assert.equal(migrate.status, 0, migrate.output);
    assert.match(migrate.output, /the database is up to date with the models/);
    const unconfirmed = await codegenRun(60_000, "db", "reset");
    assert.equal(unconfirmed.status, 1, unconfirmed.output);
    assert.match(unconfirmed.output, /codegen db: db reset drops every table .* run codegen db reset --yes/);
    const reset = await codegenRun(120_000, "db", "reset", "--yes");
    assert.equal(reset.status, 0, reset.output);
    assert.match(reset.output, /the database was emptied and migrated, then seeded with shop\.seed\.seed/);
    const seeded = await codegenRun(120_000, "db", "seed");
    assert.equal(seeded.status, 0, seeded.output);
    assert.match(seeded.output, /seeded with shop\.seed\.seed/);
    assert.ok(!existsSync(join(project, ".codegen", "dev.lock")), "the lock was released");
    assert.ok(!existsSync(join(project, ".codegen", "postgres", "postmaster.pid")), "the database was stopped");
  });
});
