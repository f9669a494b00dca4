// Named response shapes of a resource (`RepresentationConfig`) and how the resource
// appears when another one refers to it (`LinksConfig`). The resource's `fields` are the
// representation called `read`; an entry may answer with another (`representation`).

import { z } from "zod";
import { findDuplicates } from "./duplicates.js";
import { FieldList } from "./fields.js";
import { DottedPath, PythonName, SnakeName } from "./primitives.js";

/** The name of the representation made of a resource's own `fields`. */
export const READ_REPRESENTATION = "read";

/**
 * A named response shape of a resource: its own `fields`, or a `builder` of yours.
 * @example { name: "summary", fields: [{ name: "id", type: "uuid" }, { name: "title", type: "str" }] }
 * @example { name: "card", builder: "blog.cards.article_card" }
 */
export const RepresentationConfig = z
  .strictObject({
    name: SnakeName.meta({ description: "Its name, which entries give as `representation`; `read` is the resource's own `fields`.", examples: ["summary"] }),
    fields: FieldList.optional().meta({ description: "The fields of the shape (nested fields allowed); a `{Model}{Name}` schema and its serializer are generated." }),
    builder: DottedPath.optional().meta({
      description: "Instead of `fields`: a function of yours called with the row (loaded with everything the resource's `fields` show), returning a JSON-serializable value or a Pydantic model. It is called as a plain function, so it must not be async.",
      examples: ["blog.cards.article_card"],
    }),
  })
  .superRefine((representation, ctx) => {
    if (representation.name === READ_REPRESENTATION) {
      ctx.addIssue({ code: "custom", path: ["name"], message: `"${READ_REPRESENTATION}" names the resource's own fields; pick another name` });
    }
    if ((representation.fields === undefined) === (representation.builder === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "give fields or builder (exactly one)" });
    }
  })
  .meta({ description: "A named response shape of a resource." });
export type RepresentationConfig = z.output<typeof RepresentationConfig>;

/** A resource's representations, each name once. */
export const RepresentationList = z.array(RepresentationConfig).superRefine((list, ctx) => {
  for (const duplicate of findDuplicates(list, (representation) => representation.name)) {
    ctx.addIssue({ code: "custom", path: [duplicate.index, "name"], message: `duplicate representation "${duplicate.key}" (already representations[${duplicate.first}])` });
  }
});

/**
 * How a resource appears where another refers to it: a link object `{ type, id, label }`.
 * @example { name: "name" }
 */
export const LinksConfig = z
  .strictObject({
    name: PythonName.optional().meta({
      description: "The scalar field of the resource whose value labels its links (and its rows in filter value pickers); required unless `kind` is `id` or `builder` is given.",
      examples: ["name", "title"],
    }),
    kind: z.enum(["id_name", "name", "id"]).optional().meta({
      description:
        "kiln's link kinds. Links always carry `type`, `id` and `label`: `id_name` and `name` label them with `name`, `id` (no `name` needed) with the link's id as text.",
      default: "id_name",
    }),
    id: PythonName.optional().meta({
      description: "The scalar field whose value is a link's `id` (default: the primary key). Filter values and the front end still address rows by their primary key.",
      examples: ["slug"],
    }),
    builder: DottedPath.optional().meta({
      description:
        "kiln's link builder: your async function `(row, session) -> link` building the links `POST {prefix}/_values` answers " +
        "(`searchable`), given the signed-in user as `session`. Link fields and filter values still label by `name` (else the id).",
      examples: ["blog.links.author_link"],
    }),
  })
  .superRefine((link, ctx) => {
    if (link.name === undefined && link.kind !== "id" && link.builder === undefined) {
      ctx.addIssue({ code: "custom", path: ["name"], message: 'required unless kind is "id" or a builder is given: the field whose value labels the links' });
    }
  })
  .meta({ description: "How the resource serializes where another refers to it (`link` fields, `ref` filter values).", examples: [{ name: "name" }, { kind: "id" }] });
export type LinksConfig = z.output<typeof LinksConfig>;
