// kiln configs (roddarjohn/kiln, the design codegen follows) read here. Keys that mean nothing
// here: each level's schema accepts them through `kilnKeys(level)`, and `kilnWarnings` finds
// them in the evaluated config, so a kiln config generates and every ignored key is named.
// Shapes of kiln's that mean something here are parsed into codegen's (the project's
// `rate_limit`). docs/migrating-from-kiln.md lists these and every other difference.

import { z } from "zod";
import { type ConfigIssue, formatConfigPath, isRecord } from "../../../codegen/index.js";
import { DottedPath } from "./primitives.js";
import { recordAlsoDefaulted } from "./provenance.js";
import { RateLimitConfig, RateLimitKey, RateLimitSetting, RateLimitString } from "./rate-limit.js";

/**
 * Where a key sits: `auth`, a resource, an operation entry, a list's `paginate` modifier,
 * the entry on which `resource.saved_views(...)` keeps kiln's arguments (its `view_list`)
 * (kiln's keys of the project and apps all mean something here).
 */
export type KilnLevel = "auth" | "resource" | "operation" | "paginate" | "saved_views";

/** Why one of kiln's early list keys has no effect, and what does it. */
const EARLY_LIST_KEY = (modifier: string) =>
  `kiln's early list key, which kiln ignores too; a { type: "${modifier}" } modifier does it (list.searchable's ${modifier} argument)`;

/** Per level, each key accepted without effect and why it has none. */
const IGNORED: Record<KilnLevel, Readonly<Record<string, string>>> = {
  auth: {},
  resource: {},
  operation: {
    // kiln's early list keys: kiln itself ignores them; the modifiers say the same thing.
    filters: EARLY_LIST_KEY("filter"),
    ordering: EARLY_LIST_KEY("order"),
    pagination: EARLY_LIST_KEY("paginate"),
  },
  saved_views: {
    serializer: "a view's answer is codegen's SavedView, its query as the list's query parameters (no ids to hydrate)",
    owner_guard: "a view is its owner's by construction: every route reads and writes only the signed-in user's views",
    fields: "a view's answer is codegen's SavedView: id, name, query, columns, created_at, updated_at",
    create_fields: "a view is saved with its name, the list's query parameters and the columns shown",
    update_fields: "a PATCH of a view changes its name, query or columns",
    filter_fields: "the views listed are the signed-in user's views of the resource the entries are on",
  },
  paginate: {
    cursor_field:
      "a keyset cursor holds every sort key of the page's last row (the list's order, then the primary key), so pages follow " +
      "the order; to page by a column, make it the order modifier's default",
    cursor_type: "a keyset cursor's values take the types of the order's columns",
  },
};

/** The zod keys of `level` for kiln's keys without effect: each accepts any value. Spread into the level's `strictObject`. */
export function kilnKeys(level: KilnLevel): Record<string, z.ZodType> {
  const keys: Record<string, z.ZodType> = {};
  for (const [key, reason] of Object.entries(IGNORED[level])) {
    keys[key] = z.unknown().optional().meta({ description: `Accepted from kiln configs, without effect (a warning says so): ${reason}.` });
  }
  return keys;
}

/** kiln's config format version: "1", the only one; codegen reads the same format. */
export const KilnVersion = z.literal("1", { error: 'the only config version is "1"' }).optional().meta({
  description: 'The config format version, as kiln writes it: `"1"`, the only one. Optional.',
});


/** Whether a project's or an app's config is written in kiln's format: it says kiln's `version: "1"`, which codegen's own need not. */
export function inKilnFormat(level: { version?: string | undefined }): boolean {
  return level.version === "1";
}

/** The keys of an entry naming a function of yours whose signature `convention` decides. */
const CONVENTION_KEYS = ["pre", "post", "can", "serializer"] as const;

/**
 * The entries of an app written in kiln's format have kiln's signatures: each entry calling a
 * function of yours (an action, a `pre`, `post`, `can` or `serializer`) that does not say its
 * `convention` gets kiln's. The entries are zod's parse of the config, filled in place as zod
 * fills its defaults, and the default is recorded as one.
 */
export function callKilnsWay(resources: readonly { operations: readonly unknown[] }[]): void {
  for (const resource of resources) {
    for (const entry of resource.operations as readonly Record<string, unknown>[]) {
      if (entry.convention !== undefined) continue;
      if (entry.type !== "action" && !CONVENTION_KEYS.some((key) => entry[key] !== undefined)) continue;
      entry.convention = "kiln";
      recordAlsoDefaulted(entry, "convention");
    }
  }
}

/**
 * `convention`: whose signatures a function of yours has, codegen's or kiln's (an action's
 * function, an entry's `pre` and `post`; each key describes its own).
 */
export const Convention = z.enum(["codegen", "kiln"]);
export type Convention = z.output<typeof Convention>;

/** kiln's target framework: FastAPI, the only one codegen generates. */
export const KilnFramework = z.literal("fastapi", { error: 'codegen generates FastAPI only: "fastapi"' }).optional().meta({
  description: 'The generated framework, as kiln writes it: `"fastapi"`, the only one. Optional.',
});

/**
 * Marks the project limit made from kiln's limiter object. slowapi's `key_func` and
 * `headers_enabled` belong to the limiter, not to one limit: every limit below it, a
 * resource's `'30/minute'` too, counts by that key and sends (or not) those headers.
 */
const LIMITER_WIDE = Symbol("kiln's limiter: its key and headers apply to every limit");

/** Whether `limit` is the project's limit made from kiln's limiter object (`rate_limit.slowapi(...)`). */
export function isKilnsLimiter(limit: RateLimitConfig | false | undefined): limit is RateLimitConfig {
  return limit !== undefined && limit !== false && LIMITER_WIDE in limit;
}

/** kiln's project `rate_limit` keys that codegen has no use for, and why. */
const KILN_RATE_LIMIT_IGNORED: Readonly<Record<string, string>> = {
  bucket_model: "codegen counts requests in its runtime's own table (runtime/rate_limit.py), not in a model of yours",
  db_key: "codegen counts requests in the default database",
};

/**
 * kiln's project `rate_limit` (`rate_limit.slowapi(bucket_model, opts)`): `default_limit`
 * (default `60/minute`, `null` for none) on every route, counted per `key_func` (default: the
 * client address). It means codegen's project-level `rate_limit`, which it becomes.
 */
export const KilnRateLimit = z
  .strictObject({
    bucket_model: DottedPath.meta({ description: `kiln's counter model; accepted without effect (a warning says so): ${KILN_RATE_LIMIT_IGNORED.bucket_model}.` }),
    default_limit: RateLimitString.nullable().default("60/minute").meta({
      description: "Limits of every route that sets none of its own; `null` for none. Default: `60/minute`.",
    }),
    key_func: RateLimitKey.nullable().optional().meta({
      description: "Dotted path to your function `(request) -> str` giving the counter's key. Default: the client address.",
    }),
    headers_enabled: z.boolean().default(true).meta({ description: "Send the rate-limit headers on successful responses too." }),
    db_key: z.string().optional().meta({ description: `Accepted without effect (a warning says so): ${KILN_RATE_LIMIT_IGNORED.db_key}.` }),
  })
  .transform((kiln): RateLimitConfig | false =>
    kiln.default_limit === null
      ? false
      : Object.defineProperty({ limit: kiln.default_limit, key: kiln.key_func ?? "ip", headers: kiln.headers_enabled }, LIMITER_WIDE, { value: true }),
  )
  .meta({
    id: "KilnRateLimit",
    description: "kiln's project rate limits (docs/rate-limits.md): the project's `rate_limit` in codegen's form once parsed.",
    examples: [{ bucket_model: "shop.models.RateLimitBucket", default_limit: "100/minute" }],
  });

/**
 * kiln's object as a union option: any object with a `bucket_model`, so that a string or
 * codegen's object is reported against codegen's forms; `ProjectRateLimit` then parses it
 * with `KilnRateLimit`, each problem at its key.
 */
const KilnRateLimitShape = z
  .looseObject({ bucket_model: z.unknown().optional() })
  .superRefine((value, ctx) => {
    // Not kiln's object: reported as a value of another type, so the errors are codegen's forms'.
    if (value.bucket_model === undefined) ctx.addIssue({ code: "invalid_type", expected: "object", input: value, message: "not kiln's object (no bucket_model)", continue: false });
  })
  .meta({
    title: "kiln's rate limits",
    description: "kiln's object: `bucket_model`, `default_limit`, `key_func`, `headers_enabled`, `db_key` (docs/rate-limits.md).",
  });

/**
 * `value` parsed by kiln's form of a setting that has two, inside the union's transform:
 * the form's own issues, at their paths (an unknown key at the key's), else `z.NEVER`.
 */
export function parseKilnForm<T>(schema: z.ZodType<T>, value: unknown, ctx: z.RefinementCtx): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) ctx.addIssue({ code: "custom", path: [...issue.path, key], message: "unknown key" });
    } else {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  }
  return z.NEVER;
}

/**
 * The project's `rate_limit`: codegen's setting (`RateLimitSetting`'s forms, listed flat so a
 * bad value is reported against the one form of its type), or kiln's object.
 */
export const ProjectRateLimit = z
  .union([z.literal(false), RateLimitString, RateLimitConfig, KilnRateLimitShape], {
    error: 'expected limits like "5/minute", { limit, key?, headers? }, false, or kiln\'s { bucket_model, default_limit?, key_func?, headers_enabled? }',
  })
  .transform((value, ctx): RateLimitConfig | false => {
    if (value === false || typeof value === "string") return RateLimitSetting.parse(value);
    if (!("bucket_model" in value)) return value as RateLimitConfig;
    return parseKilnForm(KilnRateLimit, value, ctx);
  })
  .meta({
    description:
      'Rate limits of every route (docs/rate-limits.md): `"5/minute"`, `{ limit, key, headers }`, `false` for none, or kiln\'s ' +
      "object with `bucket_model`. The nearest level that sets it wins: operation entry, resource, app, project. Default: no limit.",
    examples: ["100/minute", { limit: "5/second;1000/hour", key: "user" }, false, { bucket_model: "shop.models.RateLimitBucket", default_limit: "100/minute" }],
  });

/**
 * What the `fields` of an entry mean on a resource without its own `fields` (kiln's style):
 * the fields of kiln's `get` and `list` make the resource's read shape, those of its
 * `create` and `update` are request bodies (and the shape when nothing reads). These are the
 * names kiln's configs use, and the question is asked while the config is validated, before
 * any operation is loaded: a table of kiln's format, not of our operations. Any other entry's
 * `fields` belong to its operation alone.
 * @example kilnFieldsRole("list") // "read"
 */
export function kilnFieldsRole(type: unknown): "read" | "write" | undefined {
  return type === "get" || type === "list" ? "read" : type === "create" || type === "update" ? "write" : undefined;
}

type Json = Record<string, unknown>;

const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Warnings for a valid config: every kiln key it carries that has no effect, an action whose
 * `target` codegen had to assume, and a list whose rows carry more than its own `fields`.
 */
export function kilnWarnings(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const warnings: ConfigIssue[] = [];
  const ignored = (value: Json, level: KilnLevel, path: string) => {
    for (const key of Object.keys(IGNORED[level])) {
      if (value[key] !== undefined) warnings.push({ path: formatConfigPath([key], path), message: `ignored (a kiln key): ${IGNORED[level][key]}` });
    }
  };
  if (isRecord(raw.auth)) ignored(raw.auth, "auth", "auth");
  if (isRecord(raw.rate_limit)) {
    for (const [key, reason] of Object.entries(KILN_RATE_LIMIT_IGNORED)) {
      if (raw.rate_limit[key] !== undefined) warnings.push({ path: `rate_limit.${key}`, message: `ignored (a kiln key): ${reason}` });
    }
  }
  const resourceLists: [unknown, string][] = [[raw.resources, "resources"]];
  entries(raw.apps).forEach((app, index) => {
    if (!isRecord(app) || !isRecord(app.config)) return;
    resourceLists.push([app.config.resources, `apps[${index}].config.resources`]);
  });
  for (const [resources, listPath] of resourceLists) {
    entries(resources).forEach((resource, index) => {
      if (!isRecord(resource)) return;
      const path = `${listPath}[${index}]`;
      ignored(resource, "resource", path);
      warnings.push(...readShapeWarnings(resource, path));
      entries(resource.operations).forEach((entry, entryIndex) => {
        if (!isRecord(entry)) return;
        const entryPath = `${path}.operations[${entryIndex}]`;
        ignored(entry, "operation", entryPath);
        if (entry.type === "view_list") ignored(entry, "saved_views", entryPath);
        entries(entry.modifiers).forEach((modifier, modifierIndex) => {
          if (isRecord(modifier) && modifier.type === "paginate") ignored(modifier, "paginate", `${entryPath}.modifiers[${modifierIndex}]`);
        });
        if (entry.type === "action" && entry.target === undefined) {
          warnings.push({
            path: entryPath,
            message:
              "no target: kiln reads it from the function's signature, codegen does not import your code; " +
              'mounted on one instance (POST {prefix}/{pk}/{slug}); set target: "instance" or "collection" to say so',
          });
        }
      });
    });
  }
  return warnings;
}

/** A kiln-style resource (fields per operation) answers every read with one shape: say when a list gains fields. */
function readShapeWarnings(resource: Json, path: string): ConfigIssue[] {
  if (resource.fields !== undefined) return [];
  const reads = entries(resource.operations)
    .map((entry, index) => ({ entry, index }))
    .filter((item): item is { entry: Json; index: number } => isRecord(item.entry) && isRead(item.entry) && Array.isArray(item.entry.fields));
  const shape = new Set(reads.flatMap(({ entry }) => fieldNames(entry.fields)));
  return reads.flatMap(({ entry, index }) => {
    const own = new Set(fieldNames(entry.fields));
    const extra = [...shape].filter((name) => !own.has(name));
    if (extra.length === 0) return [];
    return [{
      path: `${path}.operations[${index}].fields`,
      message:
        `every read of a resource answers with one shape in codegen (its get and list fields together): ` +
        `this ${String(entry.type ?? entry.name)} also returns ${extra.join(", ")}`,
    }];
  });
}

const isRead = (entry: Json) => kilnFieldsRole(entry.type ?? entry.name) === "read";
const fieldNames = (fields: unknown): string[] => entries(fields).flatMap((field) => (isRecord(field) && typeof field.name === "string" ? [field.name] : []));
