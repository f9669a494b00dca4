// The JSON Schema of a `be` config: the project schema's input side, plus what that schema
// leaves to the operations. An operation entry's options are checked by the operation its
// `type` (or, without one, its `name`) selects; the document applies each registered
// operation's options to the entries that select it, and leaves entries no operation selects
// open; list modifiers likewise, selected by their `type`.

import { z } from "zod";
import { type JsonSchema, Name, type OperationRegistry, inputJsonSchema } from "../../../codegen/index.js";
import { ProjectConfig } from "./project.js";

/** The options schema of each operation an entry at `scope` selects by `type`, by that name, in registration order. */
function dispatchedOptions(operations: OperationRegistry, scope: string): [string, z.ZodType][] {
  return operations.entries.flatMap(([meta, cls]): [string, z.ZodType][] => (meta.scope === scope && meta.dispatchOn === "type" && cls.Options !== undefined ? [[meta.name, cls.Options]] : []));
}

/** The object schema of an operation's options (the input of a transform), or undefined for one that is no object. */
function objectOf(options: z.ZodType): z.ZodObject | undefined {
  const object = options instanceof z.ZodPipe ? options.in : options;
  return object instanceof z.ZodObject ? object : undefined;
}

/** An operation's options under their `$defs` name: the `id` their schema declares, else `<Name>Options`. */
function named(options: z.ZodObject, operation: string): { defName: string; object: z.ZodObject } {
  const meta = z.globalRegistry.get(options);
  if (typeof meta?.id === "string") return { defName: meta.id, object: options };
  const defName = `${new Name(operation).pascal}Options`;
  return { defName, object: options.meta({ ...meta, id: defName }) };
}

/** The `$defs` entries the project schema gives an operation entry written as an object, and a modifier. */
const ENTRY_DEF = "OperationEntry";
const MODIFIER_DEF = "ModifierEntry";

/**
 * An operation's options as an entry holds them: `type` may be left out (it defaults to the
 * entry's name), and no transform runs. Descriptions and examples are the options' own.
 */
function entryForm(object: z.ZodObject): z.ZodObject {
  const type = object.shape.type as z.ZodType | undefined;
  return z.strictObject({ ...object.shape, ...(type && { type: type.optional() }) }).meta(z.globalRegistry.get(object) ?? {});
}

/** Whether an entry selects operation `name`: by its `type`, or by its `name` when it has no `type`. */
function selects(name: string): JsonSchema {
  return {
    anyOf: [
      { required: ["type"], properties: { type: { const: name } } },
      { not: { required: ["type"] }, properties: { name: { const: name } } },
    ],
  };
}

/**
 * The JSON Schema of the config a `be` user writes: each operation selected by `type`
 * (`operations`, a package's too) applies the options it parses to the entries and modifiers
 * that select it, under the `$defs` name its options declare.
 */
export function projectJsonSchema(operations: OperationRegistry): JsonSchema {
  const described = (scope: string, form: (object: z.ZodObject) => z.ZodType) => {
    const defNames = new Map<string, string>();
    const forms = new Map<string, z.ZodType>();
    for (const [name, options] of dispatchedOptions(operations, scope)) {
      const object = objectOf(options);
      if (object === undefined) continue;
      const { defName, object: identified } = named(object, name);
      defNames.set(name, defName);
      if (!forms.has(defName)) forms.set(defName, form(identified));
    }
    return { defNames, forms };
  };
  const entries = described("operation", entryForm);
  const modifiers = described("modifier", (object) => object);
  // One conversion for the project and the option forms (each with its `id`, so a `$defs` entry), so they share one `$defs`.
  const combined = inputJsonSchema(z.strictObject({ project: ProjectConfig, ...Object.fromEntries(entries.forms), ...Object.fromEntries(modifiers.forms) }));
  const properties = combined.properties as Record<string, JsonSchema>;
  const defs = { ...(combined.$defs as Record<string, JsonSchema>) };
  // The options last, in registration order, after everything the project schema defines.
  for (const defName of [...entries.forms.keys(), ...modifiers.forms.keys()]) {
    const def = defs[defName]!;
    delete defs[defName];
    defs[defName] = def;
  }
  const entry = defs[ENTRY_DEF];
  const modifier = defs[MODIFIER_DEF];
  if (entry === undefined || modifier === undefined) throw new Error(`bug: the project schema has no $defs.${ENTRY_DEF} or $defs.${MODIFIER_DEF}`);
  defs[ENTRY_DEF] = {
    ...entry,
    allOf: [...entries.defNames].map(([name, defName]) => ({ if: selects(name), then: { $ref: `#/$defs/${defName}` } })),
  };
  defs[MODIFIER_DEF] = {
    ...modifier,
    allOf: [...modifiers.defNames].map(([name, defName]) => ({
      if: { required: ["type"], properties: { type: { const: name } } },
      then: { $ref: `#/$defs/${defName}` },
    })),
  };
  return { $schema: combined.$schema, ...properties.project, $defs: defs };
}
