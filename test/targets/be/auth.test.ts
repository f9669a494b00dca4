// Authentication through the real pipeline (config file → engine → renderers → assembler):
// which handlers get `current_user` (auth set or not, require_auth on resources and
// entries, exclude_paths with app prefixes), pass_user, the config errors only the
// operations can see, and the auth package for each flow and algorithm.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";

let dir: string;
let be: Target;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-auth-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

const jwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials" };

const article = (extra: object = {}) => ({
  model: "shop.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
  ],
  operations: ["get", "list", "create", "update", "delete", { name: "publish", type: "action", fn: "shop.actions.publish", target: "instance" }],
  ...extra,
});

const tag = (extra: object = {}) => ({ ...article({ model: "shop.models.Tag", operations: ["get", "list"] }), ...extra });

let configs = 0;

async function writeConfig(config: object): Promise<string> {
  const configFile = join(dir, `config-${(configs += 1)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  return configFile;
}

/** The generated files of `config`, by path. */
async function files(config: object): Promise<Map<string, string>> {
  const result = await planGeneration({ target: be, configFile: await writeConfig(config), outDir: join(dir, "out") });
  return new Map(result.files.map((file) => [file.path, file.content]));
}

async function configError(config: object): Promise<ConfigError> {
  const configFile = await writeConfig(config);
  const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  assert.equal(error.file, configFile);
  return error;
}

/** The signature of `async def name(...)` in a routes module. */
function signature(routes: string, name: string): string {
  const match = new RegExp(`async def ${name}\\(([\\s\\S]*?)\\) ->`).exec(routes);
  assert.ok(match, `no handler ${name} in:\n${routes}`);
  return match[1]!;
}

/** Names of the handlers of `routes` whose signature takes `current_user`. */
function authenticated(routes: string): string[] {
  return [...routes.matchAll(/async def (\w+)\(([\s\S]*?)\) ->/g)]
    .filter(([, name, params]) => !name!.startsWith("_") && params!.includes("current_user: CurrentUser"))
    .map(([, name]) => name!);
}

const ALL_ARTICLE_HANDLERS = ["get_article", "list_articles", "create_article", "update_article", "delete_article", "publish"];

describe("the current_user dependency", () => {
  test("without auth: no auth package and no handler takes a user", async () => {
    const generated = await files({ module: "store", resources: [article()] });
    assert.deepEqual([...generated.keys()].filter((path) => path.startsWith("auth/")), []);
    const routes = generated.get("store/routes/article.py")!;
    assert.deepEqual(authenticated(routes), []);
    assert.doesNotMatch(routes, /CurrentUser/);
  });

  test("with auth: every CRUD and action handler takes current_user: CurrentUser, imported through the prefix", async () => {
    const generated = await files({ package_prefix: "shop.api", module: "store", resources: [article()], auth: jwt });
    const routes = generated.get("store/routes/article.py")!;
    assert.deepEqual(authenticated(routes), ALL_ARTICLE_HANDLERS);
    assert.match(routes, /^from shop\.api\.auth\.dependencies import CurrentUser$/m);
    assert.match(signature(routes, "list_articles"), /query: Annotated\[ArticleListQuery, Query\(\)\],\s+session: ReadSessionDep,\s+current_user: CurrentUser/, "the query model, then the dependencies");
    for (const path of ["auth/__init__.py", "auth/dependencies.py", "auth/router.py"]) assert.ok(generated.has(path), path);
  });

  test("without a package prefix the import is top-level", async () => {
    const generated = await files({ module: "store", resources: [article()], auth: jwt });
    assert.match(generated.get("store/routes/article.py")!, /^from auth\.dependencies import CurrentUser$/m);
    assert.match(generated.get("auth/router.py")!, /^from auth\.dependencies import \($/m);
  });

  test("a resource with require_auth: false is left alone; an entry's own require_auth wins over its resource's", async () => {
    const generated = await files({
      module: "store",
      resources: [
        article({ operations: [{ name: "get", require_auth: false }, "list", "create", { name: "delete", require_auth: true }] }),
        tag({ require_auth: false, operations: ["get", { name: "list", require_auth: true }] }),
      ],
      auth: jwt,
    });
    assert.deepEqual(authenticated(generated.get("store/routes/article.py")!), ["list_articles", "create_article", "delete_article"]);
    assert.deepEqual(authenticated(generated.get("store/routes/tag.py")!), ["list_tags"]);
  });

  test("exclude_paths: an exact path, or a prefix ending in *, matched against the full route path", async () => {
    const generated = await files({
      module: "store",
      resources: [article(), tag()],
      auth: { ...jwt, exclude_paths: ["/articles/{pk}", "/tags*"] },
    });
    // `/articles/{pk}` is the path of get, update and delete alike: a path skips auth for every method.
    assert.deepEqual(authenticated(generated.get("store/routes/article.py")!), ["list_articles", "create_article", "publish"]);
    assert.deepEqual(authenticated(generated.get("store/routes/tag.py")!), []);
  });

  test("in a multi-app project the app prefix is part of the path; a single app's prefix too", async () => {
    const multi = await files({
      apps: [
        { config: { module: "store", resources: [article(), tag()] } },
        { config: { module: "admin", resources: [tag()] }, prefix: "/admin" },
      ],
      auth: { ...jwt, exclude_paths: ["/store/tags*", "/tags*"] },
    });
    assert.deepEqual(authenticated(multi.get("store/routes/tag.py")!), []);
    assert.deepEqual(authenticated(multi.get("store/routes/article.py")!), ALL_ARTICLE_HANDLERS);
    assert.deepEqual(authenticated(multi.get("admin/routes/tag.py")!), ["get_tag", "list_tags"], "/admin/tags is not /tags");

    const single = await files({ module: "store", prefix: "/api", resources: [tag()], auth: { ...jwt, exclude_paths: ["/tags*"] } });
    assert.deepEqual(authenticated(single.get("store/routes/tag.py")!), ["get_tag", "list_tags"], "the route is /api/tags");
  });

  test("the get_current_user_fn flow authenticates the same handlers", async () => {
    const generated = await files({
      module: "store",
      resources: [article(), tag({ require_auth: false })],
      auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user", exclude_paths: ["/articles"] },
    });
    assert.deepEqual(authenticated(generated.get("store/routes/article.py")!), ["get_article", "update_article", "delete_article", "publish"]);
    assert.deepEqual(authenticated(generated.get("store/routes/tag.py")!), []);
  });
});

describe("pass_user", () => {
  const reviewing = (extra: object = {}) =>
    article({ operations: ["get", { name: "review", type: "action", fn: "shop.actions.review", target: "instance", pass_user: true, ...extra }] });

  test("passes current_user= to the function after session=", async () => {
    const generated = await files({ module: "store", resources: [reviewing()], auth: jwt });
    const routes = generated.get("store/routes/article.py")!;
    assert.match(routes, /await call_action\(\n?\s*shop\.actions\.review, article, session=session, current_user=current_user\n?\s*\)/);
    assert.deepEqual(authenticated(routes), ["get_article", "review"]);
  });

  test("an action without pass_user does not receive the user", async () => {
    const generated = await files({ module: "store", resources: [article()], auth: jwt });
    assert.match(generated.get("store/routes/article.py")!, /call_action\(shop\.actions\.publish, article, session=session\)/);
  });

  test("on an endpoint that is not authenticated, it is a ConfigError saying why", async () => {
    const path = "resources[0].operations[1].pass_user";
    const cases: [object, string][] = [
      [{ module: "store", resources: [reviewing()] }, "the project sets no auth"],
      [{ module: "store", resources: [{ ...reviewing(), require_auth: false }], auth: jwt }, "its resource sets require_auth: false"],
      [
        { module: "store", resources: [reviewing()], auth: { ...jwt, exclude_paths: ["/articles/*"] } },
        'its path "/articles/{pk}/review" matches exclude_paths entry "/articles/*"',
      ],
    ];
    for (const [config, reason] of cases) {
      const error = await configError(config);
      assert.deepEqual(error.issues, [{ path, message: `passes current_user to the function, but this endpoint is not authenticated: ${reason}` }]);
    }
    const optedOut = await configError({ module: "store", resources: [reviewing({ require_auth: false })], auth: jwt });
    assert.deepEqual(optedOut.issues, [{ path, message: "passes current_user to the function, but this endpoint is not authenticated: this operation sets require_auth: false" }]);
    const appOptedOut = await configError({ apps: [{ config: { module: "store", resources: [reviewing()], require_auth: false } }], auth: jwt });
    assert.deepEqual(appOptedOut.issues, [
      { path: "apps[0].config.resources[0].operations[1].pass_user", message: "passes current_user to the function, but this endpoint is not authenticated: its app sets require_auth: false" },
    ]);
  });

  test("an entry's require_auth: true authenticates it inside a resource that opted out", async () => {
    const generated = await files({ module: "store", resources: [{ ...reviewing({ require_auth: true }), require_auth: false }], auth: jwt });
    assert.deepEqual(authenticated(generated.get("store/routes/article.py")!), ["review"]);
  });
});

describe("config errors", () => {
  test("neither verify_credentials_fn nor get_current_user_fn: a ConfigError naming auth.verify_credentials_fn", async () => {
    const error = await configError({ module: "store", resources: [article()], auth: { type: "jwt", secret_env: "JWT_SECRET" } });
    assert.deepEqual(error.issues, [
      { path: "auth.verify_credentials_fn", message: "required unless get_current_user_fn is set: the dotted path of the function that checks credentials" },
    ]);
    assert.match(error.message, /auth\.verify_credentials_fn: required unless get_current_user_fn is set/);
  });

  test("a JWT-only key next to get_current_user_fn is reported at its path", async () => {
    const error = await configError({
      module: "store",
      resources: [article()],
      auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user", token_url: "/login" },
    });
    assert.deepEqual(error.issues.map((issue) => issue.path), ["auth.token_url"]);
  });
});

describe("the auth package", () => {
  test("JWT flow: the token route at token_url, a relative tokenUrl, the configured algorithm only", async () => {
    const generated = await files({ module: "store", resources: [article()], auth: { ...jwt, token_url: "/api/login", algorithm: "HS512", token_lifetime_seconds: 600 } });
    const router = generated.get("auth/router.py")!;
    const dependencies = generated.get("auth/dependencies.py")!;
    // A wrong password is a 401; the attempts' counters live in the database, which may be down (503).
    assert.match(router, /^@router\.post\(\n {4}"\/api\/login",\n {4}operation_id="issueAccessToken",\n {4}responses=error_responses\(401, 429, 503\),\n\)$/m);
    assert.match(router, /form: Annotated\[OAuth2PasswordRequestForm, Depends\(\)\]/);
    assert.match(router, /^router = APIRouter\(tags=\["auth"\], lifespan=_check_signing_key\)$/m);
    assert.match(router, /^from shop\.auth import verify_credentials$/m);
    assert.match(dependencies, /^oauth2_scheme = OAuth2PasswordBearer\(tokenUrl="api\/login"\)$/m);
    assert.match(dependencies, /^ALGORITHM = "HS512"$/m);
    assert.match(dependencies, /^TOKEN_LIFETIME_SECONDS = 600$/m);
    assert.match(dependencies, /^MIN_SECRET_BYTES = 64$/m);
    assert.match(dependencies, /algorithms=\[ALGORITHM\]/);
    assert.match(dependencies, /options=\{"require": \["sub", "iat", "exp"\]\}/);
    assert.doesNotMatch(dependencies, /ISSUER|AUDIENCE|issuer=|audience=/);
    assert.doesNotMatch(dependencies, /cryptography/);
  });

  test("token_rate_limit: its limits in auth/router.py, counted before the password is checked; false leaves none", async () => {
    const limited = await files({
      module: "store",
      resources: [article()],
      trusted_proxies: ["10.0.0.0/8"],
      auth: { ...jwt, token_rate_limit: { username: "5/minute;50/day" } },
    });
    const router = limited.get("auth/router.py")!;
    assert.match(router, /^ATTEMPTS_PER_USERNAME = RateLimit\(\n? *"auth\/token\.username", "5\/minute;50\/day", engine=get_engine, headers=False\n?\)$/m);
    assert.match(router, /^ {4}key=ClientAddress\(\["10\.0\.0\.0\/8"\]\),$/m);
    const body = router.slice(router.indexOf("async def issue_access_token"));
    const order = ["await ATTEMPTS_PER_ADDRESS(request, response)", "await ATTEMPTS_PER_USERNAME.check(form.username.lower(), response)", "await _verify_credentials(", "await ATTEMPTS_PER_USERNAME.forget("];
    const positions = order.map((statement) => body.indexOf(statement));
    assert.ok(positions.every((position, index) => position > 0 && (index === 0 || position > positions[index - 1]!)), `in order: ${positions.join(", ")}`);
    for (const path of ["runtime/rate_limit.py", "runtime/autocommit.py"]) assert.ok(limited.has(path), path);
    const unlimited = await files({ module: "store", resources: [article()], auth: { ...jwt, token_rate_limit: false } });
    assert.doesNotMatch(unlimited.get("auth/router.py")!, /RateLimit|ATTEMPTS|429/);
    assert.match(unlimited.get("auth/router.py")!, /responses=error_responses\(401\)/);
    assert.ok(!unlimited.has("runtime/rate_limit.py"));
  });

  test("issuer and audience are set on issued tokens and required on received ones", async () => {
    const generated = await files({ module: "store", resources: [article()], auth: { ...jwt, issuer: 'shop "main"', audience: "shop-api" } });
    const dependencies = generated.get("auth/dependencies.py")!;
    // Quoted as ruff format quotes it: single quotes around a text holding double ones.
    assert.match(dependencies, /^ISSUER = 'shop "main"'$/m);
    assert.match(dependencies, /^AUDIENCE = "shop-api"$/m);
    assert.match(dependencies, /"iss": ISSUER,\n\s+"aud": AUDIENCE,/);
    assert.match(dependencies, /issuer=ISSUER,\n\s+audience=AUDIENCE,/);
    assert.match(dependencies, /options=\{"require": \["sub", "iat", "exp", "iss", "aud"\]\}/);
  });

  test("an asymmetric algorithm reads a PEM private key and verifies with its public key", async () => {
    const generated = await files({ module: "store", resources: [article()], auth: { ...jwt, algorithm: "ES256" } });
    const dependencies = generated.get("auth/dependencies.py")!;
    assert.match(dependencies, /load_pem_private_key\(pem\.encode\(\), password=None\)/);
    assert.match(dependencies, /jwt\.encode\(claims, signing_keys\(\)\[0\], algorithm=ALGORITHM\)/);
    assert.match(dependencies, /signing_keys\(\)\[1\],\n\s+algorithms=\[ALGORITHM\]/);
    assert.doesNotMatch(dependencies, /MIN_SECRET_BYTES|signing_secret/);
  });

  test("get_current_user_fn: the user's dependency behind CurrentUser, an empty router, no JWT code", async () => {
    const custom = await files({ module: "store", resources: [article()], auth: { type: "jwt", get_current_user_fn: "shop.auth.current_user" } });
    const dependencies = custom.get("auth/dependencies.py")!;
    assert.match(dependencies, /^from shop\.auth import current_user as get_current_user$/m);
    assert.match(dependencies, /^CurrentUser = Annotated\[Any, Depends\(get_current_user\)\]$/m);
    assert.doesNotMatch(dependencies, /import jwt|OAuth2PasswordBearer/);
    assert.doesNotMatch(custom.get("auth/router.py")!, /@router\./);
    assert.match(custom.get("auth/__init__.py")!, /^__all__ = \["CurrentUser", "get_current_user", "router"\]$/m);

    const sameName = await files({ module: "store", resources: [article()], auth: { type: "jwt", get_current_user_fn: "shop.auth.get_current_user" } });
    assert.match(sameName.get("auth/dependencies.py")!, /^from shop\.auth import get_current_user$/m);
  });
});
