// Operation entries of a resource, and the keys endpoint operations share. A resource keeps
// each entry's own options untouched; the operation named by `type` validates them with
// its `Options` schema, at the same path, and checks in its own folder what is particular
// to it (`delete` takes no fields, …). An entry's `modifiers` are a scope of their own
// (see modifiers.ts).

import { z } from "zod";
import { GroupList, GuardPath } from "./authz.js";
import { OpaSetting } from "./opa.js";
import { FieldList } from "./fields.js";
import { HookConvention, PostHookPath, PreHookPath, SerializerSetting, checkHooks } from "./hooks.js";
import { kilnKeys } from "./kiln.js";
import { ModifierList } from "./modifiers.js";
import { Identifier, SnakeName, maxBodySizeAt } from "./primitives.js";
import { recordDefaulted } from "./provenance.js";
import { RateLimitSetting } from "./rate-limit.js";

const OperationObject = z
  .looseObject({
    name: Identifier.meta({
      description: "The entry's name, unique within the resource: the operation's name, or a label of your own when `type` is given.",
      examples: ["list_published"],
    }),
    type: Identifier.optional().meta({ description: "The operation to run. Default: `name`." }),
    modifiers: ModifierList.optional().meta({ description: "Modifiers of the entry (lists only): filter, order, paginate, or types packages add." }),
  })
  .meta({
    id: "OperationEntry",
    description: "An operation entry with options; its other keys are the options of the operation it runs, checked by that operation.",
  });

/** A parsed operation entry: its name, the operation it runs, and that operation's options as written. */
type OperationEntry = z.output<typeof OperationObject> & { type: string };

// The defaulted keys of an entry, shared by every entry they describe.
const NAME_AND_TYPE = Object.freeze(["name", "type"]);
const TYPE = Object.freeze(["type"]);

/** One entry of a resource's `operations`; both forms parse to `{ name, type, …options }`. */
export const OperationConfig = z
  .union([Identifier, OperationObject], {
    error: 'expected an operation name like "get", or an object { name, type?, ...options }',
  })
  .meta({
    description: "An operation name (`\"get\"`), or an object `{ name, type?, ...options }`.",
    examples: ["get", { name: "list_published", type: "list", modifiers: [{ type: "paginate", max_page_size: 20 }] }],
  })
  .transform((entry): OperationEntry => {
    if (typeof entry === "string") return recordDefaulted({ name: entry, type: entry }, NAME_AND_TYPE);
    // zod's parse made `entry`, so `type` is filled in place: a copy would double every entry the config keeps.
    const defaulted = entry.type === undefined;
    (entry as OperationEntry).type ??= entry.name;
    return recordDefaulted(entry as OperationEntry, defaulted ? TYPE : []);
  });
export type OperationConfig = z.output<typeof OperationConfig>;

/**
 * The keys of an endpoint entry (`CrudOptions`), for an operation whose options add their own
 * (`list`'s `modifiers`): spread into its `strictObject`, then `checkHooks` in its refinement.
 */
export const endpointKeys = {
  name: Identifier.meta({ description: "The entry's name." }),
  // The operation that parses these options was selected by this value: any name it answers to is valid here.
  type: Identifier.meta({ description: "The operation. Default: `name`." }),
  fields: FieldList.optional().meta({
    description:
      "`create` and `update`: the scalar fields of the request body, instead of the resource's (default: every scalar field of " +
      "the resource but a `uuid` or `int` primary key, which the database generates; `created_at`-style columns too, so list " +
      "the fields clients may send). `get` and `list`: only on a resource without `fields` (kiln's style), whose read shape they make together. " +
      "`delete` returns no body and takes none.",
  }),
  summary: z.string().optional().meta({ description: "The endpoint's summary in OpenAPI." }),
  require_auth: z.boolean().optional().meta({
    description:
      "Whether this endpoint requires an authenticated user (with `auth` only); `{ name: \"get\", require_auth: false }` " +
      "makes one route of a protected resource public. Default: the resource's, else the app's, else the project's `require_auth`.",
  }),
  generate_tests: z.boolean().optional().meta({
    description: "Generate tests for this endpoint. Default: the resource's, else the app's, else the project's `generate_tests`.",
  }),
  max_body_size: maxBodySizeAt("this endpoint", "the resource's, else the app's, else the project's"),
  representation: SnakeName.optional().meta({
    description: "get, list, create and update: the representation the endpoint answers with (see the resource's `representations`). Default: the resource's `default_representation`.",
    examples: ["summary"],
  }),
  rate_limit: RateLimitSetting.optional(),
  groups: GroupList.optional(),
  opa: OpaSetting.optional(),
  can: GuardPath.optional(),
  pre: PreHookPath.optional(),
  post: PostHookPath.optional(),
  convention: HookConvention.optional(),
  serializer: SerializerSetting,
  trace: z.boolean().optional().meta({
    description: "With `telemetry`, whether this entry's handlers have their span: `true` even when the project's `span_per_handler` / `span_per_action` is off, `false` never. Default: the resource's `trace`, else the project's setting.",
  }),
  capture_request_body: z.boolean().optional().meta({
    description: "With `telemetry`, whether this entry's handler records its JSON body on its span (docs/telemetry.md). Default: the resource's, else the project's `capture_request_body`.",
  }),
  capture_response_body: z.boolean().optional().meta({
    description: "With `telemetry`, whether this entry's handler records its JSON answer on its span. Default: the resource's, else the project's `capture_response_body`.",
  }),
  ...kilnKeys("operation"),
};

/** Options of `get`, `create`, `update` and `delete` (and the CRUD keys of `list`). */
export const CrudOptions = z
  .strictObject(endpointKeys)
  .superRefine(checkHooks)
  .meta({
    id: "CrudOptions",
    description: "Options of `get`, `create`, `update` and `delete`.",
    examples: [{ name: "create", fields: [{ name: "title", type: "str" }] }, { name: "get", require_auth: false }],
  });
export type CrudOptions = z.output<typeof CrudOptions>;
