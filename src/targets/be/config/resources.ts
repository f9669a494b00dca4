// A resource: one model exposed over HTTP by a list of operations. Parsing fills the
// derived `name` and `route_prefix`; checks that span entries (unique names, a primary key
// typed two ways) live here, each at the entry at fault. What only an entry's operation
// knows (an action's slug, a delete's body) that operation checks in its own folder.

import { z } from "zod";
import { GroupList, VisiblePath } from "./authz.js";
import { OpaSetting } from "./opa.js";
import { scoped } from "../../../codegen/index.js";
import { findDuplicates } from "./duplicates.js";
import { checkEnumPackages } from "./enum-packages.js";
import { type FieldSpec, FieldList, isScalar } from "./fields.js";
import { kilnFieldsRole, kilnKeys } from "./kiln.js";
import { defaultResourceName, defaultRoutePrefix, withArticle } from "./naming.js";
import { readShapeFromOperations } from "./operation-fields.js";
import { OperationConfig } from "./operations.js";
import { ModelPath, PythonName, SnakeName, UrlPath, maxBodySizeAt } from "./primitives.js";
import { LinksConfig, READ_REPRESENTATION, RepresentationList } from "./representations.js";
import { SearchConfig } from "./search.js";
import { recordDefaulted, wasDefaulted } from "./provenance.js";
import { RateLimitSetting } from "./rate-limit.js";

/** Types a primary key may have. */
export const PkType = z.enum(["uuid", "int", "str"]);
export type PkType = z.output<typeof PkType>;

/** Operation entries of a resource: a scope, so each entry's operation runs once per entry. */
export const OperationList = scoped("operation", z.array(OperationConfig).min(1, "must list at least one operation"));

/** A model exposed over HTTP. */
export const ResourceConfig = z
  .strictObject({
    model: ModelPath.meta({ description: "The SQLAlchemy model class.", examples: ["blog.models.Article"] }),
    name: SnakeName.optional().meta({
      description:
        "Names the generated files (`{module}/routes/{name}.py`, …), functions and tests; unique within the app. " +
        "Default: the model class in snake_case (`StockMovement` → `stock_movement`).",
    }),
    route_prefix: UrlPath.optional().meta({
      description:
        "Where the resource's routes are mounted, under the app's prefix; unique within the app. Default: `/` and the plural " +
        "slug of the model class (`StockMovement` → `/stock-movements`, `Category` → `/categories`, `Address` → `/addresses`); " +
        "set it for irregular plurals (`Person` → `/people`).",
    }),
    pk: z
      .union([
        PythonName,
        z.strictObject({
          name: PythonName.meta({ description: "Primary-key attribute of the model." }),
          type: PkType.meta({ description: "Type of the primary key." }),
        }),
      ])
      .default("id")
      .meta({ description: "Primary-key attribute of the model; kiln's `{ name, type }` form sets `pk_type` too.", examples: ["id", { name: "id", type: "int" }] }),
    pk_type: PkType.optional().meta({
      default: "uuid",
      description: "Type of the primary key (the `{pk}` path parameter). When `fields` lists the primary key, its type must be this.",
    }),
    db_key: z.string().optional().meta({ description: "Key of the database holding the model, one of `databases`. Default: the default database." }),
    generate_tests: z.boolean().optional().meta({
      description:
        "Generate `{module}/tests/test_{name}.py` for this resource (an operation entry's own value wins). Default: the app's, else the project's `generate_tests`.",
    }),
    rate_limit: RateLimitSetting.optional(),
    require_auth: z.boolean().optional().meta({
      description:
        "Whether the resource's handlers require an authenticated user. Only has an effect when the project sets `auth`; " +
        "an operation entry's own `require_auth` wins over it. Default: the app's, else the project's `require_auth`.",
    }),
    max_body_size: maxBodySizeAt("this resource's endpoints", "the app's, else the project's"),
    groups: GroupList.optional(),
    opa: OpaSetting.optional(),
    visible: VisiblePath.optional(),
    fields: FieldList.optional().meta({
      description:
        "The read shape: the fields of `get` and `list` responses, and the fields every other operation uses unless it overrides them. " +
        "Default (kiln's style, fields per operation): the fields of the `get` and `list` entries together, else the primary key " +
        "and the fields of `create` and `update`.",
    }),
    operations: OperationList.meta({ description: "What the resource serves: operation names (`\"get\"`) or entries with options." }),
    search: SearchConfig.optional(),
    link: LinksConfig.optional(),
    representations: RepresentationList.default(() => []).meta({ description: "Named response shapes besides `read` (the resource's `fields`); entries pick one with `representation`." }),
    default_representation: SnakeName.default(READ_REPRESENTATION).meta({ description: "The representation entries answer with when they name none." }),
    permissions_endpoint: z.boolean().optional().meta({
      default: false,
      description:
        "Serve `GET {prefix}/permissions` and `GET {prefix}/{pk}/permissions`: which operations the current user may call on the " +
        "collection and on one row (kiln's key; the entries `permissions` and `row_permissions` of type `permissions`).",
    }),
    searchable: z.boolean().optional().meta({
      default: false,
      description:
        "Serve `POST {prefix}/_values`: the resource's rows as links, found by its `search` (else by the link's label), a page at a time " +
        "(kiln's key; the entry `values` of type `values`). Needs `link`.",
    }),
    trace: z.boolean().optional().meta({
      description: "With `telemetry`, whether the handlers of this resource's entries have their span (an entry's `trace` wins). Default: the project's `span_per_handler` / `span_per_action`.",
    }),
    capture_request_body: z.boolean().optional().meta({
      description: "With `telemetry`, whether the handlers of this resource's entries record their JSON body on their span (an entry's setting wins). Default: the project's `capture_request_body`.",
    }),
    capture_response_body: z.boolean().optional().meta({
      description: "With `telemetry`, whether the handlers of this resource's entries record their JSON answer on their span (an entry's setting wins). Default: the project's `capture_response_body`.",
    }),
    include_actions_in_dump: z.boolean().optional().meta({
      default: false,
      description:
        "Each row that get and list answer carries `actions`: the operations the current user may call on it, " +
        "as `GET {prefix}/{pk}/permissions` answers (kiln's key). Reserves the field name `actions`.",
    }),
    ...kilnKeys("resource"),
  })
  .superRefine((resource, ctx) => {
    checkEntryNames(resource.operations, ctx);
    // A resource without `fields` (kiln's style) takes its read shape from its operations: checked in the transform.
    if (resource.fields !== undefined) checkSearchAndLink({ ...resource, fields: resource.fields }, ctx);
    checkRepresentations(resource, ctx);
    checkEnumPackages(resource, ctx);
    if (typeof resource.pk !== "string" && resource.pk_type !== undefined && resource.pk_type !== resource.pk.type) {
      ctx.addIssue({ code: "custom", path: ["pk_type"], message: `pk.type already says "${resource.pk.type}": give the type once` });
    }
    const pk = primaryKey(resource);
    if (resource.fields === undefined) return;
    readFieldsOnResource(resource.operations, ctx);
    const pkIndex = resource.fields.findIndex((field) => field.name === pk.name);
    const pkField = resource.fields[pkIndex];
    if (pkField && pkField.type !== pk.type) {
      ctx.addIssue({
        code: "custom",
        path: ["fields", pkIndex, "type"],
        message: `the primary key "${pk.name}" has pk_type "${pk.type}": make them agree (set pk_type: "${pkField.type}" or change this type)`,
      });
    }
  })
  .meta({
    id: "ResourceConfig",
    description: "A SQLAlchemy model exposed over HTTP by a list of operations.",
    examples: [
      {
        model: "blog.models.Article",
        fields: [{ name: "id", type: "uuid" }, { name: "title", type: "str" }],
        operations: ["get", "list", "create", "update", "delete"],
      },
    ],
  })
  .transform(({ model, name, route_prefix, pk, pk_type, fields, ...rest }, ctx) => {
    const key = primaryKey({ pk, pk_type });
    const readShape: FieldSpec[] | undefined = fields ?? readShapeFromOperations(rest.operations, key, ctx);
    if (readShape === undefined) return z.NEVER;
    // kiln's style: the read shape is known only now, so its search and link fields are checked here.
    if (fields === undefined) checkSearchAndLink({ ...rest, fields: readShape }, ctx);
    if (rest.include_actions_in_dump) {
      const shapes = [readShape, ...rest.representations.map((representation) => representation.fields ?? [])];
      if (shapes.some((shape) => shape.some((field) => field.name === "actions"))) {
        ctx.addIssue({ code: "custom", path: ["include_actions_in_dump"], message: 'each row then carries "actions": rename the read field named "actions"' });
      }
    }
    const operations = [
      ...rest.operations,
      ...(rest.permissions_endpoint ? addedEntries("permissions_endpoint", PERMISSION_ENTRIES, rest.operations, ctx) : []),
      ...(rest.searchable ? addedEntries("searchable", VALUES_ENTRIES, rest.operations, ctx) : []),
    ];
    if (rest.searchable && rest.link === undefined) {
      ctx.addIssue({ code: "custom", path: ["searchable"], message: "its rows are answered as links: set link: { name: <its label field> } (or a link builder) on the resource" });
    }
    const resolved = {
      model,
      name: name ?? defaultResourceName(model),
      route_prefix: route_prefix ?? defaultRoutePrefix(model),
      pk: key.name,
      pk_type: key.type,
      fields: readShape,
      ...rest,
      operations,
    };
    return recordDefaulted(resolved, [...(name === undefined ? ["name"] : []), ...(route_prefix === undefined ? ["route_prefix"] : [])]);
  });
export type ResourceConfig = z.output<typeof ResourceConfig>;

/** The entries `permissions_endpoint: true` adds: the collection's permissions and a row's. */
const PERMISSION_ENTRIES = [
  { name: "permissions", type: "permissions", target: "collection" },
  { name: "row_permissions", type: "permissions", target: "row" },
];

/** The entry `searchable: true` adds: `POST {prefix}/_values`. */
const VALUES_ENTRIES = [{ name: "values", type: "values" }];

/** The entries a resource key adds, each named so no entry of the resource clashes. */
function addedEntries(key: string, entries: readonly Record<string, string>[], operations: readonly OperationConfig[], ctx: z.RefinementCtx): OperationConfig[] {
  for (const entry of entries) {
    const index = operations.findIndex((operation) => operation.name === entry.name);
    if (index >= 0) ctx.addIssue({ code: "custom", path: ["operations", index, "name"], message: `${key} adds an entry named "${entry.name}": give this one another name` });
  }
  return entries.map((entry) => recordDefaulted({ ...entry }, Object.keys(entry)) as OperationConfig);
}

/** The primary key's name and type, from `pk` and `pk_type` or kiln's `pk: { name, type }` (which wins; the refinement reports a conflict). */
function primaryKey(resource: { pk: string | { name: string; type: PkType }; pk_type?: PkType }): { name: string; type: PkType } {
  return typeof resource.pk === "string" ? { name: resource.pk, type: resource.pk_type ?? "uuid" } : resource.pk;
}

/** A resource that lists its fields answers every read with them: its get and list entries take none. */
function readFieldsOnResource(operations: readonly OperationConfig[], ctx: z.RefinementCtx): void {
  operations.forEach((entry, index) => {
    if (kilnFieldsRole(entry.type) === "read" && entry.fields !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["operations", index, "fields"],
        message: `${entry.type} answers with the resource's read shape: set the resource's fields instead, or drop the resource's fields and declare them per operation`,
      });
    }
  });
}

// An entry written as a plain string has no `name` key: point at the entry itself.
function namePath(entry: OperationConfig, index: number): PropertyKey[] {
  return wasDefaulted(entry, "name") ? ["operations", index] : ["operations", index, "name"];
}

function checkEntryNames(operations: readonly OperationConfig[], ctx: z.RefinementCtx): void {
  const repeated = findDuplicates(operations, (entry) => entry.name);
  for (const duplicate of repeated) {
    ctx.addIssue({
      code: "custom",
      path: namePath(duplicate.item, duplicate.index),
      message: `duplicate operation name "${duplicate.key}" (already used by operations[${duplicate.first}]); give one of them another name and set its type`,
    });
  }
}

const TEXT_TYPES = new Set(["str", "email"]);

// Search and link name fields of the resource: a typo would only fail in the database.
function checkSearchAndLink(resource: { fields: readonly FieldSpec[]; search?: SearchConfig; link?: LinksConfig }, ctx: z.RefinementCtx): void {
  const byName = new Map(resource.fields.map((field) => [field.name, field]));
  resource.search?.fields.forEach((name, index) => {
    const field = byName.get(name);
    if (field === undefined || !TEXT_TYPES.has(field.type)) {
      ctx.addIssue({
        code: "custom",
        path: ["search", "fields", index],
        message: field === undefined ? `"${name}" is not a field of this resource` : `"${name}" is ${withArticle(field.type)} field; search needs str fields`,
      });
    }
  });
  const link = resource.link;
  for (const [key, role] of [["name", "labels"], ["id", "is the id of"]] as const) {
    const name = link?.[key];
    if (name === undefined) continue;
    const field = byName.get(name);
    if (field === undefined || !isScalar(field) || field.type === "json") {
      ctx.addIssue({ code: "custom", path: ["link", key], message: `"${name}" must be a scalar field of this resource (its value ${role} the links)` });
    }
  }
}

function checkRepresentations(
  resource: { representations: readonly { name: string }[]; default_representation: string; operations: readonly OperationConfig[] },
  ctx: z.RefinementCtx,
): void {
  const known = [READ_REPRESENTATION, ...resource.representations.map((representation) => representation.name)];
  const message = (name: string) => `unknown representation "${name}"; this resource has: ${known.join(", ")}`;
  if (!known.includes(resource.default_representation)) ctx.addIssue({ code: "custom", path: ["default_representation"], message: message(resource.default_representation) });
  resource.operations.forEach((entry, index) => {
    if (typeof entry.representation === "string" && !known.includes(entry.representation)) {
      ctx.addIssue({ code: "custom", path: ["operations", index, "representation"], message: message(entry.representation) });
    }
  });
}
