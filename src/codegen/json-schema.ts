// The JSON Schema (draft 2020-12) of a target's config as a user writes it: zod's input
// side (keys with defaults are optional, transforms not applied), with the descriptions,
// defaults and examples the schemas declare in `.meta()`. Editors, validators and the
// generated config reference (`codegen schema`) all read this one document.

import { z } from "zod";
import type { OperationRegistry } from "./registry.js";
import type { Target } from "./target.js";

/** A JSON Schema document or sub-schema. */
export type JsonSchema = { [key: string]: unknown };

/** The root key a `.json` config may carry to name its schema for editors; not config. */
export const SCHEMA_KEY = "$schema";

/** The input side of `schema` as JSON Schema, draft 2020-12; schemas with an `id` meta become `$defs`. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    // A third-party schema may hold types JSON cannot describe (dates, functions): accept anything there.
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      restoreInputAnnotations(zodSchema, jsonSchema);
      dropSafeIntegerBounds(jsonSchema);
    },
  }) as JsonSchema;
}

/**
 * The JSON Schema of `target`'s config: the target's own `jsonSchema(operations)` if it has
 * one (`operations`: its group's, `loadRegistry(target.operationsEntryPoint)`), else the input
 * side of its zod schema. The root may carry `$schema` (a `.json` config naming this document
 * for its editor), which config loading ignores.
 */
export function configJsonSchema(target: Target, operations: OperationRegistry): JsonSchema {
  const schema = target.jsonSchema ? target.jsonSchema(operations) : inputJsonSchema(target.schema);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return {
    $schema: schema.$schema,
    title: `codegen ${target.name} config`,
    ...schema,
    ...(properties && {
      properties: {
        [SCHEMA_KEY]: { type: "string", description: "The JSON Schema this file is written against, for editors; codegen ignores it." },
        ...properties,
      },
    }),
  };
}

// zod drops `examples` and `default` from any schema with a transform somewhere inside,
// since they could be of the output type. Config schemas declare both in the form a user
// writes (a `.default()` value is what the key means when left out), so they come back.
function restoreInputAnnotations(schema: z.core.$ZodType, json: JsonSchema): void {
  const examples = z.globalRegistry.get(schema)?.examples;
  if (examples !== undefined && json.examples === undefined && json.$ref === undefined) json.examples = examples;
  if (schema instanceof z.ZodDefault && json.default === undefined) json.default = structuredClone(schema.def.defaultValue);
}

// `z.int()` bounds itself to the safe integers; printed, those bounds are noise.
function dropSafeIntegerBounds(schema: JsonSchema): void {
  if (schema.type !== "integer") return;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
}
