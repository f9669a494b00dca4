// The JSON Schema of a `be` config: the project schema's input side, plus what that schema
// leaves to the operations. An operation entry's options are checked by the operation its
// `type` (or, without one, its `name`) selects; the document applies each built-in
// operation's options to the entries that select it, and leaves other entries open; list
// modifiers likewise, selected by their `type`.

import { z } from "zod";
import { inputJsonSchema, type JsonSchema } from "../../../codegen/index.js";
import { ActionOptions } from "./actions.js";
import { FilterConfig } from "./filters.js";
import { CrudOptions, ListOptions } from "./operations.js";
import { OrderConfig } from "./ordering.js";
import { PaginateConfig } from "./pagination.js";
import { ProjectConfig } from "./project.js";

/** The options schema of each built-in operation, by the name an entry selects it with. */
export const BUILT_IN_OPTIONS: Readonly<Record<string, z.ZodType>> = {
  get: CrudOptions,
  list: ListOptions,
  create: CrudOptions,
  update: CrudOptions,
  delete: CrudOptions,
  action: ActionOptions,
};

/** The options schema of each built-in list modifier, by its `type`. */
export const BUILT_IN_MODIFIERS: Readonly<Record<string, z.ZodType>> = {
  filter: FilterConfig,
  order: OrderConfig,
  paginate: PaginateConfig,
};

/** The `$defs` name of each options schema. */
const DEF_NAMES = new Map<z.ZodType, string>([
  [CrudOptions, "CrudOptions"],
  [ListOptions, "ListOptions"],
  [ActionOptions, "ActionOptions"],
]);

/** The `$defs` name of each modifier's options. */
const MODIFIER_DEF_NAMES = new Map<z.ZodType, string>([
  [FilterConfig, "FilterConfig"],
  [OrderConfig, "OrderConfig"],
  [PaginateConfig, "PaginateConfig"],
]);

/** The `$defs` entries the project schema gives an operation entry written as an object, and a modifier. */
const ENTRY_DEF = "OperationEntry";
const MODIFIER_DEF = "ModifierEntry";

/**
 * An operation's options as an entry holds them: `type` may be left out (it defaults to the
 * entry's name), and no transform runs. Descriptions and examples are the options' own.
 */
function entryForm(options: z.ZodType): z.ZodObject {
  const object = options instanceof z.ZodPipe ? options.in : options;
  if (!(object instanceof z.ZodObject)) throw new TypeError("bug: an operation's options are not an object schema");
  const type = object.shape.type as z.ZodType;
  return z.strictObject({ ...object.shape, type: type.optional() }).meta(z.globalRegistry.get(object) ?? {});
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

/** The JSON Schema of the config a `be` user writes. */
export function projectJsonSchema(): JsonSchema {
  const forms = Object.fromEntries([
    ...[...DEF_NAMES].map(([options, defName]) => [defName, entryForm(options)]),
    ...[...MODIFIER_DEF_NAMES].map(([options, defName]) => [defName, options]),
  ]);
  // One conversion for the project and the option forms, so they share one `$defs`.
  const combined = inputJsonSchema(z.strictObject({ project: ProjectConfig, ...forms }));
  const properties = combined.properties as Record<string, JsonSchema>;
  const defs = { ...(combined.$defs as Record<string, JsonSchema>) };
  for (const defName of [...DEF_NAMES.values(), ...MODIFIER_DEF_NAMES.values()]) defs[defName] = properties[defName]!;
  const entry = defs[ENTRY_DEF];
  const modifier = defs[MODIFIER_DEF];
  if (entry === undefined || modifier === undefined) throw new Error(`bug: the project schema has no $defs.${ENTRY_DEF} or $defs.${MODIFIER_DEF}`);
  defs[ENTRY_DEF] = {
    ...entry,
    allOf: Object.entries(BUILT_IN_OPTIONS).map(([name, options]) => ({
      if: selects(name),
      then: { $ref: `#/$defs/${DEF_NAMES.get(options)}` },
    })),
  };
  defs[MODIFIER_DEF] = {
    ...modifier,
    allOf: Object.entries(BUILT_IN_MODIFIERS).map(([name, options]) => ({
      if: { required: ["type"], properties: { type: { const: name } } },
      then: { $ref: `#/$defs/${MODIFIER_DEF_NAMES.get(options)}` },
    })),
  };
  return { $schema: combined.$schema, ...properties.project, $defs: defs };
}
