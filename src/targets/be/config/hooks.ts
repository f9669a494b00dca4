// Hooks and custom serializers of CRUD entries (docs/hooks.md): `pre` changes what create and
// update store, `post` runs once the write is committed, `serializer` turns the row into the
// response instead of the generated serializer. Each names a function of yours by dotted path;
// which routes call which key their operations declare (operations/hooks checks it).

import { z } from "zod";
import { Convention } from "./kiln.js";
import { DottedPath } from "./primitives.js";

/** `pre`: `(values, *, session, row=…, current_user=…) -> values`, before create and update write. */
export const PreHookPath = DottedPath.meta({
  description:
    "create and update: dotted path of your function `(values, *, session, row, current_user) -> values`, called inside the " +
    "request's transaction before the write, with the validated body as a dict (update: only the fields sent, and `row=` the " +
    "loaded row); what it returns is what is stored. Sync or async; `current_user=` only in projects with `auth` (`None` on a public " +
    "route that does not see the user). Raise `fastapi.HTTPException` to refuse the write.",
  examples: ["blog.hooks.count_words"],
});

/** `post`: `(row, *, session, current_user=…)`, after create, update and delete commit. */
export const PostHookPath = DottedPath.meta({
  description:
    "create, update and delete: dotted path of your function `(row, *, session, current_user)`, called once the write is " +
    "committed, with the row as stored (delete: as it was deleted). Sync or async. A failure is logged and the client still gets " +
    "the success: the write stands.",
  examples: ["blog.hooks.record_article_created"],
});

/** `convention`: whose signatures `pre`, `post`, `can` and `serializer` have, codegen's or kiln's. */
export const HookConvention = Convention.meta({
  description:
    "The signatures of `pre`, `post` and `can`: `\"codegen\"` (above), or kiln's: `pre(body, *, db) -> body` (the validated request " +
    "body, its model returned), `post(row, body, *, db)` (delete: `post(row, *, db)`), `async can(resource, session) -> bool` " +
    "(the row or `None`, then the signed-in user: with kiln's login, its session model), `async serializer(row, session, db)` (the row, the " +
    "signed-in user or `None`, the request's database session). Only beside `pre`, `post`, `can` or `serializer`. Default: `\"kiln\"` " +
    "in an app written in kiln's format (its `version: \"1\"`), else `\"codegen\"`.",
});

const SERIALIZER_DESCRIPTION =
  "get, list (each item), create and update: your function turning the row (loaded with everything the resource's `fields` " +
  "show) into the response, instead of the generated serializer; a plain function, no I/O. A dotted path (the response is " +
  "any JSON value, which OpenAPI cannot describe), or `{ fn, schema }` with the Pydantic model it returns.";
const SERIALIZER_EXAMPLES = ["blog.hooks.tag_label", { fn: "blog.hooks.author_card", schema: "blog.hooks.AuthorCard" }];

/**
 * `serializer`: your function turning the row into the response, and the Pydantic model it
 * returns, if any (the response's OpenAPI schema).
 * @example "blog.hooks.tag_label"
 * @example { fn: "blog.hooks.author_card", schema: "blog.hooks.AuthorCard" }
 */
export const SerializerConfig = z
  .union(
    [
      DottedPath,
      z.strictObject({
        fn: DottedPath.meta({
          description: "Your function `(row) -> response`: a plain (not async) function of the loaded row; with `convention: \"kiln\"`, kiln's `async (row, session, db)`.",
          examples: ["blog.hooks.author_card"],
        }),
        schema: DottedPath.optional().meta({
          description: "The Pydantic model it returns: the route's response model, checked by FastAPI and shown in OpenAPI. Default: none, any JSON value.",
          examples: ["blog.hooks.AuthorCard"],
        }),
      }),
    ],
    { error: 'expected a dotted path like "blog.hooks.author_card", or { fn, schema? }' },
  )
  .meta({ id: "SerializerConfig", description: SERIALIZER_DESCRIPTION, examples: SERIALIZER_EXAMPLES })
  .transform((serializer): { fn: string; schema?: string } => (typeof serializer === "string" ? { fn: serializer } : serializer));
export type SerializerConfig = z.output<typeof SerializerConfig>;

/** `serializer` as an entry's key, described where the reference lists the entry's keys. */
export const SerializerSetting = SerializerConfig.optional().meta({ description: SERIALIZER_DESCRIPTION, examples: SERIALIZER_EXAMPLES });

/** The hook keys of an entry, as its options carry them. */
export interface HookKeys {
  type: string;
  pre?: string;
  post?: string;
  can?: string;
  convention?: Convention;
  serializer?: SerializerConfig;
  representation?: string;
}

/**
 * Refuses a serializer beside a representation, and a `convention` with no hook to call that
 * way, at the key's path. Which routes call which hook their endpoint operations declare
 * (`Route.hooks`); the `hooks` augmenter checks it.
 */
export function checkHooks(options: HookKeys, ctx: z.RefinementCtx): void {
  if (options.serializer !== undefined && options.representation !== undefined) {
    ctx.addIssue({ code: "custom", path: ["serializer"], message: "the response is the serializer's or the representation's: give one of serializer and representation" });
  }
  if (options.convention !== undefined && options.pre === undefined && options.post === undefined && options.can === undefined && options.serializer === undefined) {
    ctx.addIssue({ code: "custom", path: ["convention"], message: "says whose signatures pre, post, can and serializer have, but this entry has none of them: give one or drop convention" });
  }
}

type Levels = readonly { config: { resources: readonly { operations: readonly unknown[] }[] } }[];

/**
 * Whether some entry of the project has a `pre` or `post` hook: only then does the tree get
 * `runtime/hooks.py`.
 */
export function hooksUsed(apps: Levels): boolean {
  return apps.some((app) =>
    app.config.resources.some((resource) =>
      resource.operations.some((entry) => typeof entry === "object" && entry !== null && ((entry as HookKeys).pre !== undefined || (entry as HookKeys).post !== undefined)),
    ),
  );
}
