// Cookie sessions and logout of the generated JWT flow (docs/auth.md): where requests carry
// the token (`sources`, kiln's key), the cookie's attributes, the origins whose pages may send
// cookie-authenticated unsafe requests, and the logout endpoint that
// revokes a token through the deny-list in PostgreSQL. All default to today's bearer-only flow.

import { z } from "zod";
import { Origin } from "./cors.js";
import { EnvVarName, UrlPath } from "./primitives.js";

/** Where a request may carry its access token. */
export const TokenSource = z.enum(["bearer", "cookie"]);
export type TokenSource = z.output<typeof TokenSource>;

export const SESSION_DEFAULTS = {
  cookie_name: "access_token",
  cookie_secure: true,
  cookie_samesite: "strict",
  allowed_origins_env: "ALLOWED_ORIGINS",
  logout_url: "/auth/logout",
  session_url: "/auth/session",
} as const;

/** The cookie the token endpoint sets, every attribute resolved. */
export interface SessionCookie {
  name: string;
  secure: boolean;
  same_site: "strict" | "lax" | "none";
  /** The origins whose pages may send cookie-authenticated unsafe requests (`allowed_origins`). */
  allowed_origins: string[];
  /** The environment variable whose origins replace `allowed_origins` when it is set. */
  allowed_origins_env: string;
}

/** The keys of `auth` this file owns, spread into its schema. */
export const sessionKeys = {
  sources: z
    .array(TokenSource)
    .min(1, 'must name at least one source: "bearer", "cookie" or both')
    .refine((sources) => new Set(sources).size === sources.length, { message: "names a source twice" })
    .optional()
    .meta({
      description:
        'Where requests carry the access token: `["bearer"]` (the `Authorization` header), `["cookie"]` (an `HttpOnly` cookie the ' +
        'token endpoint sets; the token is then never in a response body), or both. Cookie-authenticated unsafe requests must come ' +
        "from a trusted origin (docs/auth.md, CSRF).",
      default: ["bearer"],
      examples: [["bearer", "cookie"]],
    }),
  cookie_name: z
    .string()
    .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "must be a cookie name: letters, digits and !#$%&'*+-.^_`|~")
    .optional()
    .meta({ description: 'Name of the session cookie. Only with `"cookie"` in `sources`.', default: SESSION_DEFAULTS.cookie_name }),
  cookie_secure: z.boolean().optional().meta({
    description:
      "The cookie's `Secure` attribute: browsers send it over HTTPS only. Set `false` only for development on `http://localhost`. " +
      'Only with `"cookie"` in `sources`.',
    default: SESSION_DEFAULTS.cookie_secure,
  }),
  cookie_samesite: z.enum(["strict", "lax", "none"]).optional().meta({
    description:
      "The cookie's `SameSite` attribute. `strict` keeps browsers from sending it on any cross-site request; `none` (a front end " +
      'on another site) needs `cookie_secure`. Only with `"cookie"` in `sources`.',
    default: SESSION_DEFAULTS.cookie_samesite,
  }),
  allowed_origins: z
    .array(Origin)
    .optional()
    .meta({
      description:
        "Origins whose pages may send cookie-authenticated unsafe requests (POST, PATCH, DELETE…) and post the login form: your " +
        "front end's, the API's own when it serves pages. The request's `Origin` must be one of them or of the CORS origins allowed " +
        "with credentials; the `Host` header is never compared. Unset and without the environment variable, no origin is allowed: " +
        'every such request carrying an `Origin` is refused (403). Only with `"cookie"` in `sources`.',
      default: [],
      examples: [["https://app.example.com"]],
    }),
  allowed_origins_env: EnvVarName.optional().meta({
    description:
      "Environment variable whose comma-separated origins replace `allowed_origins` when it is set (read at startup, each one " +
      '`scheme://host[:port]`; a malformed one stops the application). `codegen dev` sets it. Only with `"cookie"` in `sources`.',
    default: SESSION_DEFAULTS.allowed_origins_env,
  }),
  logout_url: UrlPath.optional().meta({
    description:
      "Path of the logout endpoint, which revokes the request's token (a deny-list in PostgreSQL keyed by its `jti`). Issued tokens " +
      'then carry a `jti`. Default: `/auth/logout` with `"cookie"` in `sources` (an `HttpOnly` cookie cannot be cleared otherwise), ' +
      "no logout endpoint without.",
    examples: ["/auth/logout"],
  }),
  session_url: UrlPath.optional().meta({
    description:
      "Path of the session endpoint: `GET` answers who the request's token belongs to (its subject, groups and expiry), or 401. " +
      "A front end keeping its session in an `HttpOnly` cookie asks it, since no script can read the token. Default: " +
      '`/auth/session` with `"cookie"` in `sources`, no session endpoint without.',
    examples: ["/auth/session"],
  }),
};

/** The keys `sessionKeys` adds to `auth`, none of which `get_current_user_fn` may set. */
export const SESSION_KEYS = Object.keys(sessionKeys) as (keyof typeof sessionKeys)[];

/** The session keys a bearer-only flow must not set. */
const COOKIE_KEYS = ["cookie_name", "cookie_secure", "cookie_samesite", "allowed_origins", "allowed_origins_env"] as const;

type SessionInput = { [K in keyof typeof sessionKeys]?: z.output<(typeof sessionKeys)[K]> };

/** Issues of the session keys that depend on each other: cookie attributes without a cookie, `SameSite=None` without `Secure`. */
export function checkSessions(auth: SessionInput, ctx: z.RefinementCtx): void {
  const cookie = auth.sources?.includes("cookie") ?? false;
  for (const key of COOKIE_KEYS) {
    if (!cookie && auth[key] !== undefined) {
      ctx.addIssue({ code: "custom", path: [key], message: 'has no effect: sources does not include "cookie"; add it, or remove this key' });
    }
  }
  if (cookie && auth.cookie_samesite === "none" && auth.cookie_secure === false) {
    ctx.addIssue({
      code: "custom",
      path: ["cookie_samesite"],
      message: 'cannot be "none" with cookie_secure: false: browsers refuse a SameSite=None cookie that is not Secure',
    });
  }
}

/** The resolved session settings of the JWT flow. */
export function resolveSessions(auth: SessionInput): { sources: TokenSource[]; cookie?: SessionCookie; logout_url?: string; session_url?: string } {
  const sources = auth.sources ?? ["bearer"];
  if (!sources.includes("cookie")) {
    return { sources, ...(auth.logout_url !== undefined && { logout_url: auth.logout_url }), ...(auth.session_url !== undefined && { session_url: auth.session_url }) };
  }
  const cookie: SessionCookie = {
    name: auth.cookie_name ?? SESSION_DEFAULTS.cookie_name,
    secure: auth.cookie_secure ?? SESSION_DEFAULTS.cookie_secure,
    same_site: auth.cookie_samesite ?? SESSION_DEFAULTS.cookie_samesite,
    allowed_origins: auth.allowed_origins ?? [],
    allowed_origins_env: auth.allowed_origins_env ?? SESSION_DEFAULTS.allowed_origins_env,
  };
  return {
    sources,
    cookie,
    logout_url: auth.logout_url ?? SESSION_DEFAULTS.logout_url,
    session_url: auth.session_url ?? SESSION_DEFAULTS.session_url,
  };
}
