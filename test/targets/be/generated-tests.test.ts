// `generate_tests`: which test files, tests and fixtures the `be` target writes for a
// config, and the checks of `references`. Through the real pipeline (config file →
// engine → renderers → assembler), on the generated text; test/e2e/generated-tests.test.ts
// runs the generated suites for real.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { z } from "zod";
import { ConfigError, type Target, configIssuesOf, discoverTargets, planGeneration } from "../../../src/codegen/index.js";
import { ProjectConfig } from "../../../src/targets/be/config/schema.js";
import { ruff } from "../../support/python.js";
import { ensureVenv } from "../../support/venv.js";

let dir: string;
let be: Target;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-tests-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

async function files(config: object): Promise<Map<string, string>> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const result = await planGeneration({ target: be, configFile, outDir: join(dir, "out") });
  return new Map(result.files.map((file) => [file.path, file.content]));
}

/** Names of the test functions of a generated test module, in file order. */
function testNames(source: string): string[] {
  return [...source.matchAll(/^async def (test_\w+)\(/gm)].map((match) => match[1]!);
}

/** Names of the fixtures of a generated conftest. */
function fixtureNames(source: string): string[] {
  return [...source.matchAll(/^@pytest(?:_asyncio)?\.fixture[^\n]*\n(?:async )?def (\w+)\(/gm)].map((match) => match[1]!);
}

const author = (extra: object = {}) => ({
  model: "shop.models.Author",
  fields: [
    { name: "id", type: "uuid" },
    { name: "name", type: "str" },
    { name: "email", type: "email" },
  ],
  operations: ["get", "list", "create", "update", "delete"],
  ...extra,
});

const book = (extra: object = {}) => ({
  model: "shop.models.Book",
  fields: [
    { name: "id", type: "int" },
    { name: "title", type: "str" },
    { name: "author_id", type: "uuid", references: "author" },
  ],
  pk_type: "int",
  operations: [
    "get",
    "list",
    "create",
    "update",
    "delete",
    { name: "lend", type: "action", fn: "shop.actions.lend", target: "instance", params: [{ name: "days", type: "int" }] },
    { name: "restock", type: "action", fn: "shop.actions.restock", target: "collection", response: "none" },
  ],
  ...extra,
});

describe("which files", () => {
  test("nothing under tests/ without generate_tests", async () => {
    const generated = await files({ module: "shop", resources: [author(), book()] });
    assert.deepEqual([...generated.keys()].filter((path) => path.includes("/tests/")), []);
  });

  test("a test module per resource with tests, and one conftest with the factories of every creatable resource", async () => {
    const generated = await files({ module: "shop", resources: [author(), book({ generate_tests: true })] });
    assert.deepEqual([...generated.keys()].filter((path) => path.includes("/tests/")).sort(), [
      "shop/tests/__init__.py",
      "shop/tests/conftest.py",
      "shop/tests/test_book.py",
    ]);
    // Packages: pytest names test modules after their app (`shop.tests.test_book`).
    assert.ok(generated.has("shop/__init__.py"));
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.deepEqual(fixtureNames(conftest), ["engine", "connection", "app", "client", "author_body", "make_author", "book_body", "make_book"]);
    assert.match(conftest, /"author_id": \(await make_author\(\)\)\["id"\]/);
    assert.match(conftest, /^def book_body\(make_author: Factory\) -> Factory:$/m);
  });

  test("the test cases of every operation: success and failure paths", async () => {
    const generated = await files({ generate_tests: true, module: "shop", resources: [author(), book()] });
    assert.deepEqual(testNames(generated.get("shop/tests/test_book.py")!), [
      "test_get_book",
      "test_get_book_not_found",
      "test_list_books",
      "test_list_books_rejects_a_bad_limit",
      "test_list_books_rejects_an_unknown_parameter",
      "test_create_book",
      "test_create_book_rejects_a_bad_body",
      "test_update_book",
      "test_update_book_not_found",
      "test_update_book_rejects_a_bad_body",
      "test_delete_book",
      "test_delete_book_not_found",
      "test_lend",
      "test_lend_not_found",
      "test_lend_rejects_bad_params",
      "test_restock",
    ]);
    const source = generated.get("shop/tests/test_book.py")!;
    assert.match(source, /^MISSING = f"\{PATH\}\/0"$/m, "an int key no row has");
    assert.match(source, /response = await client\.post\(f"\{PATH\}\/\{book\['id'\]\}\/lend", json=params\)/);
    assert.match(source, /params = \{"days": 7\}/);
    assert.match(source, /assert response\.status_code == 204, response\.text\n {4}assert response\.content == b""/);
  });
});

describe("what cannot be exercised is left out", () => {
  test("without create, only the tests that need no row", async () => {
    const generated = await files({
      generate_tests: true,
      module: "shop",
      resources: [author({ operations: ["get", "list", "update", "delete", { name: "ping", type: "action", fn: "shop.actions.ping", target: "instance" }] })],
    });
    assert.deepEqual(testNames(generated.get("shop/tests/test_author.py")!), [
      "test_get_author_not_found",
      "test_list_authors",
      "test_list_authors_rejects_a_bad_limit",
      "test_list_authors_rejects_an_unknown_parameter",
      "test_update_author_not_found",
      "test_update_author_rejects_a_bad_body",
      "test_delete_author_not_found",
      "test_ping_not_found",
    ]);
    assert.deepEqual(fixtureNames(generated.get("shop/tests/conftest.py")!), ["engine", "connection", "app", "client"]);
  });

  test("without the key in the read fields, rows cannot be found again", async () => {
    const generated = await files({
      generate_tests: true,
      module: "shop",
      resources: [author({ fields: [{ name: "name", type: "str" }] })],
    });
    const names = testNames(generated.get("shop/tests/test_author.py")!);
    assert.ok(names.includes("test_create_author"));
    for (const name of ["test_get_author", "test_update_author", "test_delete_author"]) assert.ok(!names.includes(name), name);
    assert.ok(names.includes("test_list_authors") && !/make_author/.test(generated.get("shop/tests/test_author.py")!));
  });
});

describe("the conftest", () => {
  test("binds every database's get_session, and creates each distinct model's metadata", async () => {
    const generated = await files({
      generate_tests: true,
      databases: [{ key: "main", default: true }, { key: "stats" }],
      module: "shop",
      resources: [author(), book({ db_key: "stats", fields: [{ name: "id", type: "int" }, { name: "title", type: "str" }] })],
    });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /from db\.main_session import get_session as get_main_session/);
    assert.match(conftest, /from db\.stats_session import get_session as get_stats_session/);
    assert.match(conftest, /app\.dependency_overrides\[get_main_session\] = test_session\n {4}app\.dependency_overrides\[get_main_read_session\] = test_session\n {4}app\.dependency_overrides\[get_stats_session\] = test_session/);
    assert.match(conftest, /^METADATA = tuple\(dict\.fromkeys\(\[Author\.metadata, Book\.metadata\]\)\)$/m);
    assert.match(conftest, /^URL_ENV = "TEST_DATABASE_URL"$/m);
  });

  test("binds each database's read session too (a database with replicas or without), under its database's name", async () => {
    const generated = await files({
      generate_tests: true,
      databases: [{ key: "main", default: true }, { key: "stats", replicas: { max_lag: 2, fallback: "unavailable" } }],
      module: "shop",
      resources: [author(), book({ db_key: "stats", fields: [{ name: "id", type: "int" }, { name: "title", type: "str" }] })],
    });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /^from db\.stats_session import get_read_session as get_stats_read_session$/m);
    const overridden = [...conftest.matchAll(/app\.dependency_overrides\[(\w+)\] = test_session/g)].map((match) => match[1]);
    assert.deepEqual(overridden, ["get_main_session", "get_main_read_session", "get_stats_session", "get_stats_read_session"]);
  });

  test("a multi-app project mounts the app at its prefix and tests its full paths", async () => {
    const generated = await files({
      apps: [
        { config: { module: "shop", resources: [author()], generate_tests: true }, prefix: "/store" },
        { config: { module: "blog", resources: [book({ fields: [{ name: "id", type: "int" }, { name: "title", type: "str" }] })] } },
      ],
    });
    assert.match(generated.get("shop/tests/conftest.py")!, /app\.include_router\(router, prefix="\/store"\)/);
    assert.match(generated.get("shop/tests/test_author.py")!, /^PATH = "\/store\/authors"$/m);
    assert.equal(generated.has("blog/tests/conftest.py"), false);
  });

  test("model classes of the same name in two modules are spelled with their module", async () => {
    const generated = await files({
      generate_tests: true,
      module: "shop",
      resources: [author(), author({ model: "legacy.models.Author", name: "legacy_author", route_prefix: "/legacy-authors" })],
    });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /^import legacy\.models$/m);
    assert.match(conftest, /shop\.models\.Author\.metadata/);
    assert.match(conftest, /legacy\.models\.Author\.metadata/);
  });
});

describe("imports", () => {
  test("a test module or conftest imports only what it uses: int columns, keys referencing other rows (ruff F401)", async () => {
    // A random integer fits any integer column and a referenced row's key comes from its
    // factory: no test of a loan reads a column of Loan, so none may import it.
    const keyed = (model: string, pkType: string, fields: object[]) => ({
      model: `lending.models.${model}`,
      pk_type: pkType,
      fields: [{ name: "id", type: pkType }, ...fields],
      operations: ["get", "list", "create", "update", "delete"],
    });
    const generated = await files({
      generate_tests: true,
      module: "lending",
      resources: [
        keyed("Member", "int", [{ name: "name", type: "str" }]),
        keyed("Copy", "str", [{ name: "shelf", type: "int" }]),
        keyed("Loan", "int", [
          { name: "state", type: "enum", enum: "lending.models.LoanState" },
          { name: "days", type: "int" },
          { name: "member_id", type: "int", references: "member" },
          { name: "copy_id", type: "str", references: "copy" },
        ]),
      ],
    });
    const out = join(dir, "imports");
    const tests = [...generated].filter(([path]) => path.includes("/tests/"));
    assert.ok(tests.some(([path]) => path.endsWith("test_loan.py")));
    for (const [path, content] of tests) {
      await mkdir(dirname(join(out, path)), { recursive: true });
      await writeFile(join(out, path), content);
    }
    const checked = await ruff(await ensureVenv(), out, ["check", "--select", "F401,F821", "lending"]);
    assert.ok(checked.ok, checked.output);
    // An enum's samples are its members' values, read from the class when the tests run.
    const loan = generated.get("lending/tests/test_loan.py")!;
    assert.match(loan, /^import lending\.models$/m);
    assert.match(generated.get("lending/tests/conftest.py")!, /"state": next\(iter\(lending\.models\.LoanState\)\)\.value/);
    assert.match(loan, /value = list\(lending\.models\.LoanState\)\[-1\]\.value/);
  });
});

describe("auth", () => {
  const jwt = { type: "jwt", secret_env: "SHOP_SECRET", verify_credentials_fn: "shop.auth.verify", issuer: "shop", exclude_paths: ["/books*"] };

  test("JWT: a real token minted with the configured key and claims; 401 tests for protected routes only", async () => {
    const generated = await files({ generate_tests: true, auth: jwt, module: "shop", resources: [author({ operations: ["get", { name: "list", require_auth: false }, "create"] }), book()] });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /^SECRET_ENV = "SHOP_SECRET"$/m);
    assert.match(conftest, /"iss": "shop"/);
    assert.match(conftest, /os\.environ\[SECRET_ENV\] = secrets\.token_urlsafe\(64\)/);
    assert.match(conftest, /headers = \{"Authorization": f"Bearer \{access_token\}"\}/);
    assert.ok(fixtureNames(conftest).includes("anonymous_client"));
    const authorTests = testNames(generated.get("shop/tests/test_author.py")!);
    assert.deepEqual(authorTests.filter((name) => name.endsWith("_requires_a_user")), ["test_get_author_requires_a_user", "test_create_author_requires_a_user"]);
    assert.deepEqual(testNames(generated.get("shop/tests/test_book.py")!).filter((name) => name.endsWith("_requires_a_user")), [], "exclude_paths");
  });

  test("JWT with an asymmetric algorithm: a test key of the algorithm's type", async () => {
    const generated = await files({ generate_tests: true, auth: { ...jwt, algorithm: "ES384" }, module: "shop", resources: [author()] });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /key = ec\.generate_private_key\(ec\.SECP384R1\(\)\)/);
    assert.match(conftest, /^def signing_key\(\) -> ec\.EllipticCurvePrivateKey:$/m);
  });

  test("get_current_user_fn: the generated dependency is overridden with a stand-in user", async () => {
    const generated = await files({ generate_tests: true, auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user" }, module: "shop", resources: [author()] });
    const conftest = generated.get("shop/tests/conftest.py")!;
    assert.match(conftest, /^from auth\.dependencies import get_current_user$/m);
    assert.match(conftest, /app\.dependency_overrides\[get_current_user\] = stand_in_user/);
    assert.doesNotMatch(conftest, /access_token/);
    assert.ok(testNames(generated.get("shop/tests/test_author.py")!).includes("test_delete_author_requires_a_user"));
  });
});

describe("references", () => {
  /** The config's issues, none when it generates: references are checked once the operations say which entries create rows. */
  async function issues(config: object): Promise<{ path: string; message: string }[]> {
    const configFile = join(dir, "references.json");
    await writeFile(configFile, JSON.stringify(config));
    const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).then(() => undefined, (caught: unknown) => caught);
    if (error === undefined) return [];
    assert.ok(error instanceof ConfigError, String(error));
    return error.issues.map(({ path, message }) => ({ path, message }));
  }

  test("an unknown resource, one without create, a key of another type, a key not shown: each at its path", async () => {
    const found = await issues({
      module: "shop",
      resources: [
        author({ operations: ["get"] }),
        book({
          fields: [
            { name: "id", type: "int" },
            { name: "writer_id", type: "uuid", references: "writer" },
            { name: "author_id", type: "uuid", references: "author" },
            { name: "shelf_id", type: "str", references: "shelf" },
          ],
        }),
        { model: "shop.models.Shelf", fields: [{ name: "label", type: "str" }], operations: ["create"] },
      ],
    });
    assert.deepEqual(found, [
      { path: "resources[1].fields[1].references", message: 'unknown resource "writer"; resources of this app: "author", "book", "shelf"' },
      { path: "resources[1].fields[3].references", message: 'resource "shelf" has a uuid primary key: a field referencing it must have type "uuid" (this one is "str")' },
    ]);
    // Whether a resource can be created is what its operations declare: known once the rest of the config is valid.
    const uncreatable = await issues({
      module: "shop",
      resources: [author({ operations: ["get"] }), book({ fields: [{ name: "id", type: "int" }, { name: "author_id", type: "uuid", references: "author" }] })],
    });
    assert.deepEqual(uncreatable, [
      { path: "resources[1].fields[1].references", message: 'resource "author" has no create operation: tests create the referenced resource first, through its create route' },
    ]);
    const hidden = await issues({
      module: "shop",
      resources: [
        { model: "shop.models.Shelf", fields: [{ name: "label", type: "str" }], operations: ["create"] },
        book({ fields: [{ name: "id", type: "int" }, { name: "shelf_id", type: "uuid", references: "shelf" }] }),
      ],
    });
    assert.deepEqual(hidden.map((issue) => issue.path), ["resources[1].fields[1].references"]);
    assert.match(hidden[0]!.message, /does not list its primary key "id" in its fields/);
  });

  test("in operation fields and action params; nested fields refuse it", async () => {
    const found = await issues({
      module: "shop",
      resources: [
        author({
          fields: [
            { name: "id", type: "uuid" },
            { name: "books", type: "nested", model: "shop.models.Book", references: "book", fields: [{ name: "title", type: "str", references: "book" }] },
          ],
          operations: [
            "get",
            { name: "create", fields: [{ name: "mentor_id", type: "uuid", references: "mentor" }] },
            { name: "go", type: "action", fn: "shop.actions.go", target: "collection", params: [{ name: "x", type: "int", references: "nobody" }] },
          ],
        }),
      ],
    });
    assert.deepEqual(
      found.map((issue) => issue.path),
      [
        "resources[0].fields[1].references",
        "resources[0].fields[1].fields[0].references",
        "resources[0].operations[1].fields[0].references",
        "resources[0].operations[2].params[0].references",
      ],
    );
  });

  test("required references in a cycle are refused; an optional one breaks it", async () => {
    const chicken = (egg: object) => ({ model: "farm.models.Chicken", fields: [{ name: "id", type: "uuid" }, { name: "egg_id", type: "uuid", references: "egg", ...egg }], operations: ["create"] });
    const egg = { model: "farm.models.Egg", fields: [{ name: "id", type: "uuid" }, { name: "chicken_id", type: "uuid", references: "chicken" }], operations: ["create"] };
    const found = await issues({ module: "farm", resources: [chicken({}), egg] });
    assert.equal(found.length, 1);
    assert.equal(found[0]!.path, "resources[1].operations[0]");
    assert.match(found[0]!.message, /required references form a cycle \(chicken → egg → chicken, through "chicken_id"\)/);
    assert.deepEqual(await issues({ module: "farm", resources: [chicken({ nullable: true }), egg] }), []);
    // Under `apps`, at the path written there.
    const underApps = await issues({ apps: [{ config: { module: "farm", resources: [chicken({}), egg] } }] });
    assert.deepEqual(underApps.map((issue) => issue.path), ["apps[0].config.resources[1].operations[0]"]);
  });

  test("an operation's fields inherit references from the resource field of the same name", async () => {
    const generated = await files({
      generate_tests: true,
      module: "shop",
      resources: [author(), book({ operations: [{ name: "create", fields: [{ name: "title", type: "str" }, { name: "author_id", type: "uuid" }] }] })],
    });
    assert.match(generated.get("shop/tests/conftest.py")!, /"author_id": \(await make_author\(\)\)\["id"\]/);
  });

  test("a bad reference stops generation with a ConfigError naming the file", async () => {
    const configFile = join(dir, "bad-reference.json");
    await writeFile(configFile, JSON.stringify({ module: "shop", resources: [book()] }));
    const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
    assert.ok(error instanceof ConfigError);
    assert.equal(error.file, configFile);
    assert.deepEqual(error.issues.map((issue) => issue.path), ["resources[0].fields[2].references"]);
  });
});
