// The `pages` key of the fe config: presentation only. Every fact about the backend
// (resources, fields, types, operations, security) comes from its OpenAPI document, which
// the config reads (`openapi: importstr '../openapi.json'`); this schema adds what the
// document cannot say: labels, columns, navigation, how a row is named.

import { z } from "zod";

const SAFE_TEXT = /^[^\p{Cc}]+$/u;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESOURCE_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/;

/** Text shown to people: any printable text (escaped wherever it is written). */
export const Label = z.string().regex(SAFE_TEXT, "must be non-empty printable text");

/** A field of a schema, as the OpenAPI document names it. */
export const FieldName = z.string().regex(IDENTIFIER, "must be a field name like \"author_id\"");

/** A resource: its collection path without the leading "/" (`articles`, `content/articles`). */
export const ResourceKey = z
  .string()
  .regex(RESOURCE_KEY, 'must be a collection path without the leading "/", like "articles"');

/** How one field reads and is edited. */
export const FieldPages = z
  .strictObject({
    label: Label.optional().meta({
      description: "The field's label everywhere. Default: the name in words (`published_at` → \"Published at\"); a reference takes its resource's label.",
    }),
    references: ResourceKey.nullable()
      .optional()
      .meta({
        description:
          "The resource whose key this field (or nested object) holds: its input becomes a picker, its value a link; `null`: not a reference. " +
          "Default: the document's `x-references`, else `<name>_id` → the resource named `<name>` when the key types match.",
      }),
    multiline: z.boolean().default(false).meta({ description: "Edit this text field in a multi-line text area." }),
  })
  .meta({ id: "FieldPages", description: "How one field reads and is edited.", examples: [{ label: "Written by", references: "authors" }] });
export type FieldPages = z.output<typeof FieldPages>;

/** How one action of a resource is offered. */
export const ActionPages = z
  .strictObject({
    confirm: z.boolean().default(false).meta({
      description:
        "Ask before running it: a dialog that opens with focus on Cancel. For actions without params (an action with params " +
        "asks through its form already, so `confirm` on one is an error).",
    }),
  })
  .meta({ id: "ActionPages", description: "How one action of a resource is offered.", examples: [{ confirm: true }] });
export type ActionPages = z.output<typeof ActionPages>;

/** The pages of one resource. */
export const ResourcePages = z.strictObject({
  label: Label.optional().meta({ description: "The name of one row. Default: the read schema's name in words (`StockMovementRead` → \"Stock movement\")." }),
  plural: Label.optional().meta({ description: "The name of the list. Default: the path in words (`/stock-movements` → \"Stock movements\")." }),
  key: FieldName.optional().meta({ description: "The read schema's key field, used by links and routes. Default: the schema's `x-pk`, else `id`, else the first field of the key's type." }),
  title_field: FieldName.optional().meta({
    description: "What names a row in headings, links and pickers. Default: `name`, `title`, `label`, `slug`, `username` or `email`, else the first text field.",
  }),
  columns: z
    .array(FieldName)
    .min(1, "must list at least one column")
    .optional()
    .meta({ description: "The list's columns, in order: fields of the read schema. Default: up to six scalar and nested fields, the title first." }),
  page_size: z.int().min(1, "must be at least 1").optional().meta({ description: "Rows per page. Default: the list's default limit, at most 25." }),
  fields: z.record(FieldName, FieldPages).default({}).meta({ description: "Per field settings, by field name (a field of any of the resource's schemas)." }),
  actions: z
    .record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be an action\'s path segment, like "publish-article"'), ActionPages)
    .default({})
    .meta({ description: "Per action settings, by the action's path segment (`/articles/{pk}/publish-article` → `publish-article`)." }),
}).meta({ id: "ResourcePages", description: "The pages of one resource.", examples: [{ title_field: "title", columns: ["title", "author", "published"] }] });
export type ResourcePages = z.output<typeof ResourcePages>;

/** The parts of an OpenAPI document the pages read; the rest is kept but not checked. */
export const OpenApiDocument = z.looseObject({
  openapi: z.string().regex(/^3\./, "must be an OpenAPI 3 document (openapi: 3.x)"),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * The document's JSON text, as jsonnet's `importstr` reads it. Text, not `import`: a
 * jsonnet object sorts its keys, and the order of a schema's properties is the order of
 * the pages' fields.
 */
export const OpenApiText = z
  .string({ error: "must be the document's text: importstr '../openapi.json' (not import)" })
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `is not JSON: ${(error as Error).message}` });
      return z.NEVER;
    }
  })
  .pipe(OpenApiDocument);

/** Generate pages: list, detail, forms and actions for every resource of the document. */
export const PagesConfig = z
  .strictObject({
    openapi: OpenApiText.meta({
      description:
        "The backend's OpenAPI document, read by the config: `importstr '../openapi.json'` (relative to the config file). " +
        "Not JSON, an OpenAPI 2 document, or a document without resources are errors at `pages.openapi`.",
    }),
    title: Label.optional().meta({ description: "The app's name in the header. Default: the document's `info.title`." }),
    language: z
      .string()
      .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag like "en", "fr" or "pt-BR"')
      .optional()
      .meta({
        description:
          "The language the pages speak, whatever the browser prefers: `en`, or a language tag of `src/custom/messages.ts`'s " +
          "translations (`tsc` refuses one without a catalogue). Default: the first of the browser's languages that has a " +
          "catalogue, else English.",
        examples: ["fr"],
      }),
    navigation: z
      .array(ResourceKey)
      .optional()
      .meta({ description: "The resources in the navigation, in order; the first is where `/` leads. Default: every resource with a list, in the document's order." }),
    resources: z
      .record(ResourceKey, ResourcePages)
      .default({})
      .meta({ description: "Per resource settings, by resource key (the collection path without the leading `/`). A key that names no resource of the document is an error listing the known ones." }),
  })
  .meta({ id: "PagesConfig", description: "Generate pages: list, detail, forms and actions for every resource of the document." });
export type PagesConfig = z.output<typeof PagesConfig>;
