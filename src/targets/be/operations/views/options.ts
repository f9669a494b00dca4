// Options of the saved-view operations (`view_list`, `view_create`, `view_get`,
// `view_update`, `view_delete`): an endpoint entry's keys that concern who may call the
// route, and the list whose views it serves. `resource.saved_views()` in
// `be/resources/presets.libsonnet` writes all five.

import { z } from "zod";
import { kilnKeys } from "../../config/kiln.js";
import { Identifier, maxBodySizeAt } from "../../config/primitives.js";
import { RateLimitSetting } from "../../config/rate-limit.js";

/** The steps of a view's life, one route each. */
export const VIEW_STEPS = ["view_list", "view_create", "view_get", "view_update", "view_delete"] as const;
export type ViewStep = (typeof VIEW_STEPS)[number];

export const ViewOptions = z
  .strictObject({
    name: Identifier.meta({ description: "The entry's name." }),
    type: z.enum(VIEW_STEPS).meta({ description: "The route: list, create, get, update or delete the current user's views." }),
    list: Identifier.default("list").meta({
      description: "The list entry of the resource whose views these are: a view's `query` is that list's query parameters. Default: `list`.",
    }),
    summary: z.string().optional().meta({ description: "The endpoint's summary in OpenAPI." }),
    require_auth: z.boolean().optional().meta({
      description: "Whether the route requires a signed-in user; a view belongs to one, so it must. Default: the resource's, else the app's, else the project's.",
    }),
    generate_tests: z.boolean().optional().meta({ description: "Generate tests for this endpoint. Default: the resource's, else the app's, else the project's." }),
    rate_limit: RateLimitSetting.optional(),
    max_body_size: maxBodySizeAt("this endpoint", "the resource's, else the app's, else the project's"),
    ...kilnKeys("saved_views"),
  })
  .meta({ id: "ViewOptions", description: "Options of the saved-view routes: the current user's named queries of a list (docs/be.md#saved-views)." });
export type ViewOptions = z.output<typeof ViewOptions>;
