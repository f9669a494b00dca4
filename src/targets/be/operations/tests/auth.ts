// How the generated tests authenticate, from the project's `auth`. The generated JWT flow:
// the conftest mints a real token, signed with the key in `secret_env` (a random test key
// is set when the variable is unset, before the app first reads it), with the claims the
// app requires (`iss`, `aud`), and `client` sends it. `get_current_user_fn`: `client`
// replaces the generated `get_current_user` dependency through `app.dependency_overrides`
// with a stand-in user. Either way `anonymous_client` sends no credentials (401 tests).

import { type ImportCollector, prefixImport } from "../../../../codegen/index.js";
import { type JwtAlgorithm, type ProjectConfig, groupsNamed, isHmac } from "../../config/schema.js";
import { docstringText, pythonString } from "../../python/literals.js";
import { tokenGroupClaim } from "../auth/groups.js";

/** The subject of the tests' user: the `sub` of minted tokens, the stand-in user's `subject`. */
export const TEST_SUBJECT = "test-user";

/** The subject of `other_client`'s user (the JWT flow, with row visibility): another user in the same groups. */
export const OTHER_SUBJECT = "other-user";

/** How a test key of an asymmetric algorithm is made: the Python expression, its module, and the key's class. */
function keyGenerator(algorithm: JwtAlgorithm): { expression: string; name: string; type: string; kind: string; article: string } {
  if (algorithm === "EdDSA") {
    return { expression: "ed25519.Ed25519PrivateKey.generate()", name: "ed25519", type: "ed25519.Ed25519PrivateKey", kind: "Ed25519", article: "an Ed25519" };
  }
  if (algorithm.startsWith("ES")) {
    const curve = { ES256: "SECP256R1", ES384: "SECP384R1", ES512: "SECP521R1" }[algorithm as "ES256" | "ES384" | "ES512"];
    return { expression: `ec.generate_private_key(ec.${curve}())`, name: "ec", type: "ec.EllipticCurvePrivateKey", kind: `EC (${curve})`, article: "an EC" };
  }
  return { expression: "rsa.generate_private_key(public_exponent=65537, key_size=2048)", name: "rsa", type: "rsa.RSAPrivateKey", kind: "RSA", article: "an RSA" };
}

/** The conftest's auth context (undefined without `auth`); adds the imports it needs to `imports`. */
export function authSuite(project: ProjectConfig, packagePrefix: string, imports: ImportCollector): Record<string, unknown> | undefined {
  const auth = project.auth;
  if (auth === undefined) return undefined;
  if (auth.get_current_user_fn !== undefined) {
    imports.addFrom("dataclasses", "dataclass").addFrom(prefixImport(packagePrefix, "auth", "dependencies"), "get_current_user");
    return { custom: true, user_fn: auth.get_current_user_fn, subject: TEST_SUBJECT, subject_literal: pythonString(TEST_SUBJECT) };
  }
  const hmac = isHmac(auth.algorithm);
  imports.add("time").add("jwt");
  // The tests' users are members of every group the config names, so group checks let them through.
  const groupClaim = tokenGroupClaim(project);
  const groups = groupClaim === undefined ? [] : groupsNamed(project.apps);
  const claims = [
    `"sub": subject`,
    `"iat": now`,
    `"exp": now + ${auth.token_lifetime_seconds}`,
    ...(auth.issuer !== undefined ? [`"iss": ${pythonString(auth.issuer)}`] : []),
    ...(auth.audience !== undefined ? [`"aud": ${pythonString(auth.audience)}`] : []),
    ...(groups.length > 0 ? [`${pythonString(groupClaim!)}: [${groups.map(pythonString).join(", ")}]`] : []),
  ];
  const context: Record<string, unknown> = {
    jwt: true,
    secret_env: auth.secret_env,
    secret_env_literal: pythonString(auth.secret_env),
    algorithm_literal: pythonString(auth.algorithm),
    subject: TEST_SUBJECT,
    subject_literal: pythonString(TEST_SUBJECT),
    claims: `claims = {${claims.join(", ")}}`,
    group_claim: groups.length > 0 && docstringText(groupClaim!),
    hmac,
  };
  if (hmac) {
    imports.add("secrets");
  } else {
    const generator = keyGenerator(auth.algorithm);
    imports
      .addFrom("cryptography.hazmat.primitives.asymmetric", generator.name)
      .addFrom("cryptography.hazmat.primitives.serialization", "Encoding", "NoEncryption", "PrivateFormat", "load_pem_private_key");
    context.key = { expression: generator.expression, type: generator.type, kind: generator.kind, article: generator.article };
  }
  return context;
}
