// The `paginate` modifier's options (`PaginateConfig`): keyset or offset pages, and their
// bounds. A list without one pages by keyset with the defaults below: never unbounded.

import { z } from "zod";
import { kilnKeys } from "./kiln.js";

/** How pages are addressed: by an opaque cursor (`keyset`) or by row count (`offset`). */
export const PaginationMode = z.enum(["keyset", "offset"]);
export type PaginationMode = z.output<typeof PaginationMode>;

/**
 * Options of the `paginate` modifier.
 * @example { type: "paginate", mode: "offset", default_page_size: 20, max_page_size: 50 }
 */
export const PaginateConfig = z
  .strictObject({
    type: z.literal("paginate"),
    mode: PaginationMode.default("keyset").meta({ description: "`keyset`: `cursor` and `next_cursor`, a deep page costs what the first does. `offset`: `offset`, `next_offset` and `total` on request." }),
    default_page_size: z.int().min(1).default(50).meta({ description: "Page size (`limit`) when the request gives none; at most `max_page_size`." }),
    max_page_size: z.int().min(1).default(100).meta({ description: "The largest `limit` a request may ask for." }),
    ...kilnKeys("paginate"),
  })
  .superRefine((config, ctx) => {
    if (config.default_page_size > config.max_page_size) {
      ctx.addIssue({ code: "custom", path: ["default_page_size"], message: `must not exceed max_page_size (${config.max_page_size})` });
    }
  })
  .meta({
    id: "PaginateConfig",
    description: "The `paginate` modifier: how a list pages and how large a page may be.",
    examples: [{ type: "paginate", mode: "keyset", default_page_size: 20, max_page_size: 100 }],
  });
export type PaginateConfig = z.output<typeof PaginateConfig>;

/** The pagination of a list without a `paginate` modifier. */
export const DEFAULT_PAGINATION: PaginateConfig = { type: "paginate", mode: "keyset", default_page_size: 50, max_page_size: 100 };
