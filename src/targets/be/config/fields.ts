// Field lists of the `be` config: a resource's read shape, an operation's override, an
// action's parameters. Parsing resolves every default (`required`, `nullable`, and for
// nested fields `many` and `load`), so the output is a discriminated union on `type`.

import { z } from "zod";
import { findDuplicates } from "./duplicates.js";
import { withArticle } from "./naming.js";
import { DottedPath, FieldName, ModelPath, PythonName, SnakeName } from "./primitives.js";

export const FieldType = z.enum(["uuid", "str", "email", "int", "float", "bool", "datetime", "date", "json", "enum", "nested", "link"]).meta({
  description:
    "Decides the Python annotation: `uuid` → `uuid.UUID`, `str`, `email` (an e-mail validated `str`), `int`, `float`, `bool`, " +
    "`datetime` → `datetime.datetime`, `date` → `datetime.date`, `json` → `dict[str, Any]`, `enum` → the Python `Enum` class " +
    "named by the field's `enum`; `nested` dumps a related model " +
    "inline and `link` shows a related row as a link object (`{ type, id, label }`), both in read shapes; a `link` with `many` " +
    "in a create or update body writes the relationship from the related rows' keys.",
  examples: ["str"],
});
export type FieldType = z.output<typeof FieldType>;

/** Every field type but `nested` and `link`: what action parameters (and, but for many-to-many links, request bodies) may use. */
export const ScalarFieldType = FieldType.exclude(["nested", "link"]);
export type ScalarFieldType = z.output<typeof ScalarFieldType>;

/** Eager-loading strategy of a nested field (described at the field's `load`). */
export const LoadStrategy = z.enum(["selectin", "joined", "subquery"]);
export type LoadStrategy = z.output<typeof LoadStrategy>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Any JSON value. Checked by a function, not built from zod schemas of itself as `z.json()`
 * is: zod tracks every object of a parse through a schema that holds a cycle (for cyclic
 * inputs, which a JSON config cannot have), and every container above a cycle holds it.
 */
export const JsonValue = z.custom<JsonValue>(isJsonValue, "expected a JSON value").meta({ id: "JsonValue", title: "JSON value" });

function isJsonValue(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJsonValue);
      // A plain object only, as JSON makes: not a Date, a Map, or an instance of a class.
      if (![Object.prototype, null].includes(Object.getPrototypeOf(value))) return false;
      return Object.values(value).every(isJsonValue);
    default:
      return false;
  }
}

const coreKeys = {
  name: FieldName.meta({ description: "Attribute name in the model and in generated schemas; unique within its list.", examples: ["title"] }),
  type: FieldType,
  nullable: z.boolean().default(false).meta({ description: "The value may be `null` (the annotation becomes `X | None`)." }),
  required: z.boolean().optional().meta({
    description: "Whether a create body must carry the field. Default: `true`, unless the field is nullable or has a `default`.",
  }),
  default: JsonValue.optional().meta({
    description:
      "Value used when a create body omits the field. It must suit `type` (a UUID string, an integer, an ISO 8601 date…); " +
      "`null` only for a nullable field; not with `required: true`.",
    examples: ["draft"],
  }),
  description: z.string().optional().meta({ description: "Description of the field in the generated schema and in OpenAPI." }),
  references: SnakeName.optional().meta({
    description:
      "Scalar fields only: the resource of the same app whose primary key this field holds. Generated tests create that " +
      "resource first (through its `create` route) and send its key here; it adds no foreign key (the model declares " +
      "those). An operation's own `fields` inherit it from the resource field of the same name. " +
      "Link fields, required there: the resource whose link objects the field shows (it must set `link`).",
    examples: ["author"],
  }),
};

const nestedKeys = {
  model: ModelPath.optional().meta({ description: "Nested fields only, and required there: the related model class.", examples: ["blog.models.Author"] }),
  many: z.boolean().optional().meta({ description: "Nested and link fields only: the relationship is a collection (the value is a list).", default: false }),
  load: LoadStrategy.optional().meta({
    description:
      "Nested and link fields only: the eager-loading strategy (default `selectin`; `joined` for a single link). `selectin` issues one extra SELECT per level (safe for scalar and " +
      "collection relationships), `joined` a JOIN (best for many-to-one and one-to-one), `subquery` a correlated subquery; " +
      "levels may differ.",
    default: "selectin",
  }),
};

const enumKeys = {
  enum: DottedPath.optional().meta({
    description:
      "Enum fields only, and required there: the dotted path of the Python `Enum` class whose members the field holds. " +
      "Generated schemas validate values against its members and list them in OpenAPI; the column is the model's own.",
    examples: ["blog.models.ArticleStatus"],
  }),
};

const FieldCore = z.strictObject(coreKeys);
type FieldCore = z.output<typeof FieldCore>;

/** The keys every parsed field has, defaults resolved. */
export interface ResolvedFieldCore extends Omit<FieldCore, "type" | "required" | "references"> {
  required: boolean;
}

/** A parsed non-nested field. */
export interface ScalarField extends ResolvedFieldCore {
  type: ScalarFieldType;
  /** Name of the resource whose primary key the field holds (see `references` in docs/be.md). */
  references?: string;
  /** Enum fields only, and always there: the dotted path of the user's `Enum` class. */
  enum?: string;
}

/** A parsed nested field: a related model dumped inline, loaded eagerly with `load`. */
export interface NestedField extends ResolvedFieldCore {
  type: "nested";
  model: string;
  fields: FieldSpec[];
  many: boolean;
  load: LoadStrategy;
}

/**
 * A parsed link field: the related row (or rows, with `many`) of the relationship `name`,
 * shown as the link objects of the resource named by `references`.
 */
export interface LinkField extends ResolvedFieldCore {
  type: "link";
  references: string;
  many: boolean;
  load: LoadStrategy;
}

/**
 * A parsed field. The recursion (`fields` of a nested field) needs this one explicit type;
 * every part of it is derived from the zod keys above.
 */
export type FieldSpec = ScalarField | NestedField | LinkField;

/** Whether a field holds a plain value (not a nested dump or a link): what bodies and params may use. */
export function isScalar(field: FieldSpec): field is ScalarField {
  return field.type !== "nested" && field.type !== "link";
}

/** A field as written in a config. */
export type FieldSpecInput = z.input<typeof FieldCore> &
  z.input<z.ZodObject<typeof nestedKeys>> &
  z.input<z.ZodObject<typeof enumKeys>> & { fields?: FieldSpecInput[] };

type FieldSpecSchema = z.ZodType<FieldSpec, FieldSpecInput>;

const FieldSpecObject = z.strictObject({
  ...coreKeys,
  ...nestedKeys,
  ...enumKeys,
  fields: z
    .custom<FieldSpecInput[]>()
    .transform(parseNestedFields)
    .optional()
    .meta({
      // The JSON Schema of what `parseNestedFields` accepts: FieldList is in `$defs` (a resource's `fields`).
      $ref: "#/$defs/FieldList",
      description: "Nested fields only, and required there: the related model's fields to include; they may nest again.",
    }),
});
type FieldSpecObject = z.output<typeof FieldSpecObject>;

/** One field of a resource, an operation override or an action's parameters. */
export const FieldSpec: FieldSpecSchema = FieldSpecObject.superRefine((field, ctx) => {
  if (field.type === "enum" && field.enum === undefined) {
    ctx.addIssue({ code: "custom", path: ["enum"], message: 'required for an enum field: the dotted path of its Python Enum class, like "blog.models.ArticleStatus"' });
  }
  if (field.type !== "enum" && field.enum !== undefined) {
    ctx.addIssue({ code: "custom", path: ["enum"], message: `only allowed on enum fields (this field's type is "${field.type}")` });
  }
  if (field.type === "nested") {
    if (field.model === undefined) {
      ctx.addIssue({ code: "custom", path: ["model"], message: "required for a nested field: the related model's dotted path" });
    }
    if (field.fields === undefined) {
      ctx.addIssue({ code: "custom", path: ["fields"], message: "required for a nested field: the related model's fields to include" });
    }
    if (field.references !== undefined) {
      ctx.addIssue({ code: "custom", path: ["references"], message: "only allowed on scalar fields: a nested field holds no key" });
    }
  } else if (field.type === "link") {
    if (field.references === undefined) {
      ctx.addIssue({ code: "custom", path: ["references"], message: "required for a link field: the resource whose links it shows (it needs a link config)" });
    }
    for (const key of ["model", "fields"] as const) {
      if (field[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: "only allowed on nested fields: a link field shows the referenced resource's link" });
      }
    }
  } else {
    for (const key of ["model", "fields", "many", "load"] as const) {
      if (field[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `only allowed on nested fields (this field's type is "${field.type}")` });
      }
    }
  }
  checkDefault(field, ctx);
})
  .meta({
    description:
      "A field of a resource's read shape, of an operation's field override, or an action parameter. " +
      "`model`, `fields`, `many` and `load` belong to nested fields only; `references` to scalar and link fields only; `enum` to enum fields only.",
    examples: [
      { name: "title", type: "str", description: "Headline" },
      { name: "status", type: "enum", enum: "blog.models.ArticleStatus" },
      { name: "author", type: "nested", model: "blog.models.Author", fields: [{ name: "name", type: "str" }], load: "joined" },
    ],
  })
  .transform(resolveField)
  .meta({ id: "FieldSpec" });

function resolveField(field: FieldSpecObject): FieldSpec {
  const core: Omit<ResolvedFieldCore, "name"> = {
    nullable: field.nullable,
    required: field.required ?? !(field.nullable || field.default !== undefined),
    ...(field.default !== undefined && { default: field.default }),
    ...(field.description !== undefined && { description: field.description }),
  };
  if (field.type === "link") {
    if (field.references === undefined) throw new Error("bug: link field passed its checks without references");
    const many = field.many ?? false;
    return { name: field.name, type: "link", ...core, references: field.references, many, load: field.load ?? (many ? "selectin" : "joined") };
  }
  if (field.type !== "nested") {
    return {
      name: field.name,
      type: field.type,
      ...core,
      ...(field.references !== undefined && { references: field.references }),
      ...(field.enum !== undefined && { enum: field.enum }),
    };
  }
  if (field.model === undefined || field.fields === undefined) throw new Error("bug: nested field passed its checks without model or fields");
  return {
    name: field.name,
    type: "nested",
    ...core,
    model: field.model,
    fields: field.fields,
    many: field.many ?? false,
    load: field.load ?? "selectin",
  };
}

// A default the generated schema cannot hold would only fail at the user's first request.
function checkDefault(field: FieldSpecObject, ctx: z.RefinementCtx): void {
  if (field.default === undefined) return;
  if (field.required === true) {
    ctx.addIssue({ code: "custom", path: ["required"], message: "a field with a default is optional in create bodies: drop required or the default" });
  }
  const problem = field.default === null ? (field.nullable ? undefined : "null is a default only for a nullable field (set nullable: true)") : defaultProblem(field.type, field.default);
  if (problem) ctx.addIssue({ code: "custom", path: ["default"], message: problem });
}

const defaultFormats: Partial<Record<FieldType, z.ZodType>> = {
  uuid: z.guid(),
  str: z.string(),
  email: z.email(),
  int: z.int(),
  float: z.number(),
  bool: z.boolean(),
  datetime: z.iso.datetime({ offset: true, local: true }),
  date: z.iso.date(),
  json: z.record(z.string(), JsonValue),
};

const expectedDefault: Record<FieldType, string> = {
  uuid: "a UUID string",
  str: "a string",
  email: "an e-mail address",
  int: "an integer",
  float: "a number",
  bool: "true or false",
  datetime: 'an ISO 8601 date-time string like "2024-01-31T12:00:00Z"',
  date: 'an ISO 8601 date string like "2024-01-31"',
  json: "a JSON object",
  enum: "",
  nested: "",
  link: "",
};

function defaultProblem(type: FieldType, value: JsonValue): string | undefined {
  if (type === "nested" || type === "link") return `${type} fields take no default`;
  // Its members are only known when the generated code imports the class: Pydantic checks it then.
  if (type === "enum") return typeof value === "string" || typeof value === "number" ? undefined : "an enum field's default must be a member's value (a string or a number)";
  const format = defaultFormats[type];
  if (format?.safeParse(value).success) return undefined;
  return `${withArticle(type)} field's default must be ${expectedDefault[type]}`;
}

/**
 * Adds an issue at `[i].name` for each field whose name an earlier field of the same list
 * already uses.
 */
function checkUniqueNames(fields: readonly { name: string }[], ctx: z.RefinementCtx): void {
  for (const duplicate of findDuplicates(fields, (field) => field.name)) {
    ctx.addIssue({
      code: "custom",
      path: [duplicate.index, "name"],
      message: `duplicate field name "${duplicate.key}" (already used by entry ${duplicate.first} of this list)`,
    });
  }
}

/**
 * A nested field's sub-fields, parsed by calling `FieldList` rather than holding it: as with
 * `JsonValue`, a schema cycle would have zod track every object of every config parse (10-20%
 * of validate and build CPU). Its issues keep their paths; the field's key prefixes them.
 */
function parseNestedFields(fields: unknown, ctx: z.RefinementCtx): FieldSpec[] {
  const parsed = FieldList.safeParse(fields);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: fields } as z.core.$ZodRawIssue);
  return z.NEVER;
}

/** A non-empty list of fields with unique names: a resource's read shape or a nested field's sub-fields. */
export const FieldList: z.ZodArray<FieldSpecSchema> = z
  .array(FieldSpec)
  .min(1, "must list at least one field")
  .superRefine(checkUniqueNames)
  .meta({ id: "FieldList", description: "A non-empty list of fields with unique names." });

/**
 * Adds an issue at `[i].type` for each nested field of `fields` (request bodies and action
 * parameters take scalar values only).
 */
export function rejectNested(fields: readonly FieldSpec[], ctx: z.RefinementCtx, path: readonly PropertyKey[], message: string): void {
  fields.forEach((field, index) => {
    if (!isScalar(field)) ctx.addIssue({ code: "custom", path: [...path, index, "type"], message: message.replace("nested", field.type) });
  });
}

/** A possibly empty list of scalar fields with unique names: an action's parameters. */
export const ParamList = z
  .array(FieldSpec)
  .superRefine((fields, ctx) => {
    checkUniqueNames(fields, ctx);
    rejectNested(fields, ctx, [], "action params must be scalar: nested fields are only allowed in get and list");
  });

/** A column to order by, with its direction (`{ column: "created_at", direction: "desc" }`). */
export const ColumnRef = z.strictObject({
  column: PythonName.meta({ description: "Model attribute to order by." }),
  direction: z.enum(["asc", "desc"]).default("asc").meta({ description: "Sort direction." }),
});
export type ColumnRef = z.output<typeof ColumnRef>;
