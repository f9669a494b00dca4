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

/**
 * How one field reads and is edited.
 * @example { label: "Written by", references: "authors" }
 */
export const FieldPages = z.strictObject({
  /** The field's label. @default the name in sentence case ("published_at" → "Published at") */
  label: Label.optional(),
  /**
   * The resource whose key this field holds: its input becomes a picker, its value a link.
   * `null`: not a reference. @default the document's `x-references`, else `<name>_id` →
   * the resource named `<name>` when the key types match
   */
  references: ResourceKey.nullable().optional(),
  /** A text field edited in a multi-line text area. @default false */
  multiline: z.boolean().default(false),
});
export type FieldPages = z.output<typeof FieldPages>;

/**
 * The pages of one resource.
 * @example { title_field: "title", columns: ["title", "author", "published"] }
 */
export const ResourcePages = z.strictObject({
  /** Name of one row. @default from the read schema ("ArticleRead" → "Article") */
  label: Label.optional(),
  /** Name of the collection. @default from the path ("/stock-movements" → "Stock movements") */
  plural: Label.optional(),
  /** The read schema's key field. @default the schema's `x-pk`, else `id`, else the first field of the key's type */
  key: FieldName.optional(),
  /** The field a row is named by in links, pickers and headings. @default name, title, label, slug, username or email, else the first text field */
  title_field: FieldName.optional(),
  /** Columns of the list, in order: read schema fields. @default up to six scalar and nested fields */
  columns: z.array(FieldName).min(1, "must list at least one column").optional(),
  /** Rows per page. @default the list's default limit, at most 25 */
  page_size: z.int().min(1, "must be at least 1").optional(),
  /** Per field settings, by field name (of any of the resource's schemas). */
  fields: z.record(FieldName, FieldPages).default({}),
});
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

/**
 * Generate pages: list, detail, forms and actions for every resource of the document.
 * @example { openapi: importstr '../openapi.json', title: 'Blog', navigation: ['articles', 'authors'] }
 */
export const PagesConfig = z.strictObject({
  /** The backend's OpenAPI document, read by the config (`importstr '../openapi.json'`). Required. */
  openapi: OpenApiText,
  /** The app's name in the header. @default the document's `info.title` */
  title: Label.optional(),
  /** Resources in the navigation, in order. @default every resource with a list, in the document's order */
  navigation: z.array(ResourceKey).optional(),
  /** Per resource settings, by resource key. */
  resources: z.record(ResourceKey, ResourcePages).default({}),
});
export type PagesConfig = z.output<typeof PagesConfig>;
