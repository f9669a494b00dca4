// Options of the `action` operation: a user function exposed as a POST endpoint on one
// instance (`/{pk}/{slug}`) or on the collection (`/{slug}`). Parsing resolves the slug,
// the response kind and the status code.

import { z } from "zod";
import { Name } from "../../../codegen/index.js";
import { ParamList } from "./fields.js";
import { DottedPath, Identifier, Slug, SnakeName } from "./primitives.js";

/** Where an action is mounted: on one instance, or on the collection. */
export const ActionTarget = z.enum(["instance", "collection"]);
export type ActionTarget = z.output<typeof ActionTarget>;

/** What an action's endpoint returns: the instance's read schema, the function's JSON result, or no body. */
export const ActionResponse = z.enum(["instance", "json", "none"]);
export type ActionResponse = z.output<typeof ActionResponse>;

/**
 * The URL segment of an action named `name`: PascalCase boundaries split, lowercased,
 * underscores as hyphens.
 * @example actionSlug("publishArticle") // "publish-article"
 */
export function actionSlug(name: string): string {
  return new Name(name).slug;
}

/**
 * Options of an `action` entry.
 * @example { name: "publish", type: "action", fn: "blog.actions.publish", target: "instance" }
 */
export const ActionOptions = z
  .strictObject({
    /** The action's name; its slug is the URL segment. @example "publish_article" */
    name: Identifier,
    /** Always `action`. */
    type: z.literal("action"),
    /** Dotted path of the function to call. @example "blog.actions.publish_article" */
    fn: DottedPath,
    /** Mount on one instance (`POST /{pk}/{slug}`) or on the collection (`POST /{slug}`). Required. */
    target: ActionTarget,
    /** Typed body parameters, passed to the function by name; scalar types only. @default [] */
    params: ParamList.default(() => []),
    /** Status of a successful response (2xx). @default 204 when response is "none", else 200 */
    status_code: z.int().min(200, "must be a 2xx success status").max(299, "must be a 2xx success status").optional(),
    /** What the endpoint returns. @default "instance" for instance actions, "json" for collection actions */
    response: ActionResponse.optional(),
    /** URL segment. @default the name's slug (`publish_article` → `publish-article`) */
    slug: Slug.optional(),
    /** Summary of the endpoint in OpenAPI. */
    summary: z.string().optional(),
    /** Whether this endpoint requires an authenticated user (only when the project sets `auth`). @default the resource's, else the app's, else the project's `require_auth` */
    require_auth: z.boolean().optional(),
    /** Emit tests for this endpoint. @default the resource's, else the app's, else the project's `generate_tests` */
    generate_tests: z.boolean().optional(),
    /** Pass the authenticated user to the function as `current_user=`; the endpoint must require authentication (checked by the `action` operation). @default false */
    pass_user: z.boolean().default(false),
    representation: SnakeName.optional().meta({ description: 'With response "instance": the representation the action answers with. Default: the resource\'s `default_representation`.' }),
  })
  .superRefine((action, ctx) => {
    const response = action.response ?? defaultResponse(action.target);
    if (action.status_code === 204 && response !== "none") {
      ctx.addIssue({
        code: "custom",
        path: ["status_code"],
        message: `204 No Content sends no body, but this action's response is "${response}": set response: "none" or pick another status`,
      });
    }
    if (action.representation !== undefined && response !== "instance") {
      ctx.addIssue({ code: "custom", path: ["representation"], message: `only applies to response "instance" (this action's response is "${response}")` });
    }
  })
  .transform((action) => {
    const response = action.response ?? defaultResponse(action.target);
    return {
      ...action,
      response,
      status_code: action.status_code ?? (response === "none" ? 204 : 200),
      slug: action.slug ?? actionSlug(action.name),
    };
  });
export type ActionOptions = z.output<typeof ActionOptions>;

function defaultResponse(target: ActionTarget): ActionResponse {
  return target === "instance" ? "instance" : "json";
}
