// The JSON Schema of a config (`configJsonSchema`): zod's input side with the schemas'
// descriptions, defaults and examples. Every target's document compiles under a real
// draft 2020-12 validator (ajv), and every example and default it shows validates against
// the very schema it illustrates, so the reference never shows a config that fails.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { z } from "zod";
import { configJsonSchema, inputJsonSchema, type JsonSchema } from "../../src/codegen/json-schema.js";
import { loadRegistry } from "../../src/codegen/registry.js";
import { discoverTargets } from "../../src/codegen/target.js";

/** Keywords whose value is a map of sub-schemas by name, not a schema. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "patternProperties"]);
/** Keywords whose value is data, not schemas. */
const DATA = new Set(["examples", "default", "const", "enum"]);

/** Every sub-schema holding `key`, with its JSON pointer. */
function annotated(schema: unknown, key: string, pointer = "", isMap = false): [string, JsonSchema][] {
  if (typeof schema !== "object" || schema === null) return [];
  const found: [string, JsonSchema][] = !isMap && !Array.isArray(schema) && key in schema ? [[pointer, schema as JsonSchema]] : [];
  for (const [child, value] of Object.entries(schema)) {
    if (!isMap && DATA.has(child)) continue;
    const childPointer = `${pointer}/${child.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    found.push(...annotated(value, key, childPointer, !isMap && SCHEMA_MAPS.has(child)));
  }
  return found;
}

describe("configJsonSchema", async () => {
  const targets = (await discoverTargets()).filter((target) => ["be", "be_root", "fe", "fe_root"].includes(target.name));

  it("covers this package's four targets", () => {
    assert.deepEqual(targets.map((target) => target.name).sort(), ["be", "be_root", "fe", "fe_root"]);
  });

  for (const target of targets) {
    it(`${target.name}: compiles, and each example and default validates against its own schema`, async () => {
      const schema = configJsonSchema(target, await loadRegistry(target.operationsEntryPoint));
      const ajv = new Ajv2020({ allErrors: true });
      ajv.addSchema(schema, "root");
      let checked = 0;
      for (const key of ["examples", "default"] as const) {
        for (const [pointer, node] of annotated(schema, key)) {
          const validate = ajv.getSchema(`root#${pointer}`);
          assert.ok(validate, `no schema at ${pointer}`);
          for (const value of key === "examples" ? (node.examples as unknown[]) : [node.default]) {
            assert.ok(validate(value), `${target.name} ${pointer}: ${key} ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
            checked++;
          }
        }
      }
      assert.ok(checked >= 5, `only ${checked} examples and defaults in the ${target.name} schema`);
      assert.equal(typeof schema.description, "string", "the root describes the config");
    });
  }

  it("describes what a user writes: defaults optional, examples kept under transforms, no safe-integer noise", () => {
    const Inner = z.strictObject({ size: z.int().min(1).default(5), label: z.string().transform((text) => text.trim()) });
    const schema = inputJsonSchema(Inner.meta({ description: "A box.", examples: [{ label: "x" }] }).transform((box) => box));
    assert.deepEqual(schema.required, ["label"]);
    assert.deepEqual(schema.examples, [{ label: "x" }]);
    assert.deepEqual((schema.properties as Record<string, JsonSchema>).size, { type: "integer", minimum: 1, default: 5 });
  });

  it("lets the root carry $schema, for a .json config naming its schema", async () => {
    const fe = targets.find((target) => target.name === "fe")!;
    const schema = configJsonSchema(fe, await loadRegistry(fe.operationsEntryPoint));
    const ajv = new Ajv2020();
    assert.ok(ajv.validate(schema, { $schema: "./fe.schema.json", input: "openapi.json" }), ajv.errorsText());
    assert.ok(!ajv.validate(schema, { input: "openapi.json", inptu: 1 }), "an unknown key is still an error");
  });
});
