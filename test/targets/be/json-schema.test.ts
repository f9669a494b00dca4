// The `be` config's JSON Schema, as `codegen schema --target be` prints it, checked by a real
// validator (ajv, draft 2020-12): every example config is valid, and every bad-config corpus
// case that is a schema error is rejected. The cases the schema cannot catch — rules across
// entries or keys, which only the zod checks see — are listed below, each with its reason,
// and must stay accepted by the schema, so the list cannot quietly grow or go stale.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { before, describe, it } from "node:test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

import { evaluateConfigFile } from "../../../src/codegen/config.js";
import { loadRegistry } from "../../../src/codegen/registry.js";
import { z } from "zod";
import { operation } from "../../../src/codegen/operation.js";
import { projectJsonSchema } from "../../../src/targets/be/config/json-schema.js";
import { discoverTargets, type Target } from "../../../src/codegen/target.js";
import { runCodegen } from "../../helpers/codegen-cli.js";
import { repoRoot } from "../../helpers/user-project.js";

/** Corpus cases the zod schemas reject but JSON Schema cannot express, and why. */
const SEMANTIC_CASES: Record<string, string> = {
  "apps-and-shorthand": "apps excludes module/resources/prefix: a rule across keys (zod superRefine)",
  "colliding-action-explicit-slug": "action slugs unique within a resource: across entries",
  "colliding-action-slugs": "derived action slugs unique within a resource: across entries, on derived values",
  "comms-missing-template": "a template file that must exist: the file system, not the config's shape",
  "comms-unknown-target": "a message type's targets are declared ones: across entries",
  "delete-with-fields": "which operation types take `fields`: checked by the operation's options across `type` and `fields`",
  "dotted-path-keyword": "no part of a dotted path is a keyword: a refinement besides the pattern",
  "duplicate-app-modules": "app modules unique: across entries",
  "duplicate-app-prefixes": "app prefixes unique: across entries",
  "duplicate-database-keys": "database keys unique: across entries",
  "duplicate-operation-names": "operation names unique within a resource: across entries",
  "duplicate-resource-names": "resource names unique within an app: across entries, on derived values",
  "duplicate-resources": "resource names unique within an app: across entries, on derived values",
  "duplicate-route-prefixes": "route prefixes unique within an app: across entries",
  "list-filter-problems": "filter and order fields must fit the resource's fields and types: a reference across the config",
  "field-default-wrong-type": "a default must suit the field's type: a rule across keys",
  "nested-field-in-action-params": "action params must be scalar: a rule across a list and its entries' type",
  "nested-field-in-create": "create fields must be scalar: a rule across the entry's type and its fields",
  "nested-field-in-update": "update fields must be scalar: a rule across the entry's type and its fields",
  "nested-without-model-and-fields": "a nested field needs model and fields: a rule across keys",
  "no-apps-no-shorthand": "apps, or module and resources: a rule across keys",
  "no-default-database": "exactly one default database: across entries",
  "pk-type-mismatch": "the primary-key field's type equals pk_type: across keys",
  "python-keyword-field-name": "a Python name is not a keyword: a refinement besides the pattern",
  "scalar-field-with-model": "model, fields, many and load only on nested fields: a rule across keys",
  "two-default-databases": "exactly one default database: across entries",
  "unknown-db-key": "db_key names a database of the project: a reference across the config",
  "unknown-operation-name": "operations are the installed ones, which the schema cannot list (plugins may add some)",
  "unknown-operation-type": "operations are the installed ones, which the schema cannot list (plugins may add some)",
};

const CORPUS = path.join(repoRoot, "test", "corpus");
const EXAMPLES = path.join(repoRoot, "examples");

interface CorpusCase {
  name: string;
  configFile: string;
}

/**
 * Corpus cases whose expected failure is the `be` config's validation: the others (jsonnet
 * syntax, missing files, paths leaving the output directory, manifests, flags) are not
 * questions a schema could answer.
 */
function schemaErrorCases(): CorpusCase[] {
  return readdirSync(CORPUS)
    .filter((file) => file.endsWith(".expect.json"))
    .sort()
    .flatMap((file) => {
      const expectation = JSON.parse(readFileSync(path.join(CORPUS, file), "utf8")) as { args: string[]; stderr: string };
      const { args } = expectation;
      const target = args[args.findIndex((arg) => arg === "-t" || arg === "--target") + 1];
      const config = args[args.findIndex((arg) => arg === "-c" || arg === "--config") + 1];
      if (target !== "be" || config === undefined || !expectation.stderr.includes('invalid configuration for target "be"')) return [];
      return [{ name: file.slice(0, -".expect.json".length), configFile: path.join(CORPUS, config) }];
    });
}

/** The backend configs of the examples (a front end's configs, under `frontend/`, are the fe target's). */
function exampleConfigs(): string[] {
  return readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" })
    .filter((file) => /(^|\/)config\/[^/]+\.jsonnet$/.test(file) && !/(^|\/)frontend\//.test(file))
    .sort()
    .map((file) => path.join(EXAMPLES, file));
}

let targets: Target[];
let validate: ValidateFunction;

before(async () => {
  targets = await discoverTargets();
  const run = await runCodegen(repoRoot, ["schema", "--target", "be"]);
  assert.equal(run.code, 0, run.stderr);
  validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(run.stdout));
});

/** The ajv errors of `value`, one `path: message` per line, or "" when valid. */
function schemaErrors(value: unknown): string {
  if (validate(value)) return "";
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"}: ${error.message}`).join("\n");
}

describe("codegen schema --target be, checked by ajv", () => {
  it("accepts every example config, and the zod schema agrees", async () => {
    const files = exampleConfigs();
    assert.ok(files.length >= 4, `found only ${files.length} example configs`);
    const be = targets.find((target) => target.name === "be")!;
    for (const file of files) {
      const config = await evaluateConfigFile(file, targets);
      assert.equal(schemaErrors(config), "", `${path.relative(repoRoot, file)} is rejected by the JSON Schema`);
      assert.ok(be.schema.safeParse(config).success, `${path.relative(repoRoot, file)} is rejected by the zod schema`);
    }
  });

  it("applies to each entry the options of the operation that runs it", async () => {
    const withEntry = (entry: object) => ({ module: "m", resources: [{ model: "m.M", fields: [{ name: "id", type: "uuid" }], operations: [entry] }] });
    assert.match(schemaErrors(withEntry({ name: "list", modifiers: [{ type: "paginate", max_page_size: 0 }] })), /max_page_size: must be >= 1/);
    assert.equal(schemaErrors(withEntry({ name: "list", modifiers: [{ type: "plugin_modifier", anything: 1 }] })), "", "a modifier no installed package registers is not the schema's to judge");
    assert.equal(schemaErrors(withEntry({ name: "x", type: "plugin_op", anything: 1 })), "", "an operation no installed package registers is not the schema's to judge");
  });

  it("describes the options of an operation and a modifier that nobody listed, from their Options", async () => {
    const registry = await loadRegistry("be.operations");
    @operation("bulk_archive", { scope: "operation", dispatchOn: "type", registry })
    class BulkArchive {
      static Options = z.strictObject({ name: z.string(), type: z.literal("bulk_archive"), max_ids: z.int().min(1).default(100) }).meta({ description: "Archive rows in bulk." });
      build(): unknown[] {
        return [];
      }
    }
    @operation("sample", { scope: "modifier", dispatchOn: "type", registry })
    class Sample {
      static Options = z.strictObject({ type: z.literal("sample"), percent: z.int().min(1).max(100) });
      build(): unknown[] {
        return [];
      }
    }
    const schema = projectJsonSchema(registry);
    const defs = schema.$defs as Record<string, { description?: string }>;
    assert.equal(defs.BulkArchiveOptions?.description, "Archive rows in bulk.");
    assert.ok(defs.SampleOptions, `no $defs.SampleOptions among ${Object.keys(defs).join(", ")}`);
    const check = new Ajv2020({ allErrors: true }).compile(schema);
    const entry = (value: object) => ({ module: "m", resources: [{ model: "m.M", fields: [{ name: "id", type: "uuid" }], operations: [value] }] });
    assert.ok(check(entry({ name: "archive", type: "bulk_archive", max_ids: 5 })), JSON.stringify(check.errors));
    assert.ok(!check(entry({ name: "archive", type: "bulk_archive", max_ids: 0 })), "max_ids below its minimum");
    assert.ok(!check(entry({ name: "bulk_archive", maxids: 5 })), "an unknown key of an entry selected by its name");
    assert.ok(check(entry({ name: "list", modifiers: [{ type: "sample", percent: 10 }] })), JSON.stringify(check.errors));
    assert.ok(!check(entry({ name: "list", modifiers: [{ type: "sample", percent: 0 }] })), "percent below its minimum");
  });

  it("accepts a $schema key naming the schema, as a .json config may carry", async () => {
    const config = await evaluateConfigFile(path.join(EXAMPLES, "blog", "config", "project.jsonnet"), targets);
    assert.equal(schemaErrors({ $schema: "./be.schema.json", ...(config as object) }), "");
  });

  const cases = schemaErrorCases();

  it("finds the corpus's schema-error cases, and every case it lists as semantic among them", (t) => {
    assert.ok(cases.length >= 40, `only ${cases.length} schema-error cases`);
    const names = new Set(cases.map((corpusCase) => corpusCase.name));
    assert.deepEqual(Object.keys(SEMANTIC_CASES).filter((name) => !names.has(name)), [], "listed cases that are not schema-error cases");
    const semantic = Object.keys(SEMANTIC_CASES).length;
    t.diagnostic(`${cases.length} schema-error cases: ${cases.length - semantic} rejected by the JSON Schema, ${semantic} semantic`);
  });

  for (const corpusCase of cases) {
    it(`corpus ${corpusCase.name}`, async () => {
      const errors = schemaErrors(await evaluateConfigFile(corpusCase.configFile, targets));
      const reason = SEMANTIC_CASES[corpusCase.name];
      if (reason === undefined) {
        assert.notEqual(errors, "", "a schema error the JSON Schema accepts: make the schema catch it, or list the case as semantic");
      } else {
        assert.equal(errors, "", `listed as semantic (${reason}), but the JSON Schema rejects it: take it off the list`);
      }
    });
  }
});
