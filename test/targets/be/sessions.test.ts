// Cookie sessions, logout and CORS through the real pipeline: the config errors at their
// paths, and what each combination of `sources`, `logout_url` and `cors` generates (the
// bearer-only default generates none of it). The e2e test (test/e2e/sessions.test.ts) runs
// the blog's both-sources config over HTTP.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";

let dir: string;
let be: Target;
let configs = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-sessions-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

const jwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials" };
const article = {
  model: "shop.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
  ],
  operations: ["get", "list", "create"],
};

async function plan(config: object): Promise<Map<string, string>> {
  const configFile = join(dir, `config-${(configs += 1)}.json`);
  await writeFile(configFile, JSON.stringify({ module: "store", resources: [article], ...config }));
  const result = await planGeneration({ target: be, configFile, outDir: join(dir, "out") });
  return new Map(result.files.map((file) => [file.path, file.content]));
}

async function issues(config: object): Promise<{ path: string; message: string }[]> {
  const error = await plan(config).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  return error.issues.map(({ path, message }) => ({ path, message }));
}

describe("config errors, each at its path", () => {
  test("cookie attributes without the cookie source, SameSite=None without Secure, a source twice", async () => {
    assert.deepEqual(await issues({ auth: { ...jwt, cookie_secure: false } }), [
      { path: "auth.cookie_secure", message: 'has no effect: sources does not include "cookie"; add it, or remove this key' },
    ]);
    assert.deepEqual(await issues({ auth: { ...jwt, sources: ["cookie"], cookie_samesite: "none", cookie_secure: false } }), [
      { path: "auth.cookie_samesite", message: 'cannot be "none" with cookie_secure: false: browsers refuse a SameSite=None cookie that is not Secure' },
    ]);
    assert.deepEqual(await issues({ auth: { ...jwt, sources: ["cookie", "cookie"] } }), [{ path: "auth.sources", message: "names a source twice" }]);
    assert.deepEqual(await issues({ auth: { ...jwt, allowed_origins: ["https://app.example.com"] } }), [
      { path: "auth.allowed_origins", message: 'has no effect: sources does not include "cookie"; add it, or remove this key' },
    ]);
    const [origin] = await issues({ auth: { ...jwt, sources: ["cookie"], allowed_origins: ["https://app.example.com", "app.example.com/"] } });
    assert.equal(origin!.path, "auth.allowed_origins[1]");
    assert.match(origin!.message, /must be an origin like/);
    const [variable] = await issues({ auth: { ...jwt, sources: ["cookie"], allowed_origins_env: "not a name" } });
    assert.equal(variable!.path, "auth.allowed_origins_env");
    const [bad] = await issues({ auth: { ...jwt, sources: ["header"] } });
    assert.equal(bad!.path, "auth.sources[0]");
  });

  test("session keys with get_current_user_fn", async () => {
    const found = await issues({ auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user", sources: ["cookie"], logout_url: "/logout" } });
    assert.deepEqual(found.map((issue) => issue.path).sort(), ["auth.logout_url", "auth.sources"]);
    assert.match(found[0]!.message, /has no effect with get_current_user_fn/);
  });

  test("cors: a bad origin, '*' with credentials or beside origins", async () => {
    const [path] = await issues({ cors: { allow_origins: ["https://app.example.com/"] } });
    assert.equal(path!.path, "cors.allow_origins[0]");
    assert.match(path!.message, /must be an origin like/);
    assert.deepEqual(await issues({ cors: { allow_origins: ["*"], allow_credentials: true } }), [
      { path: "cors.allow_credentials", message: "cannot be true with allow_origins \"*\": any site could then act with your users' cookies; list the origins" },
    ]);
    assert.deepEqual((await issues({ cors: { allow_origins: ["https://a.example", "*"] } })).map((issue) => issue.path), ["cors.allow_origins[1]"]);
  });
});

describe("what each setting generates", () => {
  test("the bearer-only default: no cookie, no jti, no deny-list, no CORS", async () => {
    const files = await plan({ auth: jwt });
    assert.deepEqual([...files.keys()].filter((path) => /sessions|revocation|cors/.test(path)), []);
    assert.doesNotMatch(files.get("auth/dependencies.py")!, /jti|cookie|is_revoked/i);
    assert.doesNotMatch(files.get("auth/router.py")!, /logout|COOKIE/);
  });

  test("cookie only: the cookie dependency without a bearer scheme, the token only in the cookie, logout by default", async () => {
    const files = await plan({ auth: { ...jwt, sources: ["cookie"] } });
    const dependencies = files.get("auth/dependencies.py")!;
    const router = files.get("auth/router.py")!;
    assert.match(dependencies, /^COOKIE = SessionCookie\(name="access_token", secure=True, same_site="strict"\)$/m);
    // No origin configured: none is allowed until allowed_origins or ALLOWED_ORIGINS lists one.
    assert.match(dependencies, /^TRUSTED_ORIGINS = TrustedOrigins\("ALLOWED_ORIGINS"\)$/m);
    assert.match(router, /^    TRUSTED_ORIGINS\.current\(\)$/m);
    assert.doesNotMatch(dependencies, /OAuth2PasswordBearer|bearer/);
    assert.match(dependencies, /"jti": secrets\.token_urlsafe\(16\)/);
    assert.match(router, /-> Session:/);
    assert.doesNotMatch(router, /access_token=/);
    assert.match(router, /@router\.post\(\n\s+"\/auth\/logout",/);
    assert.ok(files.has("runtime/sessions.py") && files.has("runtime/revocation.py"));
  });

  test("bearer with logout_url: a jti and the deny-list, no cookie", async () => {
    const files = await plan({ auth: { ...jwt, logout_url: "/auth/sign-out" } });
    assert.match(files.get("auth/dependencies.py")!, /if await is_revoked\(get_engine\(\), claims\["jti"\]\):/);
    assert.match(files.get("auth/router.py")!, /"\/auth\/sign-out",\n\s+status_code=status\.HTTP_204_NO_CONTENT/);
    assert.ok(files.has("runtime/revocation.py") && !files.has("runtime/sessions.py"));
  });

  test("the session endpoint: there with cookies (groups only when the project reads them), opt-in with bearer", async () => {
    const cookie = (await plan({ auth: { ...jwt, sources: ["cookie"] } })).get("auth/router.py")!;
    assert.match(cookie, /@router\.get\(\n\s+"\/auth\/session",\n\s+operation_id="getCurrentSession",/);
    assert.match(cookie, /groups=\[\],/);
    const grouped = { ...article, operations: ["get", "list", { name: "create", groups: ["editor"] }] };
    const withGroups = (await plan({ resources: [grouped], auth: { ...jwt, sources: ["cookie"] } })).get("auth/router.py")!;
    assert.match(withGroups, /groups=sorted\(await user_groups\(current_user\)\),/);
    assert.doesNotMatch((await plan({ auth: jwt })).get("auth/router.py")!, /getCurrentSession/);
    assert.match((await plan({ auth: { ...jwt, session_url: "/me" } })).get("auth/router.py")!, /"\/me",\n\s+operation_id="getCurrentSession"/);
    const refused = await issues({ auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user", session_url: "/me" } });
    assert.deepEqual(refused.map((issue) => issue.path), ["auth.session_url"]);
  });

  test("cors: cors.py with the settings, and its credentialed origins trusted by the origin check", async () => {
    const files = await plan({ auth: { ...jwt, sources: ["bearer", "cookie"] }, cors: { allow_origins: ["http://localhost:5173"], allow_credentials: true, max_age: 60 } });
    const cors = files.get("cors.py")!;
    assert.match(cors, /^ALLOWED_ORIGINS = \["http:\/\/localhost:5173"\]$/m);
    assert.match(cors, /allow_credentials=True,\n\s+allow_methods=\["GET", "POST", "PATCH", "DELETE"\],/);
    assert.match(cors, /max_age=60,/);
    assert.match(files.get("auth/dependencies.py")!, /cors=frozenset\(\{"http:\/\/localhost:5173"\}\)/);
    const uncredentialed = await plan({ auth: { ...jwt, sources: ["cookie"] }, cors: { allow_origins: ["http://localhost:5173"] } });
    assert.match(uncredentialed.get("auth/dependencies.py")!, /^TRUSTED_ORIGINS = TrustedOrigins\("ALLOWED_ORIGINS"\)$/m);
  });

  test("allowed_origins and allowed_origins_env: the configured origins and the variable that replaces them", async () => {
    const files = await plan({ auth: { ...jwt, sources: ["cookie"], allowed_origins: ["https://b.example", "https://a.example"], allowed_origins_env: "SITE_ORIGINS" } });
    assert.match(files.get("auth/dependencies.py")!, /^TRUSTED_ORIGINS = TrustedOrigins\(\n\s+"SITE_ORIGINS", configured=frozenset\(\{"https:\/\/a\.example", "https:\/\/b\.example"\}\)\n\)$/m);
  });

  test("visible on a public route: OptionalUser for the JWT flow, None with get_current_user_fn", async () => {
    const visible = { ...article, visible: "shop.authz.visible_articles", require_auth: false };
    const jwtFiles = await plan({ resources: [visible], auth: jwt });
    assert.match(jwtFiles.get("store/routes/article.py")!, /current_user: OptionalUser/);
    // The user dependencies record the user on the request, where the sessions' visibility rule reads it.
    assert.match(jwtFiles.get("auth/dependencies.py")!, /^OptionalUser = Annotated\[\s*AuthenticatedUser \| None, Depends\(recording\(get_optional_user\)\)\s*\]$/m);
    assert.match(jwtFiles.get("auth/dependencies.py")!, /^CurrentUser = Annotated\[AuthenticatedUser, Depends\(recording\(get_current_user\)\)\]$/m);
    assert.match(jwtFiles.get("db/default_session.py")!, /sync_session_class=ROW_VISIBILITY\.session_class/);
    assert.match(jwtFiles.get("db/default_session.py")!, /get_sessionmaker\(\)\(info=\{"request": request\}\)/);
    assert.match(jwtFiles.get("visibility.py")!, /ROW_VISIBILITY = RowVisibility\(\s*\{\s*Article: shop\.authz\.visible_articles,?\s*\}\s*\)/);
    const custom = await plan({ resources: [visible], auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user" } });
    assert.doesNotMatch(custom.get("store/routes/article.py")!, /OptionalUser/);
    assert.match(custom.get("auth/dependencies.py")!, /^CurrentUser = Annotated\[Any, Depends\(recording\(get_current_user\)\)\]$/m);
    // No handler applies the rule itself.
    for (const files of [jwtFiles, custom]) assert.doesNotMatch(files.get("store/routes/article.py")!, /visible_articles|_visible/);
  });
});
