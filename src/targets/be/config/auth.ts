// JWT authentication of the generated backend (`be/auth/jwt.libsonnet`). With `auth` set,
// the backend gains an `auth/` package and every handler a `current_user` dependency.

import { z } from "zod";
import { DottedPath, EnvVarName, NonEmptyString, UrlPath } from "./primitives.js";

/** JWT signing algorithms PyJWT supports. */
export const JwtAlgorithm = z.enum([
  "HS256", "HS384", "HS512",
  "RS256", "RS384", "RS512",
  "ES256", "ES384", "ES512",
  "PS256", "PS384", "PS512",
  "EdDSA",
]);
export type JwtAlgorithm = z.output<typeof JwtAlgorithm>;

/**
 * Authentication settings.
 * @example { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify_credentials" }
 */
export const AuthConfig = z
  .strictObject({
    /** The authentication scheme; `jwt` is the only one. */
    type: z.literal("jwt"),
    /** Environment variable holding the signing secret (never the secret itself). @example "JWT_SECRET" */
    secret_env: EnvVarName,
    /** JWT signing algorithm. @default "HS256" */
    algorithm: JwtAlgorithm.default("HS256"),
    /** Path of the token endpoint. @default "/auth/token" */
    token_url: UrlPath.default("/auth/token"),
    /** Paths that skip authentication. @default [] @example ["/health"] */
    exclude_paths: z.array(z.string().startsWith("/", 'must be a path starting with "/"')).default(() => []),
    /** Dotted path of the function checking a user's credentials; required unless `get_current_user_fn` is set. */
    verify_credentials_fn: DottedPath.optional(),
    /** Dotted path of a custom `get_current_user` dependency replacing the generated JWT flow. */
    get_current_user_fn: DottedPath.optional(),
    /** Lifetime of an issued token, in seconds. @default 3600 */
    token_lifetime_seconds: z.int().min(1).default(3600),
    /** `iss` claim set on issued tokens and required on received ones. */
    issuer: NonEmptyString.optional(),
    /** `aud` claim set on issued tokens and required on received ones. */
    audience: NonEmptyString.optional(),
  })
  .superRefine((auth, ctx) => {
    if (auth.verify_credentials_fn === undefined && auth.get_current_user_fn === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["verify_credentials_fn"],
        message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials",
      });
    }
  });
export type AuthConfig = z.output<typeof AuthConfig>;
