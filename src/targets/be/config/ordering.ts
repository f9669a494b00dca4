// The `order` modifier's options (`OrderConfig`): the fields `?order_by=` may name, and the
// order of a request that names none. The primary key always ends the order.

import { z } from "zod";
import { findDuplicates } from "./duplicates.js";
import { PythonName } from "./primitives.js";

/** A sort direction. */
export const SortDirection = z.enum(["asc", "desc"]);
export type SortDirection = z.output<typeof SortDirection>;

/**
 * Options of the `order` modifier.
 * @example { type: "order", fields: ["title", "created_at"], default: "created_at", default_dir: "desc" }
 */
export const OrderConfig = z
  .strictObject({
    type: z.literal("order"),
    fields: z
      .array(PythonName)
      .min(1, "must list at least one field")
      .meta({ description: "Scalar fields of the resource that `order_by` may name (`order_by=price,-created_at`).", examples: [["title", "created_at"]] }),
    default: PythonName.optional().meta({ description: "The field to sort by when a request gives no `order_by`; one of `fields`. Default: the primary key." }),
    default_dir: SortDirection.default("asc").meta({ description: "The direction of `default`." }),
  })
  .superRefine((config, ctx) => {
    for (const duplicate of findDuplicates(config.fields, (field) => field)) {
      ctx.addIssue({ code: "custom", path: ["fields", duplicate.index], message: `"${duplicate.key}" is listed twice` });
    }
    if (config.default !== undefined && !config.fields.includes(config.default)) {
      ctx.addIssue({ code: "custom", path: ["default"], message: `must be one of fields (${config.fields.join(", ")})` });
    }
  })
  .meta({
    id: "OrderConfig",
    description: "The `order` modifier: `?order_by=` names declared fields; ties are broken by the primary key, so the order is total.",
    examples: [{ type: "order", fields: ["published_at", "rating"], default: "published_at", default_dir: "desc" }],
  });
export type OrderConfig = z.output<typeof OrderConfig>;
