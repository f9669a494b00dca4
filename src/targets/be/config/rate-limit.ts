// `rate_limit` of a project, app, resource or operation entry: the limits of each route,
// cascading like `require_auth` (the nearest level that sets it wins, `false` turns limits
// off below it). Counters live in the project's PostgreSQL (runtime/rate_limit.py).

import { isIP } from "node:net";
import { z } from "zod";
import { DottedPath } from "./primitives.js";
import { recordDefaulted } from "./provenance.js";

const UNITS = ["second", "minute", "hour", "day"] as const;
const LIMIT = /^\s*(\d+)\s*\/\s*(second|minute|hour|day)s?\s*$/;

/** Problems of a limit string like `"5/second;1000/hour"`, empty when it is valid (runtime/rate_limit.py parses the same). */
export function limitProblems(spec: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const part of spec.split(";")) {
    const match = LIMIT.exec(part);
    if (!match || Number(match[1]) < 1) {
      problems.push(`"${part.trim()}" is not a limit like "5/minute" (a count from 1, then / and one of ${UNITS.join(", ")})`);
    } else if (seen.has(match[2]!)) {
      problems.push(`two limits per ${match[2]}`);
    } else {
      seen.add(match[2]!);
    }
  }
  return problems;
}

/** `"5/minute"`, or several windows at once: `"5/second;1000/hour"`. */
export const RateLimitString = z
  .string()
  .superRefine((spec, ctx) => {
    for (const message of limitProblems(spec)) ctx.addIssue({ code: "custom", message });
  })
  .meta({ title: "limits", description: 'Requests allowed per window: `"5/minute"`, or several joined by `;` (`"5/second;1000/hour"`).' });

/** Whose requests one counter counts. */
export const RateLimitKey = z
  .string()
  .refine((key) => key === "ip" || key === "user" || DottedPath.safeParse(key).success, {
    message: 'expected "ip", "user", or a dotted path to a function of the request (like "myapp.limits.api_key")',
  })
  .meta({
    description:
      '`"ip"`: the client address (see `trusted_proxies`); `"user"`: the authenticated user (the route must require one); ' +
      "or a dotted path to your function `(request) -> str | None` (sync or async; `None` leaves the request unlimited).",
  });

/** The limits of a route. */
export const RateLimitConfig = z
  .strictObject({
    limit: RateLimitString,
    key: RateLimitKey.default("ip"),
    headers: z.boolean().default(true).meta({ description: "Send `RateLimit` and `RateLimit-Policy` on successful responses too (a 429 always has them)." }),
  })
  .meta({ id: "RateLimitConfig", description: "Rate limits of a route, counted per key in PostgreSQL." });
export type RateLimitConfig = z.output<typeof RateLimitConfig>;

/** A level's `rate_limit`: limits (a string is `{ limit }`), or `false` for none. */
export const RateLimitSetting = z
  .union([z.literal(false), RateLimitString, RateLimitConfig], { error: 'expected limits like "5/minute", { limit, key?, headers? }, or false' })
  // A bare string takes RateLimitConfig's own defaults (key "ip", headers on), recorded as
  // defaults: under kiln's limiter, the limiter's key and headers replace them.
  .transform((setting): RateLimitConfig | false =>
    typeof setting === "string" ? recordDefaulted(RateLimitConfig.parse({ limit: setting }), ["key", "headers"]) : setting,
  )
  .meta({
    description:
      'Rate limits of every route below this level (each route counts apart): `"5/minute"`, `{ limit, key, headers }`, or `false` ' +
      "for none. The nearest level that sets it wins: operation entry, resource, app, project. Default: no limit.",
    examples: ["100/minute", { limit: "5/second;1000/hour", key: "user" }, false],
  });

/** An address or network whose `X-Forwarded-For` is believed: `10.0.0.0/8`, `127.0.0.1`, `::1`. */
export const TrustedProxy = z
  .string()
  .refine((value) => {
    const [address, prefix, ...rest] = value.split("/");
    const version = isIP(address ?? "");
    if (version === 0 || rest.length > 0) return false;
    return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
  }, "must be an IP address or network like 10.0.0.0/8")
  .meta({ title: "trusted proxy" });
