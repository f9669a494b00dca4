// Options of `list`: the keys every endpoint entry takes, plus the entry's modifiers, which
// their own operations parse (filter, order, paginate, and those of packages).

import { z } from "zod";
import { checkHooks } from "../../config/hooks.js";
import { ModifierList } from "../../config/modifiers.js";
import { endpointKeys } from "../../config/operations.js";

/** Options of `list`: the endpoint keys plus its modifiers (filter, order, paginate, …). */
export const ListOptions = z
  .strictObject({
    ...endpointKeys,
    type: z.literal("list").meta({ description: "The operation. Default: `name`." }),
    modifiers: ModifierList.default(() => []).meta({ description: "What clients may do with the list: filter, order, paginate, or modifier types packages add." }),
  })
  .superRefine(checkHooks)
  .meta({
    id: "ListOptions",
    description:
      "Options of `list`. Without an `order` modifier rows come in primary-key order; without a `paginate` modifier a page " +
      "walks keyset pages of the paginate defaults (see docs/be.md, Lists).",
    examples: [{ name: "list", modifiers: [{ type: "filter", fields: [{ name: "status", values: "literal" }] }, { type: "paginate", default_page_size: 20 }] }],
  });
export type ListOptions = z.output<typeof ListOptions>;
