import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { generate, planGeneration } from "../../src/codegen/generate.js";
import { formatManifest, readManifest } from "../../src/codegen/manifest.js";
import { getOperationMeta } from "../../src/codegen/operation.js";
import { StaticFile } from "../../src/codegen/outputs.js";
import { entryPoints } from "../../src/codegen/plugins.js";
import { loadRegistry } from "../../src/codegen/registry.js";
import { discoverTargets, type Target } from "../../src/codegen/target.js";
import { type RecordedFile, sha256 } from "../../src/codegen/prune.js";
import type { GeneratedFile } from "../../src/codegen/writer.js";
import { FIXTURE_PACKAGE, createUserProject, installPackage, removeTempDirs, repoRoot, snapshot } from "../helpers/user-project.js";

// The fixture package (test/fixtures/plugin) installed in a temp user project, as a
// third-party plugin would be: two targets side by side, plus an operation it adds to
// greeter's group from shouter's directory.

let project: string;
let examples: string;

before(async () => {
  project = await createUserProject();
  examples = path.join(project, "node_modules", FIXTURE_PACKAGE, "examples");
});

after(removeTempDirs);

/** What the manifest records for the generated file at `file`. */
function recorded(files: readonly GeneratedFile[], file: string): RecordedFile {
  return { path: file, sha256: sha256(files.find((candidate) => candidate.path === file)!.content) };
}

async function target(name: string, cwd = project): Promise<Target> {
  const found = (await discoverTargets({ cwd })).find((candidate) => candidate.name === name);
  assert.ok(found, `target ${name} not discovered`);
  return found;
}

const opNames = async (group: string, cwd = project) => (await loadRegistry(group, { cwd })).entries.map(([meta]) => meta.name);

/** The files the `be` target plans for `configFile` in the user project at `cwd`. */
async function planBe(configFile: string, cwd = project): Promise<GeneratedFile[]> {
  return (await planGeneration({ target: await target("be", cwd), configFile, cwd })).files;
}

/** The content of the planned file at `file`. */
function contentOf(files: readonly GeneratedFile[], file: string): string {
  const found = files.find((candidate) => candidate.path === file);
  assert.ok(found, `${file} is not planned`);
  return found.content;
}

describe("the engine seen from a plugin", () => {
  it('resolves "codegen-kit" to src/ under the codegen-source condition, as the dist→src mapping does', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
    const root = pkg.exports["."];
    assert.equal(root["codegen-source"], "./src/codegen/index.ts");
    // plugins.ts loads this package's `./dist/X.js` entries from `./src/X.ts` when running from source.
    assert.equal(root.default.replace(/^\.\/dist\/(.+)\.js$/, "./src/$1.ts"), root["codegen-source"]);
    assert.equal(root.types, root.default.replace(/\.js$/, ".d.ts"));
    for (const group of Object.values(pkg.codegen as Record<string, Record<string, string>>)) {
      for (const specifier of Object.values(group)) {
        const module = specifier.split("#")[0];
        assert.match(module, /^\.\/dist\/.+\.js$/, specifier);
        assert.ok(existsSync(path.join(repoRoot, module.replace(/^\.\/dist\/(.+)\.js$/, "src/$1.ts"))), `no source for ${specifier}`);
      }
    }
  });

  it("gives a plugin the same engine classes the tests use", async () => {
    const probe = await createUserProject({ fixture: false });
    await installPackage(probe, "probe", { codegen: { "probe.things": { staticFile: "./probe.ts#StaticFile" } } }, {
      "probe.ts": 'export { StaticFile } from "codegen-kit";\n',
    });
    const [entry] = await entryPoints("probe.things", { cwd: probe });
    const { loadEntryPoint } = await import("../../src/codegen/plugins.js");
    assert.equal(await loadEntryPoint(entry), StaticFile);
  });
});

describe("fixture plugin: discovery", () => {
  it("finds both targets of the installed package", async () => {
    const names = (await discoverTargets({ cwd: project })).map((found) => found.name);
    assert.ok(names.includes("greeter") && names.includes("shouter"), names.join(", "));
    assert.ok(names.indexOf("greeter") < names.indexOf("shouter"), "manifest order is discovery order");
    const greeter = await target("greeter");
    assert.equal(greeter.configClass, "greeter.config.GreeterConfig");
    assert.equal(greeter.language, "typescript");
    assert.equal(greeter.operationsEntryPoint, "greeter.operations");
    assert.equal(path.basename(greeter.jsonnetStdlibDir!), "greeter");
    assert.ok(existsSync(path.join(greeter.templateDir, "greeting.ts.njk")));
    const shouter = await target("shouter");
    assert.equal(shouter.operationsEntryPoint, "shouter.operations");
    assert.equal(path.basename(shouter.jsonnetStdlibDir!), "shouter");
  });

  it("finds neither target where the package is not installed, and still finds codegen's own", async () => {
    const bare = await createUserProject({ fixture: false });
    const names = (await discoverTargets({ cwd: bare })).map((found) => found.name);
    assert.deepEqual(names, ["be", "be_root", "fe", "fe_root"]);
  });
});

describe("fixture plugin: operation groups", () => {
  it("loads greeter's operations, plus the one contributed to its group, and none of shouter's", async () => {
    assert.deepEqual(await opNames("greeter.operations"), ["greeting", "readme", "shouted_greeting"]);
  });

  it("loads shouter's operations and none of greeter's", async () => {
    assert.deepEqual(await opNames("shouter.operations"), ["shout", "package"]);
  });

  it("gives a fresh registry on every call", async () => {
    const first = await loadRegistry("greeter.operations", { cwd: project });
    const second = await loadRegistry("greeter.operations", { cwd: project });
    assert.notEqual(first, second);
    assert.notEqual(first.entries, second.entries);
    assert.deepEqual(
      first.entries.map(([, cls]) => cls),
      second.entries.map(([, cls]) => cls),
    );
  });

  it("orders the contributed operation after the one it requires", async () => {
    const registry = await loadRegistry("greeter.operations", { cwd: project });
    const contributed = registry.entries.find(([meta]) => meta.name === "shouted_greeting")!;
    assert.deepEqual(getOperationMeta(contributed[1])?.requires, ["greeting"]);
    assert.deepEqual(
      registry.sortedByScope().get("person")!.map(([meta]) => meta.name),
      ["greeting", "shouted_greeting"],
    );
  });

  it("lets another package add an operation to one target without the other seeing it", async () => {
    const extended = await createUserProject();
    await installPackage(extended, "shouter-echo", { codegen: { "shouter.operations": { echo: "./echo.ts#EchoOp" } } }, {
      "echo.ts": [
        'import { StaticFile, operation, type BuildContext } from "codegen-kit";',
        "",
        '@operation("echo", { scope: "word" })',
        "export class EchoOp {",
        "  build(ctx: BuildContext) {",
        '    return [new StaticFile({ path: `echo/${ctx.instance.name}.txt`, template: "", banner: false })];',
        "  }",
        "}",
        "",
      ].join("\n"),
    });
    assert.deepEqual(await opNames("shouter.operations", extended), ["shout", "package", "echo"]);
    assert.deepEqual(await opNames("greeter.operations", extended), ["greeting", "readme", "shouted_greeting"]);
    const files = (await planGeneration({ target: await target("shouter", extended), configFile: path.join(examples, "shouter.jsonnet"), cwd: extended })).files;
    assert.deepEqual(
      files.map((file) => file.path),
      ["__init__.py", "echo/hey.txt", "echo/ho.txt", "hey.py", "ho.py"],
    );
  });
});

describe("fixture plugin: generation", () => {
  it("generates greeter's files only, from its example config and jsonnet stdlib", async () => {
    const out = path.join(project, "greeter-out");
    const result = await generate({ target: await target("greeter"), configFile: path.join(examples, "greeter.jsonnet"), outDir: out, cwd: project });
    assert.equal(result.written, 5);
    const banner = "// Generated by codegen. Do not edit: run `codegen generate --target greeter` to regenerate.\n";
    assert.deepEqual(await snapshot(out), {
      // README.md and CHANGELOG.md have the skip policy: the user's once written, never recorded.
      ".codegen-manifest.json": formatManifest(
        new Map([["greeter", ["greetings/ada.ts", "greetings/grace_hopper.ts", "index.ts"].map((file) => recorded(result.files, file))]]),
        (await readManifest(out)).runs,
      ),
      "CHANGELOG.md": "",
      "README.md": "# Greetings\n\nThis package exports one function per person:\n\n- `greetAda()`\n- `greetGraceHopper()`\n",
      greetings: "<dir>",
      "greetings/ada.ts":
        `${banner}/** The greeting lines for ada. */\nexport function greetAda(): string[] {\n  return [\n    "Hello, Ada!",\n    "HELLO, ADA!",\n  ];\n}\n`,
      "greetings/grace_hopper.ts":
        `${banner}/** The greeting lines for grace_hopper. */\nexport function greetGraceHopper(): string[] {\n  return [\n    "Hi, GraceHopper!",\n    "HI, GRACEHOPPER!",\n  ];\n}\n`,
      "index.ts":
        `${banner}import { greetAda } from "./greetings/ada.js";\nimport { greetGraceHopper } from "./greetings/grace_hopper.js";\n\n` +
        "/** Every greeting function, in config order. */\nexport const greetings = [greetAda, greetGraceHopper];\n",
    });
  });

  it("generates shouter's files only, into its package prefix by default", async () => {
    const result = await generate({ target: await target("shouter"), configFile: path.join(examples, "shouter.jsonnet"), cwd: project });
    assert.equal(result.outDir, path.join(project, "shouts"));
    const banner = "# Generated by codegen. Do not edit: run `codegen generate --target shouter` to regenerate.\n";
    assert.deepEqual(await snapshot(result.outDir), {
      ".codegen-manifest.json": result.manifest!.content,
      "__init__.py": "",
      "hey.py": `${banner}def hey() -> str:\n    """Shout hey, 1 time(s)."""\n    return " ".join(["HEY!"] * 1)\n`,
      "ho.py": `${banner}def ho() -> str:\n    """Shout ho, 3 time(s)."""\n    return " ".join(["HO!"] * 3)\n`,
    });
  });

  it("validates each target's config against its own schema only", async () => {
    const [greeter, shouter] = [await target("greeter"), await target("shouter")];
    await assert.rejects(
      planGeneration({ target: greeter, configFile: path.join(examples, "shouter.jsonnet"), stdlibTargets: [greeter, shouter], cwd: project }),
      /shouter\.jsonnet: invalid configuration for target "greeter"\n {2}words: unknown key/,
    );
  });

  it("keeps each target's jsonnet stdlib under its own name", async () => {
    // Only the generated target's stdlib is importable unless others are passed.
    await assert.rejects(
      planGeneration({ target: await target("shouter"), configFile: path.join(examples, "greeter.jsonnet"), cwd: project }),
      /greeter\/people\.libsonnet/,
    );
  });
});

describe("fixture plugin: a list modifier for the be target", () => {
  it("registers through the manifest and amends the list's query through its handle", async () => {
    assert.ok((await opNames("be.operations")).includes("exclude_deleted"));
    const routes = contentOf(await planBe(path.join(examples, "soft-deleted.jsonnet")), "catalog/routes/product.py");
    // Filtered or searched, every page leaves deleted rows out.
    assert.match(routes, /statement = PRODUCT_READ_ROWS\.where\(\*where, Product\.deleted_at\.is_\(None\)\)/);
  });

  it("is validated like a built-in modifier, and unknown without the package", async () => {
    const config = path.join(project, "bad-soft-deleted.json");
    const broken = { package_prefix: "shop.api", module: "catalog", resources: [{ model: "shop.models.Product", fields: [{ name: "id", type: "uuid" }, { name: "title", type: "str" }], operations: [{ name: "list", modifiers: [{ type: "exclude_deleted", column: "title" }] }] }] };
    await writeFile(config, JSON.stringify(broken));
    await assert.rejects(planBe(config), /resources\[0\]\.operations\[0\]\.modifiers\[0\]\.column: "title" must be a datetime column/);
    const bare = await createUserProject({ fixture: false });
    await assert.rejects(planBe(path.join(examples, "soft-deleted.jsonnet"), bare), /modifiers\[0\]\.type: unknown modifier "exclude_deleted"; expected one of: filter, order, paginate/);
  });
});

describe("fixture plugin: an endpoint operation for the be target", () => {
  const example = () => path.join(examples, "bulk-delete.jsonnet");

  /** Writes `name`: the fixture's bulk-delete example (`base`) amended by the jsonnet expression `amended`. */
  async function amendedExample(name: string, amended: string): Promise<string> {
    const config = path.join(project, name);
    await writeFile(config, `local base = import '${example()}';\n${amended}`);
    return config;
  }

  /** Plans the bulk-delete example in a project whose `bulk_delete` operation is `source`, a variant of the fixture's. */
  async function planWithOperation(source: string): Promise<GeneratedFile[]> {
    const rogue = await createUserProject({ fixture: false });
    await installPackage(rogue, "rogue", { codegen: { "be.operations": { bulk_delete: "./bulk-delete.ts#BulkDelete" } } }, { "bulk-delete.ts": source });
    return planBe(example(), rogue);
  }

  const fixtureSource = () => readFile(path.join(examples, "..", "be-addon", "bulk-delete.ts"), "utf8");

  it("gets auth, the project's rate limit, documented errors and generated tests, with no list naming it", async () => {
    assert.ok((await opNames("be.operations")).includes("bulk_delete"));
    const files = await planBe(example());
    const routes = contentOf(files, "catalog/routes/product.py");
    assert.match(routes, /"\/bulk-delete",\n {4}operation_id="bulkDeleteProducts",\n {4}max_body_size=65_536,\n {4}dependencies=\[Depends\(limit_bulk_delete_products\)\],\n {4}responses=error_responses\(400, 401, 409, 413, 429, 503\),/);
    assert.match(routes, /async def bulk_delete_products\(\n {4}ids: .*,\n {4}session: SessionDep,\n {4}current_user: CurrentUser,\n\)/);
    assert.match(contentOf(files, "rate_limits.py"), /# POST \/products\/bulk-delete\nlimit_bulk_delete_products = RateLimit\(\n {4}"catalog.bulk_delete_products", "3\/minute"/);
    assert.match(contentOf(files, "catalog/tests/test_product.py"), /async def test_bulk_delete_product_requires_a_user\([^)]*\) -> None:\n {4}"""``POST \/products\/bulk-delete`` answers 401 without a token\."""\n {4}response = await anonymous_client\.post\(PATH \+ "\/bulk-delete"\)/);
  });

  it("takes the post hook its route declares, called once the delete is committed, and documents its 409", async () => {
    const hooked = await amendedExample("bulk-delete-hooked.jsonnet", "base { resources: [base.resources[0] { operations: ['get', 'create', { name: 'bulk_delete', post: 'shop.hooks.record_deleted' }] }] }");
    const files = await planBe(hooked);
    const routes = contentOf(files, "catalog/routes/product.py");
    assert.match(routes, /\nfrom shop\.api\.runtime\.hooks import after_commit\n/);
    assert.match(routes, /responses=error_responses\(400, 401, 409, 413, 429, 503\)/);
    assert.match(
      routes,
      / {4}await session\.commit\(\)\n {4}for row in deleted:\n {8}await after_commit\(\n? *shop\.hooks\.record_deleted, row, session=session, current_user=current_user\n? *\)\n {4}return \{"deleted": len\(deleted\)\}/,
    );
    assert.ok(files.some((file) => file.path === "runtime/hooks.py"), "the tree gets the hook runner");
    assert.doesNotMatch(contentOf(await planBe(example()), "catalog/routes/product.py"), /after_commit/);
    // `pre` is no key of its options, and `serializer` neither: refused at their paths.
    for (const key of ["pre", "serializer"]) {
      const config = await amendedExample(`bulk-delete-${key}.jsonnet`, `base { resources: [base.resources[0] { operations: [{ name: 'bulk_delete', ${key}: 'shop.hooks.p' }] }] }`);
      await assert.rejects(planBe(config), new RegExp(`resources\\[0\\]\\.operations\\[0\\]\\.${key}: `), key);
    }
  });

  it("is validated at the path its route declares: a per-user limit where exclude_paths leaves it without a user", async () => {
    const config = await amendedExample("bulk-delete-excluded.jsonnet", "base { auth+: { exclude_paths: ['/products/bulk-delete'] }, rate_limit: { limit: '3/minute', key: 'user' } }");
    const error = await planBe(config).catch((caught: unknown) => caught);
    const issues = (error as { issues?: { path: string; message: string }[] }).issues?.map((issue) => `${issue.path}: ${issue.message}`);
    assert.deepEqual(issues, ['resources[0].operations[2]: rate_limit (from the project) is keyed by "user", but its path "/products/bulk-delete" matches exclude_paths entry "/products/bulk-delete"']);
  });

  it("gets a telemetry span and the resource's group check too", async () => {
    const config = await amendedExample("bulk-delete-traced.jsonnet", "base + { telemetry: { service_name: 'shop' }, resources: [super.resources[0] { groups: ['staff'] }] }");
    const routes = contentOf(await planBe(config), "catalog/routes/product.py");
    assert.match(routes, /\n@traced\("product", "bulk_delete"\)\nasync def bulk_delete_products\(/);
    assert.match(routes, /\) -> dict\[str, int\]:\n {4}"""Delete the products[^"]*"""\n {4}await require_groups\(current_user, "staff"\)\n/);
    assert.match(routes, /"\/bulk-delete",[^@]*responses=error_responses\(400, 401, 403, 409, 413, 429, 503\),\n {4}openapi_extra={"x-groups": \["staff"\]},/);
  });

  it("refuses an endpoint operation that does not declare its route, builds another, or does not declare role endpoint", async () => {
    const source = await fixtureSource();
    const variants = {
      undeclared: [source.replace("static route(): Route {", "static unrelated(): Route {").replace("route: BulkDelete.route(),", "route: BulkDelete.unrelated(),"), /operation "bulk_delete" declares role "endpoint" but not its route: give its class a static route\(options\)/],
      other: [source.replace('path: "/bulk-delete", hooks', 'path: "/remove", hooks').replace("route: BulkDelete.route(),", 'route: { ...BulkDelete.route(), path: "/bulk-delete" },'), /the route handler bulk_delete_products \(entry "bulk_delete"\) is a write of the collection at "\/bulk-delete", which its operation's static route\(options\) does not declare \(write collection "\/remove"\)/],
      // Its handler is rendered, but built after the augmenters, which never saw it.
      roleless: [source.replace("role: ENDPOINT })", "})"), /the route handler bulk_delete_products \(entry "bulk_delete", type "bulk_delete"\) was built after the operations that attach to every endpoint: its operation must declare role "endpoint"/],
    } as const;
    for (const [name, [variant, error]] of Object.entries(variants)) {
      assert.notEqual(variant, source, name);
      await assert.rejects(planWithOperation(variant), error, name);
    }
  });
});
