// The modules of the generated `auth/` package. The JWT flow gets `dependencies.py` (key
// loading, token creation and verification, `get_current_user`, `CurrentUser`) and
// `router.py` (the OAuth2 password-flow token endpoint and the startup key check). With
// `get_current_user_fn`, `dependencies.py` wraps the user's dependency and `router.py` is
// an empty router, so applications include the package the same way with either flow.

import { ImportCollector, Name, prefixImport } from "../../../../codegen/index.js";
import { type AuthConfig, type CustomAuth, type JwtAuth, isHmac } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";

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
    },
    imports: dependencyImports,
  });

  const [verifyModule, verifyName] = Name.fromDotted(auth.verify_credentials_fn);
  const router = new PythonModule({
    path: "auth/router.py",
    template: "operations/auth/package/router.py.njk",
    context: {
      token_url: auth.token_url,
      token_url_literal: pythonString(auth.token_url),
      secret_env: auth.secret_env,
      verify_fn: auth.verify_credentials_fn,
      verify_fn_name: verifyName.raw,
      returns_message: pythonString(`${auth.verify_credentials_fn} must return the user's subject `),
    },
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
    path: "auth/dependencies.py",
    template: "operations/auth/package/custom_dependencies.py.njk",
    context: { user_fn: auth.get_current_user_fn },
    imports: new ImportCollector().addFrom("typing", "Annotated", "Any").addFrom("fastapi", "Depends").addFrom(userModule, imported),
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

/** `a`, `a and b`, `a, b and c`. */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
