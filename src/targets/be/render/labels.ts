// Words for module docstrings, from the resource a rendered output belongs to.

import type { RenderCtx } from "../../../codegen/index.js";
import { type ResourceConfig, pluralize } from "../config/schema.js";

export interface ResourceLabels {
  singular: string;
  plural: string;
  hasActionParams: boolean;
}

export function resourceLabels(ctx: RenderCtx): ResourceLabels {
  const resource = ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
  const singular = resource.name.replace(/_/g, " ");
  const hasActionParams = resource.operations.some((entry) => entry.type === "action" && Array.isArray(entry.params) && entry.params.length > 0);
  return { singular, plural: pluralize(singular), hasActionParams };
}
