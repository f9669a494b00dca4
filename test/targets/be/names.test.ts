// Names a user may legitimately pick that collide with what generated code uses: fields
// named like Pydantic's own attributes (`copy`, `json`, `model_config`), a model named like
// a generated import (`Page`), a resource named like a handler's variables (`session`).
// Generated code renames its side (aliases, `_row`) and must import, type-check and
// serve OpenAPI. Names that cannot work are config errors at the path the user wrote.

import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError, type Target, discoverTargets, generate, planGeneration } from "../../../src/codegen/index.js";
import { formatPythonFile } from "../../../src/formatters/ruff.js";
import { fieldNameProblem } from "../../../src/targets/be/config/primitives.js";
import { GENERATED_NAMES, modelRef } from "../../../src/targets/be/resource.js";
import { repoRoot } from "../../helpers/user-project.js";
import { runCheck } from "../../support/python.js";
import { type Venv, ensureVenv } from "../../support/venv.js";
import { prepareHostileNamesProject } from "../../e2e/support/projects.js";

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

describe("field names that would shadow what generated schemas read", () => {
  it("every name a golden tree's schema module imports or reads in a class body's annotation is refused as a field name", async () => {
    const golden = join(repoRoot, "test", "golden", "be");
    const read = new Set<string>();
    // The top packages of user modules imported whole (`import blog.models`, for enums): a
    // resource using such a module refuses that name itself (the test below).
    const userPackages = new Set<string>();
    for (const entry of await readdir(golden, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".py") || basename(entry.parentPath) !== "schemas") continue;
      const source = await readFile(join(entry.parentPath, entry.name), "utf8");
      for (const [, name] of fromImports(source)) read.add(name);
      for (const match of source.matchAll(/^import (\w+)$/gm)) read.add(match[1]!);
      for (const match of source.matchAll(/^import (\w+)\.[\w.]+$/gm)) userPackages.add(match[1]!);
      // `    title: Annotated[DbText, column_rules(Article.title)] | None = None`: the annotation's names.
      for (const match of source.matchAll(/^ {4}\w+: (.+?)(?: = .*)?$/gm)) {
        // Strings and keyword names (`Field(ge=1)`) are no reads of a name.
        const code = match[1]!.replace(/"[^"]*"|'[^']*'/g, "").replace(/\b\w+=(?!=)/g, "");
        for (const word of code.matchAll(/(?<![.\w])[A-Za-z_]\w*/g)) if (word[0] !== "None" && !userPackages.has(word[0])) read.add(word[0]);
      }
    }
    assert.ok(["int", "str", "uuid", "datetime", "column_rules", "Annotated", "Field"].every((name) => read.has(name)), [...read].join(", "));
    assert.deepEqual([...userPackages], ["blog"], "the golden schemas spell the blog's enums with their module");
    const accepted = [...read].filter((name) => fieldNameProblem(name) === undefined);
    assert.deepEqual(accepted, [], "golden schemas read these, and a field may still be named so");
  });

  it("a field, param or filter field named like the top package of an enum its resource uses is refused at its path", async () => {
    const status = { name: "status", type: "enum", enum: "shop.models.Status" };
    const error = await configError({
      module: "catalog",
      resources: [
        {
          model: "catalog.models.Item",
          pk_type: "int",
          fields: [...ids, status, { name: "shop", type: "str" }],
          operations: [
            "get",
            { name: "list", type: "list", modifiers: [{ type: "filter", fields: ["status", "shop"] }, { type: "order", fields: ["shop"] }] },
            { name: "tag", type: "action", fn: "catalog.actions.tag", target: "collection", params: [{ name: "shop", type: "int" }] },
          ],
        },
        // Another resource's names are its own: it imports no enum.
        { model: "catalog.models.Shop", pk_type: "int", fields: [...ids, { name: "shop", type: "str" }], operations: ["get"] },
      ],
    });
    assert.deepEqual(error.issues.map((issue) => issue.path), [
      "resources[0].fields[2].name",
      "resources[0].operations[1].modifiers[0].fields[1]",
      "resources[0].operations[2].params[0].name",
    ]);
    assert.match(error.issues[0]!.message, /"shop" is the package of the enum shop\.models\.Status/);
  });

  it("names refused at their config path; names generated code does not read are accepted", async () => {
    const error = await configError({
      module: "shop",
      resources: [{ model: "shop.models.Item", pk_type: "int", fields: [...ids, { name: "float", type: "float" }, { name: "_hidden", type: "str" }, { name: "Item", type: "str" }], operations: ["get"] }],
    });
    assert.deepEqual(error.issues.map((issue) => issue.path), ["resources[0].fields[1].name", "resources[0].fields[2].name", "resources[0].fields[3].name"]);
    for (const name of ["type", "format", "id", "filter", "copy", "json", "model_config", "status", "select"]) assert.equal(fieldNameProblem(name), undefined, name);
  });
});

describe("names generated code renames around", () => {
  it("fields named like BaseModel attributes, a model named Page, a resource named session: the tree imports and serves OpenAPI (pyright: test/e2e/pyright.test.ts)", async () => {
    const project = await prepareHostileNamesProject(join(dir, "hostile"));
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
    const probed = await runCheck(venv.python, ["-W", "error", "-c", probe], project, { env: { ...process.env, PYTHONPATH: project }, timeoutMs: 60_000 });
    assert.ok(probed.ok, probed.output);
    assert.match(probed.output, /'\/pages\/\{pk\}\/stamp'/);
    // pyright: test/e2e/pyright.test.ts.
  });
});

/** Every `from module import a, b as c` of a Python source, as [module, local name] pairs. */
function fromImports(source: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const match of source.matchAll(/^from (\S+) import (\([^)]*\)|[^\n]+)/gm)) {
    for (const item of match[2]!.replace(/[()]/g, "").split(",")) {
      const words = item.trim().split(/\s+/);
      if (words[0]) pairs.push([match[1]!, words[words.length - 1]!]);
    }
  }
  return pairs;
}

describe("model classes named like what generated modules import", () => {
  it("a model CurrentUser: discovery.py spells it with its module, keeping the auth dependency CurrentUser; routes alias it", async () => {
    const file = join(dir, "current-user.json");
    await writeFile(
      file,
      JSON.stringify({
        module: "shop",
        auth: { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify" },
        resources: [
          {
            model: "shop.models.CurrentUser",
            pk_type: "int",
            fields: [{ name: "id", type: "int" }, { name: "name", type: "str" }],
            operations: ["get", { name: "list", type: "list", modifiers: [{ type: "filter", fields: [{ name: "name", values: "free_text" }] }] }],
          },
        ],
      }),
    );
    const { files } = await planGeneration({ target: be, configFile: file, outDir: join(dir, "current-user") });
    const source = (path: string) => files.find((generated) => generated.path === path)!.content;
    const discovery = source("discovery.py");
    assert.deepEqual(fromImports(discovery).filter(([, name]) => name === "CurrentUser"), [["auth.dependencies", "CurrentUser"]]);
    assert.match(discovery, /FreeTextSource\(shop\.models\.CurrentUser\.name, /);
    assert.match(discovery, /current_user: CurrentUser\b/);
    assert.match(source("shop/routes/current_user.py"), /^from shop\.models import CurrentUser as CurrentUserModel$/m);
  });

  it("every class the golden trees' routes, schemas, serializers, discovery.py and indexes.py import from fastapi, typing, sqlalchemy, auth, db or runtime is in GENERATED_NAMES", async () => {
    const golden = join(repoRoot, "test", "golden", "be");
    const checked = new Set<string>();
    for (const entry of await readdir(golden, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name);
      const folder = basename(dirname(path));
      const imports = folder === "routes" || folder === "schemas" || folder === "serializers" || ((entry.name === "discovery.py" || entry.name === "indexes.py") && folder !== "runtime");
      if (!entry.isFile() || !entry.name.endsWith(".py") || !imports) continue;
      for (const [module, name] of fromImports(await readFile(path, "utf8"))) {
        // Models, the resources' own schemas and serializers, and CONSTANTS are named otherwise.
        if (!/^[A-Z][a-z]/.test(name) && !/^[A-Z]{2,}[a-z]/.test(name)) continue;
        if (/\.(models|schemas\.\w+|serializers\.\w+)$/.test(module)) continue;
        assert.ok(GENERATED_NAMES.has(name), `${path} imports ${name} from ${module}: a model named ${name} would clash there`);
        assert.notEqual(modelRef(`shop.models.${name}`).local, name);
        checked.add(name);
      }
    }
    assert.ok(checked.has("CurrentUser") && checked.has("Depends") && checked.has("ValuesPage"), [...checked].join(", "));
  });
});

describe("an app module named like a generated package", () => {
  it("runtime: the app's modules are laid out as ruff would, like any app's (only the helpers are copied as written)", async () => {
    const file = join(dir, "runtime-app.json");
    const long = { name: "a_field_name_long_enough_to_push_its_line_past_the_limit", type: "str", description: "x".repeat(60) };
    await writeFile(
      file,
      JSON.stringify({ module: "runtime", resources: [{ model: "shop.models.Item", pk_type: "int", fields: [{ name: "id", type: "int" }, long], operations: ["get", "list", "create"] }] }),
    );
    const { files } = await planGeneration({ target: be, configFile: file, outDir: join(dir, "runtime-app") });
    const appFiles = files.filter((generated) => /^runtime\/(routes|schemas|serializers)\//.test(generated.path));
    assert.ok(appFiles.length >= 3, appFiles.map((generated) => generated.path).join(", "));
    for (const generated of appFiles) assert.equal(await formatPythonFile(generated.path, generated.content), generated.content, `${generated.path} was not laid out`);
  });
});
