// The modules of the generated `auth/` package. The JWT flow gets `dependencies.py` (key
// loading, token creation and verification, `get_current_user`, `CurrentUser`) and
// `router.py` (the OAuth2 password-flow token endpoint and the startup key check). With
// `get_current_user_fn`, `dependencies.py` wraps the user's dependency and `router.py` is
// an empty router, so applications include the package the same way with either flow.

import { ImportCollector, Name, prefixImport } from "../../../codegen/index.js";
import { type AuthConfig, type CustomAuth, type JwtAuth, isHmac } from "../config/schema.js";
import { pythonLiteral } from "../python/literals.js";
import { PythonModule } from "./types.js";

const LINE_LENGTH = 88;

/** The three modules of `auth/` for `auth`, importing each other through `packagePrefix`. */
export function authPackage(auth: AuthConfig, packagePrefix: string): PythonModule[] {
  const modules = { dependencies: prefixImport(packagePrefix, "auth", "dependencies"), router: prefixImport(packagePrefix, "auth", "router") };
  return auth.get_current_user_fn === undefined ? jwtPackage(auth, modules) : customPackage(auth, modules);
}

interface AuthModules {
  dependencies: string;
  router: string;
}

function jwtPackage(auth: JwtAuth, modules: AuthModules): PythonModule[] {
  const hmac = isHmac(auth.algorithm);
  const claims = ["sub", "iat", "exp", ...(auth.issuer ? ["iss"] : []), ...(auth.audience ? ["aud"] : [])];
  const dependencyImports = new ImportCollector()
    .add("os")
    .add("time")
    .add("jwt")
    .addFrom("dataclasses", "dataclass")
    .addFrom("functools", "cache")
    .addFrom("typing", "Annotated", "Any")
    .addFrom("fastapi", "Depends", "HTTPException", "status")
    .addFrom("fastapi.security", "OAuth2PasswordBearer");
  if (!hmac) {
    dependencyImports
      .addFrom("cryptography.exceptions", "UnsupportedAlgorithm")
      .addFrom("cryptography.hazmat.primitives.serialization", "load_pem_private_key");
  }
  const dependencies = new PythonModule({
    file: "auth/dependencies.py",
    template: "auth/dependencies.py.njk",
    context: {
      secret_env: auth.secret_env,
      algorithm: auth.algorithm,
      hmac,
      min_secret_bytes: hmac ? Number(auth.algorithm.slice(2)) / 8 : undefined,
      token_lifetime_seconds: auth.token_lifetime_seconds,
      issuer: auth.issuer === undefined ? undefined : pythonLiteral(auth.issuer),
      audience: auth.audience === undefined ? undefined : pythonLiteral(auth.audience),
      token_url_relative: auth.token_url.slice(1),
      claims,
      claims_list: claims.map((claim) => `"${claim}"`).join(", "),
      checked: listed(["the signature", "``exp``", ...(auth.issuer ? ["``iss``"] : []), ...(auth.audience ? ["``aud``"] : [])]),
    },
    imports: dependencyImports,
  });

  const [verifyModule, verifyName] = Name.fromDotted(auth.verify_credentials_fn);
  const router = new PythonModule({
    file: "auth/router.py",
    template: "auth/router.py.njk",
    context: { token_url: auth.token_url, secret_env: auth.secret_env, verify_fn: auth.verify_credentials_fn, verify_fn_name: verifyName.raw },
    imports: new ImportCollector()
      .add("inspect")
      .addFrom("collections.abc", "AsyncIterator")
      .addFrom("contextlib", "asynccontextmanager")
      .addFrom("typing", "Annotated", "Any", "Literal")
      .addFrom("fastapi", "APIRouter", "Depends", "HTTPException", "Response", "status")
      .addFrom("fastapi.concurrency", "run_in_threadpool")
      .addFrom("fastapi.security", "OAuth2PasswordRequestForm")
      .addFrom("pydantic", "BaseModel")
      .addFrom(modules.dependencies, "TOKEN_LIFETIME_SECONDS", "check_signing_key", "create_access_token")
      .addFrom(verifyModule, verifyName.raw),
  });

  const exports = ["AuthenticatedUser", "CurrentUser", "create_access_token", "get_current_user"];
  const init = initModule({ custom: false, token_url: auth.token_url, secret_env: auth.secret_env }, modules, exports);
  return [init, dependencies, router];
}

function customPackage(auth: CustomAuth, modules: AuthModules): PythonModule[] {
  const [userModule, userName] = Name.fromDotted(auth.get_current_user_fn);
  const imported = userName.raw === "get_current_user" ? userName.raw : `${userName.raw} as get_current_user`;
  const dependencies = new PythonModule({
    file: "auth/dependencies.py",
    template: "auth/custom_dependencies.py.njk",
    context: { user_fn: auth.get_current_user_fn },
    imports: new ImportCollector().addFrom("typing", "Annotated", "Any").addFrom("fastapi", "Depends").addFrom(userModule, imported),
  });
  const router = new PythonModule({
    file: "auth/router.py",
    template: "auth/custom_router.py.njk",
    context: { user_fn: auth.get_current_user_fn },
    imports: new ImportCollector().addFrom("fastapi", "APIRouter"),
  });
  const init = initModule({ custom: true, user_fn: auth.get_current_user_fn }, modules, ["CurrentUser", "get_current_user"]);
  return [init, dependencies, router];
}

/** `auth/__init__.py`: re-exports `names` of `dependencies.py` and `router`, listed in `__all__`. */
function initModule(context: Record<string, unknown>, modules: AuthModules, names: string[]): PythonModule {
  const all = [...names, "router"].sort();
  const flat = `__all__ = [${all.map((name) => `"${name}"`).join(", ")}]`;
  const exports = flat.length <= LINE_LENGTH ? all.map((name) => `"${name}"`).join(", ") : `\n${all.map((name) => `    "${name}",\n`).join("")}`;
  return new PythonModule({
    file: "auth/__init__.py",
    template: "auth/__init__.py.njk",
    context: { ...context, exports },
    imports: new ImportCollector().addFrom(modules.dependencies, ...names).addFrom(modules.router, "router"),
  });
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
