// The `filter` modifier's options (`FilterConfig`): the fields a list can be filtered by,
// where each field's values come from (`FilterValueKind`), and the operators it allows
// (`FilterOperator`, with defaults per kind). Checks that need the resource (the field's
// type, a `ref_resource` that exists) belong to the `filter` operation's validation.

import { z } from "zod";
import { findDuplicates } from "./duplicates.js";
import { DottedPath, PythonName, SnakeName } from "./primitives.js";
import { recordDefaulted } from "./provenance.js";

/**
 * Where a filter field's values come from: an `enum` class, `bool`, the key of another
 * resource (`ref`) or of this one (`self`), any text (`free_text`), or a typed value the
 * client enters (`literal`).
 */
export const FilterValueKind = z.enum(["enum", "bool", "ref", "self", "free_text", "literal"]).meta({
  description: "Where a filter field's values come from.",
  examples: ["free_text", "ref"],
});
export type FilterValueKind = z.output<typeof FilterValueKind>;

/** A comparison a filter field allows. */
export const FilterOperator = z.enum(["eq", "neq", "gt", "gte", "lt", "lte", "contains", "starts_with", "in", "is_null"]).meta({
  description: "A comparison: eq, neq, gt, gte, lt, lte, contains and starts_with (text, any case), in (one of a list), is_null (true or false).",
});
export type FilterOperator = z.output<typeof FilterOperator>;

/** Types a `literal` filter field may have. */
export const LiteralType = z.enum(["str", "int", "float", "date", "datetime", "uuid"]).meta({
  description: "The value type of a `literal` filter field.",
});
export type LiteralType = z.output<typeof LiteralType>;

/** Operators each kind of values allows. */
export const ALLOWED_OPERATORS: Record<FilterValueKind, readonly FilterOperator[]> = {
  enum: ["eq", "neq", "in", "is_null"],
  bool: ["eq", "neq", "is_null"],
  ref: ["eq", "neq", "in", "is_null"],
  self: ["eq", "neq", "in", "is_null"],
  free_text: ["eq", "neq", "contains", "starts_with", "in", "is_null"],
  literal: ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "starts_with", "in", "is_null"],
};

/** Operators a field gets when it lists none. */
export const DEFAULT_OPERATORS: Record<FilterValueKind, readonly FilterOperator[]> = {
  enum: ["eq", "in"],
  bool: ["eq"],
  ref: ["eq", "in"],
  self: ["eq", "in"],
  free_text: ["eq", "contains", "starts_with"],
  literal: ["eq", "gt", "gte", "lt", "lte"],
};

/** Query parameter names a list uses itself: a filter field may not take them. */
export const RESERVED_PARAMS = ["limit", "cursor", "offset", "total", "order_by", "q"] as const;

/** A filter field's name: a model attribute that is not one of a list's own parameters. */
const FilterFieldName = PythonName.refine((name) => !(RESERVED_PARAMS as readonly string[]).includes(name), {
  error: (issue) => `"${String(issue.input)}" is a query parameter of every list (${RESERVED_PARAMS.join(", ")}); it cannot be a filter field`,
});

/** The key each kind requires, and the kinds that take it. */
const KIND_KEYS = { enum: "enum", literal: "type", ref: "ref_resource" } as const;

/**
 * One filterable field of a list.
 * @example { name: "status", values: "enum", enum: "shop.models.Status" }
 * @example { name: "price", values: "literal", type: "float", operators: ["gte", "lte"] }
 */
export const StructuredFilterField = z
  .strictObject({
    name: FilterFieldName.meta({ description: "The model attribute filtered; a query parameter `name` (eq) or `name__op`.", examples: ["status", "author_id"] }),
    values: FilterValueKind,
    operators: z
      .array(FilterOperator)
      .min(1, "must list at least one operator")
      .optional()
      .meta({ description: "The operators allowed. Default per kind: enum, ref, self `[eq, in]`; bool `[eq]`; free_text `[eq, contains, starts_with]`; literal `[eq, gt, gte, lt, lte]`." }),
    enum: DottedPath.optional().meta({ description: "`enum` only, required: dotted path of the Python `Enum` class of the values.", examples: ["shop.models.Status"] }),
    type: LiteralType.optional().meta({ description: "`literal` only: the value type. Default: the type of the resource field of the same name." }),
    ref_resource: SnakeName.optional().meta({ description: "`ref` only, required: the resource (of the same app) whose key the field holds; it needs a `link`.", examples: ["author"] }),
  })
  .superRefine((field, ctx) => {
    for (const [kind, key] of Object.entries(KIND_KEYS) as [FilterValueKind, keyof typeof field][]) {
      if (field.values === kind && key !== "type" && field[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `required when values is "${kind}"` });
      }
      if (field.values !== kind && field[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `only allowed when values is "${kind}" (this field's values are "${field.values}")` });
      }
    }
    const allowed = ALLOWED_OPERATORS[field.values];
    field.operators?.forEach((op, index) => {
      const text = field.values === "literal" && field.type !== undefined && field.type !== "str" && (op === "contains" || op === "starts_with");
      if (!allowed.includes(op) || text) {
        ctx.addIssue({
          code: "custom",
          path: ["operators", index],
          message: `"${op}" does not apply to ${field.values} values; allowed: ${allowed.filter((candidate) => !(text && (candidate === "contains" || candidate === "starts_with"))).join(", ")}`,
        });
      }
    });
    for (const duplicate of findDuplicates(field.operators ?? [], (op) => op)) {
      ctx.addIssue({ code: "custom", path: ["operators", duplicate.index], message: `"${duplicate.key}" is listed twice` });
    }
  })
  .transform((field) => {
    const operators = field.operators ?? [...DEFAULT_OPERATORS[field.values]];
    return recordDefaulted({ ...field, operators }, field.operators === undefined ? ["operators"] : []);
  })
  .meta({ description: "A filterable field of a list: its values, its operators and the key its kind needs." });
export type StructuredFilterField = z.output<typeof StructuredFilterField>;

/**
 * Options of the `filter` modifier.
 * @example { type: "filter", fields: [{ name: "title", values: "free_text" }, { name: "published", values: "bool" }] }
 */
export const FilterConfig = z
  .strictObject({
    type: z.literal("filter"),
    fields: z
      .array(z.union([FilterFieldName, StructuredFilterField]))
      .min(1, "must list at least one field")
      .optional()
      .meta({
        description:
          "The filterable fields; each at most once. A bare name (kiln's form) takes its values from the resource field's type: " +
          "bool, enum (an enum field, its class), free_text (str, email), ref (a field with `references` to a resource with a `link`), else literal. " +
          "Default: every scalar field of the resource but json ones, by name.",
      }),
  })
  .superRefine(
    (config, ctx) => {
      // Also when some field has a problem of its own: every problem is reported at once.
      const fields: unknown[] = config.fields ?? [];
      const nameOf = (field: unknown) => {
        const name = typeof field === "string" ? field : (field as { name?: unknown } | null)?.name;
        return typeof name === "string" ? name : undefined;
      };
      for (const duplicate of findDuplicates(fields, nameOf)) {
        const path = typeof duplicate.item === "string" ? ["fields", duplicate.index] : ["fields", duplicate.index, "name"];
        ctx.addIssue({ code: "custom", path, message: `"${duplicate.key}" is already filtered by fields[${duplicate.first}]` });
      }
    },
    { when: (payload) => Array.isArray((payload.value as { fields?: unknown } | undefined)?.fields) },
  )
  .meta({
    id: "FilterConfig",
    description: "The `filter` modifier: the fields a list can be filtered by, in query parameters (`?price__gte=3`) and in `POST {path}/search`.",
    examples: [{ type: "filter", fields: [{ name: "title", values: "free_text" }, { name: "author_id", values: "ref", ref_resource: "author" }] }],
  });
export type FilterConfig = z.output<typeof FilterConfig>;
