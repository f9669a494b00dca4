// Operation entries of a resource and the options of the CRUD operations. A resource keeps
// each entry's own options untouched; the operation named by `type` validates them with
// its `Options` schema (`CrudOptions`, `ListOptions`, `ActionOptions`), at the same path.
// An entry's `modifiers` are a scope of their own (see modifiers.ts).

import { z } from "zod";
import { FieldList, rejectNested, type FieldSpec } from "./fields.js";
import { ModifierList } from "./modifiers.js";
import { Identifier, SnakeName } from "./primitives.js";
import { recordDefaulted } from "./provenance.js";

const OperationObject = z.looseObject({
  /** The entry's name: the operation's name, or a label of your own when `type` is given. @example "list_published" */
  name: Identifier,
  /** The operation to run. @default name */
  type: Identifier.optional(),
  /** Modifiers of the entry (lists only): filter, order, paginate, or types packages add. */
  modifiers: ModifierList.optional(),
});

/** A parsed operation entry: its name, the operation it runs, and that operation's options as written. */
type OperationEntry = z.output<typeof OperationObject> & { type: string };

/**
 * One entry of a resource's `operations`: an operation name, or an object with a `name`,
 * an optional `type` and the operation's options. Both forms parse to `{ name, type, …options }`.
 * @example "get"
 * @example { name: "list_published", type: "list", modifiers: [{ type: "paginate", max_page_size: 20 }] }
 */
export const OperationConfig = z
  .union([Identifier, OperationObject], {
    error: 'expected an operation name like "get", or an object { name, type?, ...options }',
  })
  .transform((entry): OperationEntry => {
    if (typeof entry === "string") return recordDefaulted({ name: entry, type: entry }, ["name", "type"]);
    return recordDefaulted({ ...entry, type: entry.type ?? entry.name }, entry.type === undefined ? ["type"] : []);
  });
export type OperationConfig = z.output<typeof OperationConfig>;

/** The five CRUD operations. */
export const CrudOperationType = z.enum(["get", "list", "create", "update", "delete"]);
export type CrudOperationType = z.output<typeof CrudOperationType>;

const crudKeys = {
  /** The entry's name. */
  name: Identifier,
  /** The operation. */
  type: CrudOperationType,
  /** Fields of this operation's schema, instead of the resource's. @default the resource's fields */
  fields: FieldList.optional(),
  /** Summary of the endpoint in OpenAPI. */
  summary: z.string().optional(),
  /** Whether this endpoint requires an authenticated user (only when the project sets `auth`). @default the resource's, else the app's, else the project's `require_auth` */
  require_auth: z.boolean().optional(),
  /** Emit tests for this endpoint. @default the resource's, else the app's, else the project's `generate_tests` */
  generate_tests: z.boolean().optional(),
  representation: SnakeName.optional().meta({
    description: "get, list, create and update: the representation the endpoint answers with (see the resource's `representations`). Default: the resource's `default_representation`.",
    examples: ["summary"],
  }),
};

function checkCrudFields(options: { type: CrudOperationType; fields?: FieldSpec[]; representation?: string }, ctx: z.RefinementCtx): void {
  if (options.type === "delete" && options.representation !== undefined) {
    ctx.addIssue({ code: "custom", path: ["representation"], message: "delete returns no body: representation has no effect here" });
  }
  if (options.fields === undefined) return;
  if (options.type === "create" || options.type === "update") {
    rejectNested(options.fields, ctx, ["fields"], "nested fields are only allowed in get and list");
  } else if (options.type === "delete") {
    ctx.addIssue({ code: "custom", path: ["fields"], message: "delete returns no body: fields has no effect here" });
  } else {
    // Every route of a resource answers with one read schema, so get and list share it.
    ctx.addIssue({
      code: "custom",
      path: ["fields"],
      message: `${options.type} answers with the resource's read shape: set the resource's fields instead`,
    });
  }
}

/**
 * Options of `get`, `create`, `update` and `delete` (and the CRUD keys of `list`).
 * `create` and `update` fields must be scalar; `get`, `list` and `delete` take no `fields`
 * (reads answer with the resource's read shape).
 * @example { name: "create", type: "create", fields: [{ name: "title", type: "str" }] }
 */
export const CrudOptions = z.strictObject(crudKeys).superRefine(checkCrudFields);
export type CrudOptions = z.output<typeof CrudOptions>;

/**
 * Options of `list`: the CRUD keys plus its modifiers (filter, order, paginate, …).
 * @example { name: "list", type: "list", modifiers: [{ type: "paginate", default_page_size: 20 }] }
 */
export const ListOptions = z
  .strictObject({ ...crudKeys, type: z.literal("list"), modifiers: ModifierList.default(() => []) })
  .superRefine((options, ctx) => {
    checkCrudFields(options, ctx);
  });
export type ListOptions = z.output<typeof ListOptions>;
