/**
 * JSON Web Tokens for the blog's generated JWT flow (config/auth.jsonnet, config/authz.jsonnet),
 * minted with node:crypto byte for byte as a JWT library would, so a test can send a valid
 * token without logging in, or one that is wrong in exactly one way.
 */
import { type KeyObject, createHmac, sign } from "node:crypto";

export type Claims = Record<string, unknown>;

/** The blog's `iss` and `aud`, as its configs set them. */
export const ISSUER = "blog";
export const AUDIENCE = "blog-api";

/** The current time in whole seconds, as `iat` and `exp` count it. */
export function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** Claims of a valid token for ada, good for ten minutes; an `undefined` override drops the claim. */
export function claims(overrides: Claims = {}): Claims {
  const base: Claims = { sub: "ada", iat: now(), exp: now() + 600, iss: ISSUER, aud: AUDIENCE };
  return Object.fromEntries(Object.entries({ ...base, ...overrides }).filter(([, value]) => value !== undefined));
}

/**
 * A compact JWS of `payload` signed with `alg`: `HS256`/`HS384`/`HS512` with `key` the shared
 * secret, `RS256` with `key` a private key, `none` without a signature.
 */
export function signJwt(payload: Claims, key: string | KeyObject, alg = "HS256"): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${encode({ alg, typ: "JWT" })}.${encode(payload)}`;
  let signature = "";
  if (alg.startsWith("HS")) signature = createHmac(`sha${alg.slice(2)}`, key).update(input).digest("base64url");
  else if (alg === "RS256") signature = sign("sha256", Buffer.from(input), key).toString("base64url");
  else if (alg !== "none") throw new Error(`signJwt: unsupported alg ${alg}`);
  return `${input}.${signature}`;
}
