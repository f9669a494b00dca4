// Options of the `action` operation: a user function exposed as a POST endpoint on one
// instance (`/{pk}/{slug}`) or on the collection (`/{slug}`). Parsing resolves the slug,
// the response kind and the status code.

import { z } from "zod";
import { Name } from "../../../../codegen/index.js";
import { GroupList, GuardPath } from "../../config/authz.js";
import { ParamList } from "../../config/fields.js";
import { Convention, kilnKeys } from "../../config/kiln.js";
import { OpaSetting } from "../../config/opa.js";
import { DottedPath, Identifier, Slug, SnakeName, maxBodySizeAt } from "../../config/primitives.js";
import { RateLimitSetting } from "../../config/rate-limit.js";

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

/** Options of an `action` entry. */
export const ActionOptions = z
  .strictObject({
    name: Identifier.meta({ description: "The action's name; its slug is the URL segment.", examples: ["publish_article"] }),
    type: z.literal("action").meta({ description: "Always `action`." }),
    fn: DottedPath.meta({
      description:
        "The function to call: instance first, then the params by name, the session and, with `pass_user`, the user; with " +
        "`convention: \"kiln\"`, kiln's `fn(instance, db=…, body=…)`.",
      examples: ["blog.actions.publish_article"],
    }),
    target: ActionTarget.default("instance").meta({
      description:
        "Mount on one instance (`POST {prefix}/{pk}/{slug}`) or on the collection (`POST {prefix}/{slug}`). Left out (as kiln " +
        "configs do: kiln reads it from the function's signature), `instance`, with a warning.",
    }),
    params: ParamList.default(() => []).meta({ description: "Typed body parameters, passed to the function by name; scalar fields only." }),
    convention: Convention.optional().meta({
      description:
        'How the function is called: `"codegen"`, `fn(instance, <param>=…, session=…)`; `"kiln"`, kiln\'s signature ' +
        "`fn(instance, db=…, body=…)` (collection actions: no instance), its request body the `body` model; an entry's `can` " +
        "then has kiln's signature too, `can(resource, session)`. Default: `\"kiln\"` in an app written in kiln's format (its " +
        '`version: "1"`), else `"codegen"`; `resource.action` called kiln\'s way (no `target`) writes `"kiln"`.',
    }),
    body: DottedPath.optional().meta({
      description:
        'With `convention: "kiln"`: the Pydantic model of the request body, which the function receives as `body=`. Default: ' +
        "an entry naming none of `body`, `response`, `model_param` and `status_code` has all four read off the function's " +
        "annotations as kiln reads them, when the generated app imports the function; else no body.",
      examples: ["shop.actions.DiscontinueRequest"],
    }),
    model_param: Identifier.optional().meta({
      description: 'With `convention: "kiln"`: the parameter given the resource\'s model class (kiln\'s `type[Model]` parameter).',
      examples: ["model"],
    }),
    status_code: z
      .int()
      .min(200, "must be a 2xx success status")
      .max(299, "must be a 2xx success status")
      .optional()
      .meta({ description: "Status of a successful call; `204` requires `response: \"none\"`. Default: `204` when `response` is `\"none\"`, else `200`." }),
    response: z
      .union([ActionResponse, DottedPath])
      .optional()
      .meta({
        description:
          "Return the instance's read schema, the function's JSON result, or no body; or a Pydantic model's dotted path: the " +
          "function's result, as that model (kiln's return annotation). " +
          "Default: `\"instance\"` for instance actions, `\"json\"` for collection actions and kiln's convention.",
      }),
    slug: Slug.optional().meta({
      description:
        "The URL segment. Default: the name's slug: PascalCase boundaries split, lowercased, `_` as `-` " +
        "(`publish_article`, `publishArticle` and `PublishArticle` all give `publish-article`).",
    }),
    summary: z.string().optional().meta({ description: "The endpoint's summary in OpenAPI." }),
    require_auth: z.boolean().optional().meta({
      description: "Whether this endpoint requires an authenticated user (with `auth` only). Default: the resource's, else the app's, else the project's `require_auth`.",
    }),
    generate_tests: z.boolean().optional().meta({
      description: "Generate tests for this endpoint. Default: the resource's, else the app's, else the project's `generate_tests`.",
    }),
    max_body_size: maxBodySizeAt("this endpoint", "the resource's, else the app's, else the project's"),
    rate_limit: RateLimitSetting.optional(),
    pass_user: z.boolean().default(false).meta({
      description: "Pass the authenticated user to the function as `current_user=`; the endpoint must then require a user (checked before anything is generated).",
    }),
    representation: SnakeName.optional().meta({
      description: 'With response "instance": the representation the action answers with. Default: the resource\'s `default_representation`.',
    }),
    groups: GroupList.optional(),
    opa: OpaSetting.optional(),
    can: GuardPath.optional(),
    ...kilnKeys("operation"),
  })
  .superRefine((action, ctx) => {
    // The function receives these by keyword after the params: a param of the same name could never be passed.
    const reserved = ["session", ...(action.pass_user ? ["current_user"] : [])];
    (Array.isArray(action.params) ? action.params : []).forEach((param, index) => {
      if (reserved.includes(param?.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["params", index, "name"],
          message: `"${param.name}" is taken: the function receives ${param.name === "session" ? "the request's session" : "the authenticated user"} as ${param.name}=; rename the param`,
        });
      }
    });
    const response = action.response ?? defaultResponse(action);
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
  .meta({
    id: "ActionOptions",
    description:
      "Options of an `action`: a function of yours exposed as `POST {prefix}/{pk}/{slug}` (instance) or `POST {prefix}/{slug}` " +
      "(collection). Two actions of one resource must not share a slug.",
    examples: [{ name: "publish", type: "action", fn: "blog.actions.publish", target: "instance" }],
  })
  .transform((action) => {
    const response = action.response ?? defaultResponse(action);
    return {
      ...action,
      response,
      status_code: action.status_code ?? (response === "none" ? 204 : 200),
      slug: action.slug ?? actionSlug(action.name),
      // kiln's action as kiln's configs write it, naming nothing kiln reads off the function's
      // annotations: the generated module reads them as it is imported (runtime/actions.py).
      reads_signature:
        action.convention === "kiln" && action.body === undefined && action.response === undefined && action.model_param === undefined && action.status_code === undefined,
    };
  });
export type ActionOptions = z.output<typeof ActionOptions>;

// kiln answers with what the function returns.
function defaultResponse(action: { target: ActionTarget; convention?: Convention | undefined }): ActionResponse {
  return action.target === "instance" && action.convention !== "kiln" ? "instance" : "json";
}
