// Authentication of the generated backend (`be/auth/jwt.libsonnet`). With `auth` set, the
// backend gains an `auth/` package and every handler a `current_user` dependency. Two
// flows: the generated JWT flow (`verify_credentials_fn`, a token endpoint, tokens signed
// with the key in `secret_env`), or the user's own `get_current_user_fn`, which replaces it.

import { z } from "zod";
import { isRecord } from "../../../codegen/index.js";
import { GroupConfig } from "./authz.js";
import { kilnKeys } from "./kiln.js";
import { OpaConfig } from "./opa.js";
import { DottedPath, EnvVarName, NonEmptyString, PythonName, UrlPath } from "./primitives.js";
import { RateLimitString } from "./rate-limit.js";
import { SESSION_KEYS, type SessionCookie, type TokenSource, checkSessions, resolveSessions, sessionKeys } from "./sessions.js";

/** JWT signing algorithms PyJWT supports. HS* sign with a shared secret, the others with a PEM private key. */
export const JwtAlgorithm = z.enum([
  "HS256", "HS384", "HS512",
  "RS256", "RS384", "RS512",
  "ES256", "ES384", "ES512",
  "PS256", "PS384", "PS512",
  "EdDSA",
]);
export type JwtAlgorithm = z.output<typeof JwtAlgorithm>;

/** Whether `algorithm` signs with a shared secret (HMAC) rather than a private key. */
export function isHmac(algorithm: JwtAlgorithm): boolean {
  return algorithm.startsWith("HS");
}

export const ExcludePath = z
  .string()
  .regex(/^\/[^*\s]*\*?$/, 'must be a path starting with "/", optionally ending in "*" (a prefix): "/health", "/tags*"')
  .refine((path) => path === "/" || path.endsWith("*") || !path.endsWith("/"), {
    message: 'ends with "/" and would match no route: drop the "/", or end it with "*" to match a prefix',
  })
  .meta({
    id: "ExcludePath",
    title: "excluded path",
    description:
      "A route path as OpenAPI shows it (`/articles/{pk}`), matched exactly, or a prefix ending in `*` (`/tags*`, `/articles/*`); " +
      'not ending in "/" unless it is "/".',
  });

/** Defaults of the generated JWT flow: documented in the schema, applied by the transform. */
const JWT_DEFAULTS = { algorithm: "HS256", token_url: "/auth/token", token_lifetime_seconds: 3600 } as const;

/**
 * The token endpoint's own limits against password guessing, per username and per client
 * address: each attempt counts in both, before the password is checked.
 */
export const TOKEN_RATE_LIMIT_DEFAULTS = { username: "10/minute;100/hour", address: "30/minute;300/hour" } as const;

/** The token endpoint's limits, every default filled; a key that is absent is not limited. */
export interface TokenRateLimit {
  username?: string;
  address?: string;
}

const TokenRateLimitConfig = z
  .union(
    [
      z.literal(false),
      z.strictObject({
        username: z.union([z.literal(false), RateLimitString]).optional().meta({
          description: "Attempts per username (compared in lower case), or `false` for no limit.",
          default: TOKEN_RATE_LIMIT_DEFAULTS.username,
        }),
        address: z.union([z.literal(false), RateLimitString]).optional().meta({
          description: "Attempts per client address (`trusted_proxies` decides it), or `false` for no limit.",
          default: TOKEN_RATE_LIMIT_DEFAULTS.address,
        }),
      }),
    ],
    { error: 'expected { username?, address? } with limits like "10/minute" (or false for either), or false' },
  )
  .meta({
    id: "TokenRateLimit",
    description:
      "Limits of the token endpoint against password guessing (docs/auth.md): attempts per username and per client address, " +
      "counted in PostgreSQL before the password is checked; over either, 429 with `Retry-After`. `false` turns both off.",
    examples: [{ username: "5/minute;50/day" }, false],
  });

/** `limits` without the per-username one when the login has no username. */
function withoutUsername(limits: TokenRateLimit, noUsername: boolean): TokenRateLimit {
  return noUsername ? { ...(limits.address !== undefined && { address: limits.address }) } : limits;
}

/** The limits `token_rate_limit` gives, defaults filled. */
function resolveTokenRateLimit(setting: z.output<typeof TokenRateLimitConfig> | undefined): TokenRateLimit {
  if (setting === false) return {};
  const username = setting?.username ?? TOKEN_RATE_LIMIT_DEFAULTS.username;
  const address = setting?.address ?? TOKEN_RATE_LIMIT_DEFAULTS.address;
  return { ...(username !== false && { username }), ...(address !== false && { address }) };
}

/** kiln's login: a JSON body validated into your credentials model, your function, your session model in the token. */
const KILN_LOGIN_KEYS = ["credentials_schema", "session_schema", "validate_fn"] as const;

/** Where kiln's logout is, under the token endpoint: the default `logout_url` with a `session_store`. */
const kilnLogoutUrl = (tokenUrl: string) => `${tokenUrl}/logout`;

/** Keys that configure the generated JWT flow, and mean nothing once `get_current_user_fn` replaces it. */
const JWT_ONLY_KEYS = [
  "secret_env", "algorithm", "token_url", "verify_credentials_fn", "token_lifetime_seconds", "issuer", "audience", "token_rate_limit",
  ...SESSION_KEYS, ...KILN_LOGIN_KEYS, "user_id_attr", "session_store",
] as const;

const AuthObject = z.strictObject({
  type: z.literal("jwt").meta({ description: "The authentication scheme; `jwt` is the only one (`auth.jwt()` sets it)." }),
  secret_env: EnvVarName.optional().meta({
    description:
      "Environment variable holding the signing key: a secret for `HS*`, a PEM private key otherwise; the key never goes in the " +
      "config. Required for the JWT flow.",
    examples: ["JWT_SECRET"],
  }),
  algorithm: JwtAlgorithm.optional().meta({
    description: "Signs issued tokens; the only algorithm accepted on received ones.",
    default: JWT_DEFAULTS.algorithm,
  }),
  token_url: UrlPath.optional().meta({ description: "Path of the token endpoint.", default: JWT_DEFAULTS.token_url }),
  exclude_paths: z
    .array(ExcludePath)
    .default(() => [])
    .meta({
      description:
        "Route paths that skip authentication: exact (`/articles/{pk}`), or a prefix ending in `*` (`/tags*`), matched against " +
        "the full path including the app's prefix.",
      examples: [["/articles/count-words", "/tags*"]],
    }),
  verify_credentials_fn: DottedPath.optional().meta({
    description:
      "`verify_credentials(username, password) -> str | None`, returning the token's subject. Required unless " +
      "`get_current_user_fn` is set.",
    examples: ["blog.auth.verify_credentials"],
  }),
  credentials_schema: DottedPath.optional().meta({
    description:
      "kiln's login: the Pydantic model the token endpoint's JSON body is validated into (422 naming the field when it does not " +
      "fit). With `session_schema` and `validate_fn`, in place of `verify_credentials_fn`.",
    examples: ["shop.auth.LoginCredentials"],
  }),
  session_schema: DottedPath.optional().meta({
    description:
      "kiln's login: the Pydantic model `validate_fn` returns; its fields are put in the token as claims " +
      "(`Session.model_validate(current_user.claims)` reads it back). Its `user_id_attr` field is the token's subject.",
    examples: ["shop.auth.Session"],
  }),
  validate_fn: DottedPath.optional().meta({
    description: "kiln's login: `validate(credentials) -> Session | None` (plain or `async def`); `None` answers 401.",
    examples: ["shop.auth.validate_login"],
  }),
  user_id_attr: PythonName.optional().meta({
    description: "kiln's login: the field of the session model that is the token's subject. Default: `sub`, else `user_id`, whichever the session has.",
    examples: ["user_id"],
  }),
  session_store: DottedPath.optional().meta({
    description:
      "kiln's login: your revocation store, an object with `async is_revoked(session) -> bool` and `async revoke(session)`, " +
      "given the session model. Every request asks it besides the deny-list; logout tells it. Default `logout_url` then: " +
      "`{token_url}/logout`.",
    examples: ["shop.revocation.revocations"],
  }),
  get_current_user_fn: DottedPath.optional().meta({
    description:
      "A FastAPI dependency of yours returning the current user. It replaces the JWT flow: every other key but `type` and " +
      "`exclude_paths` is then an error.",
    examples: ["blog.auth.current_user"],
  }),
  token_lifetime_seconds: z.int().min(1).optional().meta({
    description: "Lifetime of an issued token, in seconds (`exp - iat`, and the token response's `expires_in`).",
    default: JWT_DEFAULTS.token_lifetime_seconds,
  }),
  token_rate_limit: TokenRateLimitConfig.optional(),
  issuer: NonEmptyString.optional().meta({ description: "`iss` claim set on issued tokens; received tokens must carry exactly this `iss`. Default: none." }),
  audience: NonEmptyString.optional().meta({
    description: "`aud` claim set on issued tokens and required on received ones; without it, a token carrying any `aud` is refused. Default: none.",
  }),
  groups: GroupConfig.optional(),
  ...sessionKeys,
  opa: OpaConfig.optional(),
  ...kilnKeys("auth"),
});
type AuthObject = z.output<typeof AuthObject>;

/** The generated JWT flow, every default filled. */
export interface JwtAuth {
  type: "jwt";
  secret_env: string;
  algorithm: JwtAlgorithm;
  token_url: string;
  exclude_paths: string[];
  /** The username-and-password check; unset with kiln's `login`. */
  verify_credentials_fn?: string;
  /** kiln's login, in place of `verify_credentials_fn`. */
  login?: KilnLogin;
  token_lifetime_seconds: number;
  /** Attempts the token endpoint allows per username and per client address. */
  token_rate_limit: TokenRateLimit;
  issuer?: string;
  audience?: string;
  /** Where users' groups come from; unset: the `groups` claim (`DEFAULT_GROUP_CLAIM`). */
  groups?: GroupConfig;
  /** Where requests carry the token; `["bearer"]` unless configured. */
  sources: TokenSource[];
  /** The session cookie, when `sources` includes `"cookie"`. */
  cookie?: SessionCookie;
  /** The logout endpoint's path; tokens then carry a `jti` that the deny-list keys. */
  logout_url?: string;
  /** The session endpoint's path (`GET`: the token's subject, groups and expiry). */
  session_url?: string;
  /** The OPA server of routes with `opa: true`. */
  opa?: OpaConfig;
  get_current_user_fn?: undefined;
}

/** kiln's login: the token endpoint validates a JSON body into `credentials_schema` and calls `validate_fn`. */
export interface KilnLogin {
  credentials_schema: string;
  session_schema: string;
  validate_fn: string;
  /** The session's fields tried, in order, for the token's subject. */
  subject_fields: string[];
  /** Your revocation store, asked about every token and told at logout. */
  session_store?: string;
}

/** The user's own `get_current_user` dependency in place of the JWT flow. */
export interface CustomAuth {
  type: "jwt";
  exclude_paths: string[];
  get_current_user_fn: string;
  /** Your membership function; no default (your user has no token claims we know of). */
  groups?: { fn: string };
  opa?: undefined;
}

function checkFlow(auth: AuthObject, ctx: z.RefinementCtx): void {
  if (auth.get_current_user_fn !== undefined) {
    if (auth.groups !== undefined && "claim" in auth.groups) {
      ctx.addIssue({
        code: "custom",
        path: ["groups", "claim"],
        message: "groups from a token claim need the generated JWT flow: with get_current_user_fn, name your membership function in groups.fn",
      });
    }
    if (auth.opa !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["opa"],
        message: "needs the generated JWT flow: OPA's input.subject is the token's subject, groups and claims, which get_current_user_fn does not give",
      });
    }
    for (const key of JWT_ONLY_KEYS) {
      if (auth[key] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "has no effect with get_current_user_fn: your dependency replaces the generated token flow; remove this key",
        });
      }
    }
    return;
  }
  if (auth.secret_env === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["secret_env"],
      message: 'required: the environment variable holding the signing secret, like "JWT_SECRET"',
    });
  }
  const kilnLogin = KILN_LOGIN_KEYS.filter((key) => auth[key] !== undefined);
  if (kilnLogin.length > 0) {
    for (const key of KILN_LOGIN_KEYS) {
      if (auth[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `required with ${kilnLogin.join(" and ")}: kiln's login takes credentials_schema, session_schema and validate_fn together` });
      }
    }
    if (auth.verify_credentials_fn !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["verify_credentials_fn"],
        message: "give verify_credentials_fn (a username and password form) or kiln's credentials_schema, session_schema and validate_fn, not both",
      });
    }
    if (isRecord(auth.token_rate_limit) && auth.token_rate_limit.username !== undefined) {
      ctx.addIssue({ code: "custom", path: ["token_rate_limit", "username"], message: "kiln's login has no username to count attempts by; remove this key (attempts per address are counted)" });
    }
  } else {
    if (auth.session_store !== undefined) {
      ctx.addIssue({ code: "custom", path: ["session_store"], message: "is given kiln's session model: it needs credentials_schema, session_schema and validate_fn" });
    }
    if (auth.user_id_attr !== undefined) {
      ctx.addIssue({ code: "custom", path: ["user_id_attr"], message: "names a field of kiln's session model: it needs credentials_schema, session_schema and validate_fn" });
    }
    if (auth.verify_credentials_fn === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["verify_credentials_fn"],
        message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials",
      });
    }
  }
  checkSessions(auth, ctx);
}

/**
 * Authentication settings. Parsing fills the JWT flow's defaults; with `get_current_user_fn`,
 * the JWT-only keys are errors.
 */
export const AuthConfig = AuthObject.superRefine(checkFlow)
  .meta({
    id: "AuthConfig",
    description:
      "Authentication (docs/auth.md): the generated JWT flow (`verify_credentials_fn`, a token endpoint, tokens signed with " +
      "the key in `secret_env`), or your own `get_current_user_fn` dependency, which replaces it.",
    examples: [
      { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify_credentials" },
      { type: "jwt", get_current_user_fn: "blog.auth.current_user", exclude_paths: ["/health"] },
    ],
  })
  .transform((auth): JwtAuth | CustomAuth => {
  if (auth.get_current_user_fn !== undefined) {
    const groups = auth.groups !== undefined && "fn" in auth.groups ? { groups: auth.groups } : {};
    return { type: auth.type, exclude_paths: auth.exclude_paths, get_current_user_fn: auth.get_current_user_fn, ...groups };
  }
  return {
    type: auth.type,
    secret_env: auth.secret_env!,
    algorithm: auth.algorithm ?? JWT_DEFAULTS.algorithm,
    token_url: auth.token_url ?? JWT_DEFAULTS.token_url,
    exclude_paths: auth.exclude_paths,
    ...(auth.validate_fn === undefined
      ? { verify_credentials_fn: auth.verify_credentials_fn! }
      : {
          login: {
            credentials_schema: auth.credentials_schema!,
            session_schema: auth.session_schema!,
            validate_fn: auth.validate_fn,
            subject_fields: auth.user_id_attr === undefined ? ["sub", "user_id"] : [auth.user_id_attr],
            ...(auth.session_store !== undefined && { session_store: auth.session_store }),
          },
        }),
    token_lifetime_seconds: auth.token_lifetime_seconds ?? JWT_DEFAULTS.token_lifetime_seconds,
    // kiln's login has no username: its attempts are counted per address only.
    token_rate_limit: withoutUsername(resolveTokenRateLimit(auth.token_rate_limit), auth.validate_fn !== undefined),
    ...(auth.issuer !== undefined && { issuer: auth.issuer }),
    ...(auth.audience !== undefined && { audience: auth.audience }),
    ...(auth.groups !== undefined && { groups: auth.groups }),
    // A session store is told at logout: kiln's logout route is there by default.
    ...resolveSessions({ ...auth, ...(auth.session_store !== undefined && auth.logout_url === undefined && { logout_url: kilnLogoutUrl(auth.token_url ?? JWT_DEFAULTS.token_url) }) }),
    ...(auth.opa !== undefined && { opa: auth.opa }),
  };
});
export type AuthConfig = z.output<typeof AuthConfig>;

/**
 * Whether `path` (a route path as OpenAPI shows it) matches an `exclude_paths` entry:
 * equal to it, or starting with it minus its trailing `*`.
 * @example excludedBy("/tags/{pk}", ["/tags*"]) // "/tags*"
 */
export function excludedBy(path: string, patterns: readonly string[]): string | undefined {
  return patterns.find((pattern) => (pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : path === pattern));
}
