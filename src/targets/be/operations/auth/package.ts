// The modules of the generated `auth/` package. The JWT flow gets `dependencies.py` (key
// loading, token creation and verification, `get_current_user`, `CurrentUser`) and
// `router.py` (the OAuth2 password-flow token endpoint and the startup key check). With
// `get_current_user_fn`, `dependencies.py` wraps the user's dependency and `router.py` is
// an empty router, so applications include the package the same way with either flow.
// Cookie sessions, logout, the optional user and groups in issued tokens are switches of
// the JWT flow's templates, each off unless the config asks for it.

import { ImportCollector, Name, prefixImport } from "../../../../codegen/index.js";
import { type AuthConfig, type CustomAuth, type JwtAuth, isHmac } from "../../config/schema.js";
import type { SessionCookie } from "../../config/sessions.js";
import type { ErrorStatus } from "../../modules/handler.js";
import { ProjectRoute } from "../../modules/project-route.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";

/** What the project asks of the JWT flow beyond `auth` itself. */
export interface AuthPackageOptions {
  packagePrefix: string;
  /** Origins besides the API's own that cookie-authenticated unsafe requests may come from (the CORS origins with credentials). */
  trustedOrigins: readonly string[];
  /** Some public route reads the user when a request carries credentials (`OptionalUser`). */
  optionalUser: boolean;
  /** The claim the token endpoint writes the user's groups into, when it does. */
  groupClaim: string | undefined;
  /** The project reads users' groups (`auth/groups.py` is written): the session endpoint answers them. */
  readsGroups: boolean;
  /** Some model has a row visibility rule: the user dependencies record the user on the request (runtime/visibility.py). */
  recordsUser: boolean;
  /** The project's `trusted_proxies`: they decide the client address the token endpoint's limit counts. */
  trustedProxies: readonly string[];
}

/**
 * The three modules of `auth/` for `auth`, importing each other through `packagePrefix`, and
 * the routes of its router (the JWT flow's token, logout and session endpoints), which the
 * project's rate limit amends before the router renders.
 */
export function authPackage(auth: AuthConfig, options: AuthPackageOptions): { modules: PythonModule[]; routes: ProjectRoute[] } {
  const prefix = options.packagePrefix;
  const modules = {
    dependencies: prefixImport(prefix, "auth", "dependencies"),
    router: prefixImport(prefix, "auth", "router"),
    db: prefixImport(prefix, "db"),
    runtime: (name: string) => prefixImport(prefix, "runtime", name),
  };
  return auth.get_current_user_fn === undefined ? jwtPackage(auth, modules, options) : { modules: customPackage(auth, modules, options.recordsUser), routes: [] };
}

interface AuthModules {
  dependencies: string;
  router: string;
  db: string;
  runtime: (name: string) => string;
}

/** The switches of the JWT flow's templates. */
function flowOf(auth: JwtAuth, options: AuthPackageOptions) {
  return {
    bearer: auth.sources.includes("bearer"),
    cookie: auth.cookie,
    revocation: auth.logout_url !== undefined,
    optionalUser: options.optionalUser,
    groupClaim: options.groupClaim,
  };
}

function jwtPackage(auth: JwtAuth, modules: AuthModules, options: AuthPackageOptions): { modules: PythonModule[]; routes: ProjectRoute[] } {
  const hmac = isHmac(auth.algorithm);
  const flow = flowOf(auth, options);
  const claims = ["sub", "iat", "exp", ...(flow.revocation ? ["jti"] : []), ...(auth.issuer ? ["iss"] : []), ...(auth.audience ? ["aud"] : [])];
  const dependencyImports = new ImportCollector()
    .add("os")
    .add("time")
    .add("jwt")
    .addFrom("dataclasses", "dataclass")
    .addFrom("functools", "cache")
    .addFrom("typing", "Annotated", "Any")
    .addFrom("fastapi", "Depends", "HTTPException", "status");
  // Without the cookie, `sources` is `["bearer"]`: the optional user's scheme is a bearer one too.
  if (flow.bearer) dependencyImports.addFrom("fastapi.security", "OAuth2PasswordBearer");
  if (flow.cookie !== undefined) {
    dependencyImports.addFrom("fastapi", "Request").addFrom("fastapi.security", "APIKeyCookie").addFrom(modules.runtime("sessions"), "SessionCookie", "TrustedOrigins", "check_origin");
  }
  if (flow.revocation) dependencyImports.add("secrets").addFrom(modules.db, "get_engine").addFrom(modules.runtime("revocation"), "is_revoked");
  if (flow.groupClaim !== undefined) dependencyImports.addFrom("collections.abc", "Iterable");
  if (!hmac) {
    dependencyImports
      .addFrom("cryptography.exceptions", "UnsupportedAlgorithm")
      .addFrom("cryptography.hazmat.primitives.serialization", "load_pem_private_key");
  }
  const dependencies = new PythonModule({
    path: "auth/dependencies.py",
    template: "operations/auth/package/dependencies.py.njk",
    context: {
      secret_env: auth.secret_env,
      secret_env_literal: pythonString(auth.secret_env),
      algorithm: auth.algorithm,
      algorithm_literal: pythonString(auth.algorithm),
      hmac,
      min_secret_bytes: hmac ? Number(auth.algorithm.slice(2)) / 8 : undefined,
      token_lifetime_seconds: auth.token_lifetime_seconds,
      issuer: auth.issuer === undefined ? undefined : pythonLiteral(auth.issuer),
      audience: auth.audience === undefined ? undefined : pythonLiteral(auth.audience),
      token_url_relative: pythonString(auth.token_url.slice(1)),
      claims,
      claims_list: claims.map(pythonString).join(", "),
      checked: listed(["the signature", "``exp``", ...(auth.issuer ? ["``iss``"] : []), ...(auth.audience ? ["``aud``"] : [])]),
      ...templateSwitches(flow),
      kiln_login: auth.login !== undefined,
      ...sessionStore(auth, dependencyImports),
      ...userDependencies(options.recordsUser, dependencyImports, modules),
      ...(flow.cookie !== undefined && {
        cookie_args: [
          `name=${pythonString(flow.cookie.name)}`,
          `secure=${pythonLiteral(flow.cookie.secure)}`,
          `same_site=${pythonString(flow.cookie.same_site)}`,
        ].join(", "),
        trusted_origins: trustedOriginsArgs(flow.cookie, options.trustedOrigins),
        origins_env: flow.cookie.allowed_origins_env,
      }),
      ...(flow.groupClaim !== undefined && { group_claim: flow.groupClaim, group_claim_literal: pythonString(flow.groupClaim) }),
    },
    imports: dependencyImports,
  });

  const routerImports = new ImportCollector()
    .add("inspect")
    .addFrom("collections.abc", "AsyncIterator")
    .addFrom("contextlib", "asynccontextmanager")
    .addFrom("typing", "Any")
    .addFrom("fastapi", "APIRouter", "HTTPException", "Response", "status")
    .addFrom("fastapi.concurrency", "run_in_threadpool")
    .addFrom("pydantic", "BaseModel")
    .addFrom(modules.dependencies, "TOKEN_LIFETIME_SECONDS", "check_signing_key", "create_access_token");
  const login = loginOf(auth, routerImports);
  const store = sessionStore(auth, routerImports);
  if (flow.bearer) routerImports.addFrom("typing", "Literal");
  if (flow.cookie !== undefined) {
    routerImports.addFrom("fastapi", "Request").addFrom(modules.runtime("sessions"), "check_origin").addFrom(modules.dependencies, "COOKIE", "TRUSTED_ORIGINS");
  }
  const session = auth.session_url !== undefined;
  const attempts = attemptLimits(auth, options.trustedProxies, routerImports, modules);
  if (attempts.length > 0) routerImports.addFrom("fastapi", "Request");
  routerImports.addFrom(modules.runtime("responses"), "error_responses");
  if (flow.revocation || session) routerImports.addFrom(modules.dependencies, "CurrentUser");
  if (session && options.readsGroups) routerImports.addFrom(prefixImport(options.packagePrefix, "auth", "groups"), "user_groups");
  if (flow.revocation) {
    routerImports
      .addFrom(modules.db, "get_engine")
      .addFrom(modules.runtime("revocation"), "revoke", "install as install_revocations");
  }
  // `rate_limits.py` imports this package for limits keyed by user: the router imports its limiters when first called.
  // A limit keyed by user leaves these routes out (its dependency would need the package it limits).
  const route = (name: string, method: "GET" | "POST", path: string, errors: readonly ErrorStatus[]) =>
    new ProjectRoute({ name, method, path, group: "auth", userKeyed: false, limitersImportedLate: prefixImport(options.packagePrefix, "rate_limits"), responses: modules.runtime("responses"), imports: routerImports, errors });
  const cookie = flow.cookie !== undefined;
  const routes = {
    // 401 for a wrong password; the attempts are counted in the database, which may be down (503).
    token: route("issue_access_token", "POST", auth.token_url, [401, ...(cookie ? [403 as const] : []), ...(attempts.length > 0 ? [429 as const, 503 as const] : [])]),
    // Revoked tokens are kept in the database: revoking one, or checking a token against them, may meet it down (503).
    ...(flow.revocation && { logout: route("revoke_access_token", "POST", auth.logout_url!, cookie ? [401, 403, 503] : [401, 503]) }),
    ...(auth.session_url !== undefined && { session: route("get_current_session", "GET", auth.session_url, flow.revocation ? [401, 503] : [401]) }),
  };
  const router = new PythonModule({
    path: "auth/router.py",
    template: "operations/auth/package/router.py.njk",
    context: {
      token_url: auth.token_url,
      token_url_literal: pythonString(auth.token_url),
      secret_env: auth.secret_env,
      ...login,
      ...store,
      ...templateSwitches(flow),
      ...(flow.cookie !== undefined && { origins_env: flow.cookie.allowed_origins_env }),
      routes,
      attempts,
      ...(auth.logout_url !== undefined && { logout_url: auth.logout_url, logout_url_literal: pythonString(auth.logout_url) }),
      ...(auth.session_url !== undefined && { session_url: auth.session_url, session_url_literal: pythonString(auth.session_url), reads_groups: options.readsGroups }),
    },
    imports: routerImports,
  });

  const exports = ["AuthenticatedUser", "CurrentUser", "create_access_token", "get_current_user", ...(flow.optionalUser ? ["OptionalUser", "get_optional_user"] : [])];
  const init = initModule({ custom: false, token_url: auth.token_url, secret_env: auth.secret_env, cookie: flow.cookie !== undefined, bearer: flow.bearer }, modules, exports);
  return { modules: [init, dependencies, router], routes: Object.values(routes) };
}

/**
 * What the token endpoint checks credentials with: a username and password form passed to
 * `verify_credentials_fn`, or kiln's login (a JSON body validated into `credentials_schema`,
 * passed to `validate_fn`, which returns a `session_schema` instance). Adds their imports.
 */
function loginOf(auth: JwtAuth, imports: ImportCollector): Record<string, unknown> {
  if (auth.login === undefined) {
    const [verifyModule, verifyName] = Name.fromDotted(auth.verify_credentials_fn!);
    imports.addFrom("typing", "Annotated").addFrom("fastapi", "Depends").addFrom("fastapi.security", "OAuth2PasswordRequestForm").addFrom(verifyModule, verifyName.raw);
    return {
      verify_fn: auth.verify_credentials_fn,
      verify_fn_name: verifyName.raw,
      returns_message: pythonString(`${auth.verify_credentials_fn} must return the user's subject `),
      groups_message: pythonString(`${auth.verify_credentials_fn} must give the user's groups as strings `),
    };
  }
  const { credentials_schema, session_schema, validate_fn, subject_fields } = auth.login;
  const [credentialsModule, credentials] = Name.fromDotted(credentials_schema);
  const [sessionModule, session] = Name.fromDotted(session_schema);
  const [validateModule, validate] = Name.fromDotted(validate_fn);
  imports.addFrom(credentialsModule, credentials.raw).addFrom(sessionModule, session.raw).addFrom(validateModule, validate.raw);
  return {
    kiln_login: true,
    credentials_name: credentials.raw,
    session_name: session.raw,
    validate_fn: validate_fn,
    validate_fn_name: validate.raw,
    subject_fields_literal: `(${subject_fields.map(pythonString).join(", ")}${subject_fields.length === 1 ? "," : ""})`,
  };
}

/** The template variables of kiln's `session_store`, when set, and its imports (with the session model's). */
function sessionStore(auth: JwtAuth, imports: ImportCollector): Record<string, unknown> {
  if (auth.login?.session_store === undefined) return {};
  const [storeModule, store] = Name.fromDotted(auth.login.session_store);
  const [sessionModule, session] = Name.fromDotted(auth.login.session_schema);
  imports.addFrom(storeModule, store.raw).addFrom(sessionModule, session.raw);
  return { store_name: store.raw, store_path: auth.login.session_store, session_name: session.raw };
}

/** One of the token endpoint's limits: its definition, and the statements awaited before the password is checked and after it was right. */
interface AttemptLimit {
  definition: string;
  check: string;
  success?: string;
}

/**
 * The token endpoint's limits on password guessing (`token_rate_limit`): a `RateLimit` per
 * key, defined in `auth/router.py`, and the statements the endpoint awaits around the
 * password check. Adds the imports they need to `imports`.
 */
/** The arguments of `TrustedOrigins(...)`: the variable, the configured origins and the CORS ones, sorted. */
function trustedOriginsArgs(cookie: SessionCookie, corsOrigins: readonly string[]): string {
  const set = (origins: readonly string[]) => `frozenset({${[...new Set(origins)].sort().map(pythonString).join(", ")}})`;
  return [
    pythonString(cookie.allowed_origins_env),
    ...(cookie.allowed_origins.length > 0 ? [`configured=${set(cookie.allowed_origins)}`] : []),
    ...(corsOrigins.length > 0 ? [`cors=${set(corsOrigins)}`] : []),
  ].join(", ");
}

function attemptLimits(auth: JwtAuth, trustedProxies: readonly string[], imports: ImportCollector, modules: AuthModules): AttemptLimit[] {
  const { username, address } = auth.token_rate_limit;
  const limits: AttemptLimit[] = [];
  const limiter = (variable: string, key: string, limit: string, extra: string[]) =>
    `${variable} = RateLimit(${[pythonString(`auth/token.${key}`), pythonString(limit), ...extra, "engine=get_engine", "headers=False"].join(", ")})`;
  if (address !== undefined) {
    const proxies = trustedProxies.length > 0 ? `[${trustedProxies.map(pythonString).join(", ")}]` : "";
    imports.addFrom(modules.runtime("proxies"), "ClientAddress");
    limits.push({ definition: limiter("ATTEMPTS_PER_ADDRESS", "address", address, [`key=ClientAddress(${proxies})`]), check: "await ATTEMPTS_PER_ADDRESS(request, response)" });
  }
  if (username !== undefined) {
    // Lower case: the verify function may ignore case, and case variants must share one counter.
    limits.push({
      definition: limiter("ATTEMPTS_PER_USERNAME", "username", username, []),
      check: "await ATTEMPTS_PER_USERNAME.check(form.username.lower(), response)",
      // A user who signs in often is no guesser; an address's count stands (one account of an attacker's must not clear it).
      success: "await ATTEMPTS_PER_USERNAME.forget(form.username.lower())",
    });
  }
  if (limits.length > 0) imports.addFrom(modules.runtime("rate_limit"), "RateLimit").addFrom(modules.db, "get_engine");
  return limits;
}

function customPackage(auth: CustomAuth, modules: AuthModules, recordsUser: boolean): PythonModule[] {
  const [userModule, userName] = Name.fromDotted(auth.get_current_user_fn);
  const imported = userName.raw === "get_current_user" ? userName.raw : `${userName.raw} as get_current_user`;
  const dependencyImports = new ImportCollector().addFrom("typing", "Annotated", "Any").addFrom("fastapi", "Depends").addFrom(userModule, imported);
  const dependencies = new PythonModule({
    path: "auth/dependencies.py",
    template: "operations/auth/package/custom_dependencies.py.njk",
    context: { user_fn: auth.get_current_user_fn, ...userDependencies(recordsUser, dependencyImports, modules) },
    imports: dependencyImports,
  });
  const router = new PythonModule({
    path: "auth/router.py",
    template: "operations/auth/package/custom_router.py.njk",
    context: { user_fn: auth.get_current_user_fn },
    imports: new ImportCollector().addFrom("fastapi", "APIRouter"),
  });
  const init = initModule({ custom: true, user_fn: auth.get_current_user_fn }, modules, ["CurrentUser", "get_current_user"]);
  return [init, dependencies, router];
}

/** `auth/__init__.py`: re-exports `names` of `dependencies.py` and `router`, listed in `__all__`. */
function initModule(context: Record<string, unknown>, modules: AuthModules, names: string[]): PythonModule {
  const all = [...names, "router"].sort();
  return new PythonModule({
    path: "auth/__init__.py",
    template: "operations/auth/package/__init__.py.njk",
    context: { ...context, exports: all.map(pythonString).join(", ") },
    imports: new ImportCollector().addFrom(modules.dependencies, ...names).addFrom(modules.router, "router"),
  });
}

/** What `CurrentUser` and `OptionalUser` depend on: the user's dependency, wrapped by `recording` when row visibility reads the user. */
function userDependencies(recordsUser: boolean, imports: ImportCollector, modules: AuthModules): { current_dependency: string; optional_dependency: string } {
  if (!recordsUser) return { current_dependency: "get_current_user", optional_dependency: "get_optional_user" };
  imports.addFrom(modules.runtime("visibility"), "recording");
  return { current_dependency: "recording(get_current_user)", optional_dependency: "recording(get_optional_user)" };
}

/** The flow's switches as both templates read them. */
function templateSwitches(flow: ReturnType<typeof flowOf>): Record<string, unknown> {
  return {
    bearer: flow.bearer,
    cookie: flow.cookie !== undefined,
    revocation: flow.revocation,
    optional_user: flow.optionalUser,
    token_groups: flow.groupClaim !== undefined,
  };
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
