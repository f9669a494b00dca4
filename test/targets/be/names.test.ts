// Names a user may legitimately pick that collide with what generated code uses: fields
// named like Pydantic's own attributes (`copy`, `json`, `model_config`), a model named like
// a generated import (`Page`), a resource named like a handler's variables (`session`).
// Generated code renames its side (aliases, `_row`) and must import, type-check and
// serve OpenAPI. Names that cannot work are config errors at the path the user wrote.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ConfigError, type Target, discoverTargets, generate, planGeneration } from "../../../src/codegen/index.js";
import { pyright } from "../../support/python.js";
import { type Venv, ensureVenv } from "../../support/venv.js";

let be: Target;
let dir: string;
let venv: Venv;
before(async () => {
  be = (await discoverTargets()).find((target) => target.name === "be")!;
  dir = await mkdtemp(join(tmpdir(), "codegen-names-"));
  venv = await ensureVenv();
});
after(() => rm(dir, { recursive: true, force: true }));

async function configError(config: object): Promise<ConfigError> {
  const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(config));
  const error = await planGeneration({ target: be, configFile: file, outDir: join(dir, "never") }).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  return error;
}

const ids = [{ name: "id", type: "int" }];

describe("names that cannot work are config errors at their path", () => {
  it("an action param named session, or current_user with pass_user", async () => {
    const error = await configError({
      module: "shop",
      resources: [
        {
          model: "shop.models.Item",
          pk_type: "int",
          fields: ids,
          operations: [
            { name: "rate", type: "action", fn: "shop.actions.rate", target: "collection", params: [{ name: "session", type: "str" }] },
            { name: "claim", type: "action", fn: "shop.actions.claim", target: "collection", pass_user: true, params: [{ name: "current_user", type: "str" }] },
          ],
        },
      ],
      auth: { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify" },
    });
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      ["resources[0].operations[0].params[0].name", "resources[0].operations[1].params[0].name"],
    );
    assert.match(error.issues[0]!.message, /"session" is taken: the function receives the request's session as session=/);
  });

  it("a resource named __init__, written or derived from the model", async () => {
    const written = await configError({ module: "shop", resources: [{ model: "shop.models.Item", name: "__init__", pk_type: "int", fields: ids, operations: ["get"] }] });
    assert.deepEqual(written.issues.map((issue) => issue.path), ["resources[0].name"]);
    assert.match(written.issues[0]!.message, /special Python name/);
    const derived = await configError({ module: "shop", resources: [{ model: "shop.models.__init__", pk_type: "int", fields: ids, operations: ["get"] }] });
    assert.deepEqual(derived.issues.map((issue) => issue.path), ["resources[0].model"]);
  });

  it("an unknown references names the app's resources, even when another resource is invalid", async () => {
    const error = await configError({
      module: "shop",
      resources: [
        { model: "shop.models.Author", pk_type: "int", fields: ids, operations: ["create"] },
        { model: "shop.models.Book", pk_type: "int", fields: [...ids, { name: "author_id", type: "int", references: "writer" }], operations: ["create", "bogus_key_makes_this_fail"], bogus: 1 },
      ],
    });
    const message = error.issues.find((issue) => issue.path.endsWith("references"))?.message ?? "";
    assert.match(message, /unknown resource "writer"; resources of this app: "author", "book"/);
  });
});

describe("names generated code renames around", () => {
  it("fields named like BaseModel attributes, a model named Page, a resource named session: the tree imports, type-checks and serves OpenAPI", async () => {
    const project = join(dir, "hostile");
    await mkdir(join(project, "shop"), { recursive: true });
    await writeFile(join(project, "shop", "__init__.py"), "");
    await writeFile(
      join(project, "shop", "models.py"),
      [
        "from sqlalchemy import ForeignKey",
        "from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship",
        "",
        "",
        "class Base(DeclarativeBase):",
        "    pass",
        "",
        "",
        "class Page(Base):",
        '    __tablename__ = "pages"',
        "    id: Mapped[int] = mapped_column(primary_key=True)",
        "    copy: Mapped[str]",
        "    json: Mapped[str]",
        "    model_config: Mapped[str]",
        '    session_id: Mapped[int | None] = mapped_column(ForeignKey("sessions.id"))',
        '    session: Mapped["Session | None"] = relationship()',
        "",
        "",
        "class Session(Base):",
        '    __tablename__ = "sessions"',
        "    id: Mapped[int] = mapped_column(primary_key=True)",
        "    schema: Mapped[str]",
        "",
      ].join("\n"),
    );
    await writeFile(join(project, "shop", "actions.py"), "def stamp(page: object, *, copy: str, session: object) -> None:\n    del page, copy, session\n");
    const config = join(project, "config.json");
    await writeFile(
      config,
      JSON.stringify({
        package_prefix: "shop.api",
        module: "content",
        resources: [
          {
            model: "shop.models.Page",
            pk_type: "int",
            fields: [
              { name: "id", type: "int" },
              { name: "copy", type: "str" },
              { name: "json", type: "str" },
              { name: "model_config", type: "str" },
              { name: "session", type: "nested", model: "shop.models.Session", nullable: true, fields: [{ name: "id", type: "int" }, { name: "schema", type: "str" }] },
            ],
            operations: ["get", "list", "create", "update", "delete", { name: "stamp", type: "action", fn: "shop.actions.stamp", target: "instance", params: [{ name: "copy", type: "str" }] }],
          },
          { model: "shop.models.Session", pk_type: "int", fields: [{ name: "id", type: "int" }, { name: "schema", type: "str" }], operations: ["get", "list", "create", "update", "delete"] },
        ],
      }),
    );
    await generate({ target: be, configFile: config, outDir: join(project, "shop", "api") });
    const probe = [
      "from fastapi import FastAPI",
      "from shop.api.content.routes import router",
      "from shop.api.content.schemas.page import PageCreate, PageRead",
      "app = FastAPI()",
      "app.include_router(router)",
      "spec = app.openapi()",
      "props = spec['components']['schemas']['PageCreate']['properties']",
      "assert set(props) == {'copy', 'json', 'model_config'}, props",
      "body = PageCreate.model_validate({'copy': 'a', 'json': 'b', 'model_config': 'c'})",
      "assert body.model_dump(by_alias=True) == {'copy': 'a', 'json': 'b', 'model_config': 'c'}",
      "read = PageRead.model_validate({'id': 1, 'copy': 'a', 'json': 'b', 'model_config': 'c', 'session': None})",
      "assert read.model_dump(by_alias=True)['copy'] == 'a'",
      "print(sorted(spec['paths']))",
    ].join("\n");
    const { stdout } = await promisify(execFile)(venv.python, ["-W", "error", "-c", probe], { cwd: project, env: { ...process.env, PYTHONPATH: project } });
    assert.match(stdout, /'\/pages\/\{pk\}\/stamp'/);
    const types = await pyright(venv, project, ["shop"]);
    assert.ok(types.ok, types.output);
  });
});
