/**
 * End-to-end: from empty directories to a running full stack, with the commands the
 * scaffolds' READMEs give.
 *
 * 1. `be_root` into an empty directory; a user adds a model and a resource with a trigram
 *    search and a filtered list; `be` generates the API; Alembic writes the migration (the
 *    table, `pg_trgm` first, the search index) and applies it on a real PostgreSQL; uvicorn
 *    serves it; `/openapi.json`, the new routes, `?q=`, `/_values` and a `POST` with an
 *    `Idempotency-Key` answer. ruff and pyright pass on the project. On a database without
 *    `idempotency_keys`, the app refuses to start with a one-line message; `/ready` answers
 *    503 with the same message when a table the routes need goes after startup.
 *    With `auth: true`, the app mounts the token endpoint and its routes want a token.
 * 2. `fe_root` and `fe` into another empty directory; the packages (installed once per
 *    package.json, test/support/node-modules.ts); the pages and `npm run openapi-ts` from
 *    the spec of step 1: user code compiles against the typed client (and a wrong call does
 *    not); typecheck, the formatter check and the build pass.
 * 3. A variant without TanStack Query type-checks and builds; the Vite dev server proxies
 *    the API prefix to the backend of step 1.
 * The steps share state and run in order; `npm install` runs once.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generateWithCli, runCodegen } from "../helpers/codegen-cli.js";
import { JsonClient } from "../support/http.js";
import { expectSearchableTags } from "./support/tags.js";
import { freePort } from "../support/ports.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { linkNodeModules } from "../support/node-modules.js";
import { type RunningProcess, startProcess, waitForHttp } from "../support/processes.js";
import { type CheckResult, pyright, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { NPM, childEnv, run, runFailing } from "./support/frontend.js";


let venv: Venv;
let postgres: Postgres | undefined;
let root: string;
let backend: string;
let frontend: string;
let api: JsonClient;
let server: RunningProcess | undefined;
let backendUrl = "";
const started: RunningProcess[] = [];

before(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-bootstrap-"));
  backend = join(root, "backend");
  frontend = join(root, "frontend");
  await Promise.all([mkdir(backend), mkdir(frontend)]);
  venv = await ensureVenv();
  postgres = await startPostgres();
});

after(async () => {
  for (const proc of started) await proc.stop();
  await postgres?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

function check(result: CheckResult, tool: string): void {
  assert.ok(result.ok, `${tool} failed:\n${result.output}`);
}

describe("from empty directories to a running full stack", () => {
  it("be_root, a new model and resource, be, Alembic: the backend answers over HTTP", { timeout: 180_000 }, async () => {
    await writeFile(join(root, "be_root.jsonnet"), "{ name: 'shop' }\n");
    await generateWithCli(backend, "be_root", "../be_root.jsonnet", ".");
    for (const file of ["pyproject.toml", "alembic.ini", "migrations/env.py", "shop/main.py", "shop/models.py", "config/project.jsonnet"]) {
      assert.ok(existsSync(join(backend, file)), `${file} was scaffolded`);
    }

    // A user adds a model and a resource for it.
    const models = join(backend, "shop", "models.py");
    await writeFile(
      models,
      `${await readFile(models, "utf8")}

class Tag(Base):
    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(primary_key=True)
    label: Mapped[str] = mapped_column(unique=True)
`,
    );
    const configFile = join(backend, "config", "project.jsonnet");
    const config = await readFile(configFile, "utf8");
    const resource = `    {
      model: 'shop.models.Tag',
      pk_type: 'int',
      fields: [f.int('id'), f.str('label')],
      link: { name: 'label' },
      search: { fields: ['label'], strategy: 'trigram' },
      operations: [
        'get',
        { name: 'list', modifiers: [{ type: 'filter', fields: [{ name: 'id', values: 'self' }] }] },
        { name: 'create', fields: [f.str('label')] },
        'delete',
      ],
    },
  ],
}
`;
    assert.match(config, /\n {2}\],\n\}\n$/, "the starter config ends with the resources list");
    await writeFile(configFile, config.replace(/ {2}\],\n\}\n$/, resource));

    // The README's commands: generate, write a migration, apply it.
    const generated = await runCodegen(backend, ["generate", "--target", "be", "--config", "config/project.jsonnet"]);
    assert.equal(generated.code, 0, generated.stderr);
    assert.ok(existsSync(join(backend, "shop", "api", "core", "routes", "tag.py")), "be wrote into the package prefix's directory");

    const env = childEnv({ DATABASE_URL: postgres!.asyncUrl });
    const alembic = join(venv.bin, "alembic");
    // The scaffold's first migration creates notes; the new one only adds tags.
    await run(alembic, ["upgrade", "head"], backend, env);
    await run(alembic, ["revision", "--autogenerate", "-m", "create tags"], backend, env);
    const versions = (await readdir(join(backend, "migrations", "versions"))).filter((name) => name.endsWith(".py") && !name.startsWith("0001_"));
    assert.equal(versions.length, 1, versions.join(", "));
    const migration = await readFile(join(backend, "migrations", "versions", versions[0]!), "utf8");
    assert.doesNotMatch(migration, /op\.create_table\(\s*'notes'/);
    assert.doesNotMatch(migration, /op\.create_table\(\s*'idempotency_keys'/, "the first migration created it");
    assert.match(migration, /op\.create_table\(\s*'tags'/);
    assert.match(migration, /name=op\.f\('uq_tags_label'\)/, "the starter naming convention names constraints");
    // The search's extension comes first, then its index, which uses it.
    const extension = migration.indexOf('op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")');
    const searchIndex = migration.search(/op\.create_index\('ix_tag_search\w*', 'tags', \['label'\].*postgresql_ops=\{'label': 'gin_trgm_ops'\}/);
    assert.ok(extension >= 0 && searchIndex > extension, `pg_trgm, then the trigram index:\n${migration}`);
    assert.match(migration, /op\.execute\("DROP EXTENSION IF EXISTS pg_trgm"\)/, "the downgrade drops it");
    await run(alembic, ["upgrade", "head"], backend, env);
    await run(alembic, ["check"], backend, env); // the database now matches the models

    // Static checks of the whole project, scaffold and generated API alike, in the background.
    const statics = Promise.all([ruffCheck(venv, backend, ["."]), pyright(venv, backend, ["."])]);

    const port = await freePort();
    server = startProcess(venv.python, ["-m", "uvicorn", "shop.main:app", "--host", "127.0.0.1", "--port", String(port)], { cwd: backend, env });
    started.push(server);
    backendUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${backendUrl}/openapi.json`, server);
    api = new JsonClient(backendUrl);

    const spec = await api.get("/openapi.json");
    assert.equal(spec.status, 200);
    assert.equal(spec.body.info.title, "shop");
    for (const path of ["/notes", "/notes/{pk}", "/tags", "/tags/{pk}"]) assert.ok(path in spec.body.paths, `${path} is served`);
    await writeFile(join(root, "openapi.json"), JSON.stringify(spec.body, null, 2));

    const tag = await api.post("/tags", { label: "urgent" });
    assert.equal(tag.status, 201, JSON.stringify(tag.body));
    assert.equal(typeof tag.body.id, "number");
    const fetched = await api.get(`/tags/${tag.body.id}`);
    assert.deepEqual([fetched.status, fetched.body], [200, { id: tag.body.id, label: "urgent" }]);
    assert.equal((await api.post("/tags", { label: "urgent" })).status, 409, "the unique constraint from the migration holds");
    const note = await api.post("/notes", { title: "Buy milk" });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.equal(note.body.body, "");
    assert.ok(Date.parse(note.body.created_at) > 0, "created_at comes from the database default");
    // The starter's list is newest first, not in the random order of uuid keys.
    const later = await api.post("/notes", { title: "Call the plumber" });
    assert.equal(later.status, 201, JSON.stringify(later.body));
    const listed = await api.get("/notes");
    assert.deepEqual(listed.body.items.slice(0, 2).map((item: { id: string }) => item.id), [later.body.id, note.body.id]);

    // What the migration holds serves: a POST retried with its Idempotency-Key, ?q= and /_values.
    await expectSearchableTags(api);
    const values = await api.post("/_values", { resource: "tag", field: "id", q: "urgen" });
    assert.equal(values.status, 200, JSON.stringify(values.body));
    assert.deepEqual(values.body.values.map((value: { value: number }) => value.value), [tag.body.id]);

    // /ready says what the startup check says: a table the routes need, gone after startup.
    assert.equal((await api.get("/ready")).status, 200);
    await postgres!.query("ALTER TABLE tags RENAME TO tags_aside");
    try {
      const ready = await api.get("/ready");
      assert.equal(ready.status, 503, JSON.stringify(ready.body));
      assert.match(ready.body.detail, /^the database in DATABASE_URL lacks what the routes need: table tags\. Apply the migrations with `alembic upgrade head`/);
    } finally {
      await postgres!.query("ALTER TABLE tags_aside RENAME TO tags");
    }
    assert.equal((await api.get("/ready")).status, 200, "ready again once the table is back");

    const [ruff, types] = await statics;
    check(ruff, "ruff check");
    check(types, "pyright");
  });

  it("the app refuses to start on a database without idempotency_keys, in one line that says how to fix it", { timeout: 90_000 }, async () => {
    assert.ok(backendUrl, "the project of the first step is migrated");
    await postgres!.query("CREATE DATABASE unmigrated");
    const url = postgres!.asyncUrl.replace(/\/[^/]+$/, "/unmigrated");
    const env = childEnv({ DATABASE_URL: url });
    await run(join(venv.bin, "alembic"), ["upgrade", "head"], backend, env);
    const drop = `import asyncio, asyncpg\nasync def main():\n    connection = await asyncpg.connect(${JSON.stringify(postgres!.url.replace(/\/[^/]+$/, "/unmigrated"))})\n    await connection.execute("DROP TABLE idempotency_keys")\n    await connection.close()\nasyncio.run(main())`;
    await run(venv.python, ["-c", drop], backend);

    const port = await freePort();
    const app = startProcess(venv.python, ["-m", "uvicorn", "shop.main:app", "--host", "127.0.0.1", "--port", String(port)], { cwd: backend, env });
    started.push(app);
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      app.exitCode,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`uvicorn did not exit within 60 s:\n${app.output()}`)), 60_000);
      }),
    ]).finally(() => clearTimeout(timer));
    assert.notEqual(code, 0, app.output());
    const line = app.output().split("\n").find((text) => text.includes("lacks what the routes need"));
    assert.ok(line, `no message names what is missing:\n${app.output()}`);
    assert.match(line, /the database in DATABASE_URL lacks what the routes need: table idempotency_keys\. Apply the migrations with `alembic upgrade head`; when none creates them, write one with `alembic revision --autogenerate` first$/);
  });

  it("be_root with auth: main.py mounts the token endpoint, and handlers require a token", { timeout: 120_000 }, async () => {
    const project = join(root, "backend-auth");
    await mkdir(project);
    await writeFile(join(root, "be_root-auth.jsonnet"), "{ name: 'vault', auth: true }\n");
    await generateWithCli(project, "be_root", "../be_root-auth.jsonnet", ".");
    const generated = await runCodegen(project, ["generate", "--target", "be", "--config", "config/project.jsonnet"]);
    assert.equal(generated.code, 0, generated.stderr);
    // A URL that leads nowhere: the token endpoint counts attempts in the database before it
    // checks a password, so it answers 503; a handler refuses a missing token before any query.
    const env = childEnv({ DATABASE_URL: "postgresql+asyncpg://nobody:nothing@127.0.0.1:9/none", JWT_SECRET: "s".repeat(64) });
    const output = await run(
      venv.python,
      [
        "-c",
        [
          "from fastapi.testclient import TestClient",
          "from vault.main import app",
          "with TestClient(app) as client:",
          "    token = client.post('/auth/token', data={'username': 'ada', 'password': 'secret'})",
          "    notes = client.get('/notes')",
          "    print(token.status_code, notes.status_code, notes.headers.get('www-authenticate'))",
        ].join("\n"),
      ],
      project,
      env,
    );
    assert.match(output, /^503 401 Bearer$/m, output);
  });

  it("fe_root and fe, npm install, openapi-ts: a typed client that compiles, and a build", { timeout: 300_000 }, async () => {
    assert.ok(backendUrl, "the backend of the first step is running");
    await writeFile(join(root, "fe_root.jsonnet"), `{ name: 'shop-web', title: 'Shop', backend_url: '${backendUrl}' }\n`);
    await generateWithCli(frontend, "fe_root", "../fe_root.jsonnet", ".");

    // The README's commands: save the document, generate the pages and the client.
    await writeFile(join(frontend, "openapi.json"), await readFile(join(root, "openapi.json"), "utf8"));
    await generateWithCli(frontend, "fe", "config/fe.jsonnet", ".");
    assert.match(await readFile(join(frontend, "openapi-ts.config.ts"), "utf8"), /input: "openapi\.json"/);
    for (const page of ["tags/TagList.tsx", "tags/TagCreate.tsx", "notes/NoteEdit.tsx", "App.tsx"]) {
      assert.ok(existsSync(join(frontend, "src", "generated", page)), `src/generated/${page} was generated`);
    }

    await linkNodeModules(frontend);
    await run(NPM, ["run", "openapi-ts"], frontend);
    for (const file of ["index.ts", "sdk.gen.ts", "types.gen.ts", "client.gen.ts", "@tanstack/react-query.gen.ts"]) {
      assert.ok(existsSync(join(frontend, "src", "client", file)), `src/client/${file} was written`);
    }
    assert.match(await readFile(join(frontend, "src", "client", "types.gen.ts"), "utf8"), /export type TagRead = \{/);
    assert.match(await readFile(join(frontend, "src", "client", "client.gen.ts"), "utf8"), /baseUrl: '\/api'/);

    // User code against the client: typed calls and TanStack Query options.
    await writeFile(
      join(frontend, "src", "tags.ts"),
      `import { useQuery } from "@tanstack/react-query";

import { type TagRead, createTag, listTags } from "./client";
import { listTagsOptions } from "./client/@tanstack/react-query.gen";

export async function addTag(label: string): Promise<TagRead> {
  const { data } = await createTag({ body: { label }, throwOnError: true });
  return data;
}

export async function tagLabels(): Promise<string[]> {
  const { data } = await listTags({ query: { limit: 10 }, throwOnError: true });
  return data.items.map((tag) => tag.label);
}

export function useTags() {
  return useQuery(listTagsOptions());
}
`,
    );
    // The client is typed: a body the backend would reject does not compile. One type-check
    // shows both that and that the rest compiles: tsc reports every file's errors, and only
    // src/wrong.ts has any.
    await writeFile(join(frontend, "src", "wrong.ts"), `import { createTag } from "./client";\n\nvoid createTag({ body: { name: "x" } });\n`);
    const typecheck = await runFailing(NPM, ["run", "typecheck"], frontend);
    const errors = typecheck.split("\n").filter((line) => /\berror TS\d+/.test(line));
    assert.ok(errors.length > 0, typecheck);
    for (const error of errors) assert.match(error, /^src\/wrong\.ts\(3,\d+\): error TS\d+/, typecheck);
    await rm(join(frontend, "src", "wrong.ts"));
    await run(NPM, ["run", "format:check"], frontend);

    await run(NPM, ["run", "build"], frontend);
    assert.match(await readFile(join(frontend, "dist", "index.html"), "utf8"), /<title>Shop<\/title>/);
    assert.ok((await readdir(join(frontend, "dist", "assets"))).some((name) => name.endsWith(".js")), "a JavaScript bundle");
  });

  it("a front end without TanStack Query, with another prefix and port, type-checks and builds too", { timeout: 60_000 }, async () => {
    assert.ok(existsSync(join(frontend, "node_modules", "vite")), "the front end was installed");
    const plain = join(root, "frontend-plain");
    await mkdir(plain);
    await writeFile(
      join(root, "fe_root-plain.jsonnet"),
      "{ name: '@acme/admin', api_prefix: '/backend/v1', port: 3000, tanstack_query: false }\n",
    );
    await generateWithCli(plain, "fe_root", "../fe_root-plain.jsonnet", ".");
    // The same pinned packages minus TanStack Query and React Router: the first project's install serves this one too.
    await symlink(join(frontend, "node_modules"), join(plain, "node_modules"), "dir");
    assert.doesNotMatch(await readFile(join(plain, "src", "main.tsx"), "utf8"), /QueryClient/);
    await run(NPM, ["run", "typecheck"], plain);
    await run(NPM, ["run", "build"], plain);
  });

  it("the Vite dev server passes /api to the backend", { timeout: 60_000 }, async () => {
    assert.ok(existsSync(join(frontend, "node_modules", "vite")), "the front end was installed");
    const port = await freePort();
    const vite = startProcess(process.execPath, [join("node_modules", "vite", "bin", "vite.js"), "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
      cwd: frontend,
      env: childEnv(),
    });
    started.push(vite);
    const devUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${devUrl}/`, vite, 30_000);
    const dev = new JsonClient(devUrl);
    const tags = await dev.get("/api/tags");
    assert.equal(tags.status, 200, JSON.stringify(tags.body));
    assert.deepEqual(
      tags.body.items.map((tag: { label: string }) => tag.label).sort(),
      ["routine", "urgent"],
    );
    const page = await fetch(`${devUrl}/`);
    assert.match(await page.text(), /<title>Shop<\/title>/);
    await vite.stop();
  });
});
