// List modifiers: the `modifiers` of an operation entry, a scope below `operation`. Each
// entry names its modifier operation with `type` (filter, order, paginate, or one a
// package registers); that operation validates the entry's other keys with its own
// `Options`, at the entry's path, as operations do with their entries.

import { z } from "zod";
import { scoped } from "../../../codegen/index.js";
import { Identifier } from "./primitives.js";

/**
 * One modifier of a list: `{ type, ...options }`. The modifier operation named by `type`
 * parses the options.
 * @example { type: "order", fields: ["title", "created_at"], default: "created_at", default_dir: "desc" }
 */
export const ModifierConfig = z
  .looseObject({
    type: Identifier.meta({
      description: "The modifier operation: `filter`, `order`, `paginate`, or one a package registers.",
      examples: ["filter", "order", "paginate"],
    }),
  })
  .meta({
    id: "ModifierEntry",
    description: "One modifier of a list entry; the modifier operation named by `type` validates the other keys.",
    examples: [{ type: "paginate", mode: "keyset", default_page_size: 20, max_page_size: 100 }],
  });
export type ModifierConfig = z.output<typeof ModifierConfig>;

/** The modifiers of an operation entry: a scope, so each modifier's operation runs once per entry. */
export const ModifierList = scoped("modifier", z.array(ModifierConfig)).meta({
  description: "Modifiers of a `list` entry (filter, order, paginate, …), applied to its query in this order.",
});

/** The modifier types built into the `be` target. */
export const BUILTIN_MODIFIERS = ["filter", "order", "paginate"] as const;
