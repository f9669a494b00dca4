// `search` of a resource (`SearchConfig`): the text fields `?q=` searches on every list of
// the resource, and how (`SearchStrategy`). Reference filters pointing at the resource
// find their values through it too.

import { z } from "zod";
import { findDuplicates } from "./duplicates.js";
import { PythonName } from "./primitives.js";

/** How `?q=` matches and ranks rows. */
export const SearchStrategy = z.enum(["trigram", "full_text"]).meta({
  description: "`trigram`: substring and similar words (typos match), PostgreSQL `pg_trgm`, ranked by word similarity. `full_text`: `websearch_to_tsquery` against the fields' `tsvector`, ranked by `ts_rank`.",
});
export type SearchStrategy = z.output<typeof SearchStrategy>;

/**
 * A resource's search.
 * @example { fields: ["title", "body"], strategy: "full_text", language: "english" }
 */
export const SearchConfig = z
  .strictObject({
    fields: z.array(PythonName).default(() => []).meta({ description: "Text fields of the resource searched; required unless `vector_column` is given.", examples: [["title", "body"]] }),
    strategy: SearchStrategy.optional().meta({ description: "How to match and rank. Default: `full_text` with `vector_column`, else `trigram`." }),
    language: z
      .string()
      .regex(/^[a-z_]+$/, "must be a PostgreSQL text search configuration name, like english or simple")
      .optional()
      .meta({ description: "`full_text` only: the text search configuration (stemming, stop words). Default: `simple`.", examples: ["english"] }),
    vector_column: PythonName.optional().meta({ description: "`full_text` only: a `tsvector` column of the model to search instead of `fields`." }),
  })
  .superRefine((search, ctx) => {
    const strategy = search.strategy ?? (search.vector_column ? "full_text" : "trigram");
    if (search.fields.length === 0 && search.vector_column === undefined) {
      ctx.addIssue({ code: "custom", path: ["fields"], message: "must list at least one field (or give vector_column with the full_text strategy)" });
    }
    if (strategy === "trigram") {
      for (const key of ["language", "vector_column"] as const) {
        if (search[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: 'only applies to the full_text strategy (set strategy: "full_text")' });
      }
    }
    for (const duplicate of findDuplicates(search.fields, (field) => field)) {
      ctx.addIssue({ code: "custom", path: ["fields", duplicate.index], message: `"${duplicate.key}" is listed twice` });
    }
  })
  .transform((search) => ({
    ...search,
    strategy: search.strategy ?? (search.vector_column ? ("full_text" as const) : ("trigram" as const)),
    language: search.language ?? "simple",
  }))
  .meta({
    description: "Search of a resource: `?q=` on its lists (and `q` in their search bodies), best match first.",
    examples: [{ fields: ["name"], strategy: "trigram" }],
  });
export type SearchConfig = z.output<typeof SearchConfig>;
