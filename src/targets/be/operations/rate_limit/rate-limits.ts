// `rate_limits.py`: one `RateLimit` per limited route, so a reader finds every policy of the
// API in one module, and the routes depend on them by name. Written, with the runtime helper
// `runtime/rate_limit.py` (and `runtime/autocommit.py`, which it runs its statements with), only
// when some route is limited: a project without limits gets none of them.

import { type BuildStore, FileFragment, type Fragment, Handle, ImportCollector, Name, PROJECT, type RenderCtx, prefixImport } from "../../../../codegen/index.js";
import type { RateLimitConfig } from "../../config/schema.js";
import type { RouteLimiter } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import { runtimeHelperFile } from "../../runtime-source.js";

/**
 * One limited route: what the `rate_limit` operation yields at its entry. The project's module
 * lists every one in the store, in build order, rather than being amended by each entry.
 */
export class LimitedRoute extends Handle {
  /** The limiter's name in `rate_limits.py`, e.g. `limit_create_article`. */
  readonly variable: string;
  /** `POST /content/articles`, for the comment above it. */
  readonly route: string;
  /** The route's name among the counters, e.g. `content.create_article`. */
  readonly bucket: string;
  readonly config: RateLimitConfig;
  /** Whether the route is written in the build of `store`; a route that is not gets no limiter. */
  readonly presentIn: (store: BuildStore) => boolean;

  constructor(options: { variable: string; route: string; bucket: string; config: RateLimitConfig; presentIn?: (store: BuildStore) => boolean }) {
    super();
    this.variable = options.variable;
    this.route = options.route;
    this.bucket = options.bucket;
    this.config = options.config;
    this.presentIn = options.presentIn ?? (() => true);
  }
}

/** The limited routes of the build of `store` that it writes, in build order. */
function limitedRoutes(store: BuildStore): LimitedRoute[] {
  return store.outputsUnder(PROJECT.name, LimitedRoute).filter((route) => route.presentIn(store));
}

/** The project's rate-limits module: a limiter for each `LimitedRoute` of the build. */
export class RateLimitsModule {
  readonly #packagePrefix: string;
  readonly #trustedProxies: readonly string[];

  constructor(options: { packagePrefix: string; trustedProxies: readonly string[] }) {
    this.#packagePrefix = options.packagePrefix;
    this.#trustedProxies = options.trustedProxies;
  }

  get dotted(): string {
    return prefixImport(this.#packagePrefix, "rate_limits");
  }

  /** What the handler of `route` needs to depend on its limiter. */
  limiterOf(route: LimitedRoute): RouteLimiter {
    return { name: route.variable, imports: new ImportCollector().addFrom(this.dotted, route.variable) };
  }

  /** Whether the build of `store` limits some route (the module exists). */
  usedIn(store: BuildStore): boolean {
    return limitedRoutes(store).length > 0;
  }

  /** `ctx` is the project's: every limited route of the build lies under it. */
  render(ctx: RenderCtx): Fragment[] {
    const routes = limitedRoutes(ctx.store);
    if (routes.length === 0) return [];
    const runtime = prefixImport(this.#packagePrefix, "runtime", "rate_limit");
    const imports = new ImportCollector().addFrom(runtime, "RateLimit").addFrom(prefixImport(this.#packagePrefix, "db"), "get_engine");
    const byAddress = routes.some((route) => route.config.key === "ip");
    if (byAddress) imports.addFrom(prefixImport(this.#packagePrefix, "runtime", "proxies"), "ClientAddress");
    const limiters = routes.map((route) => {
      const args = [pythonString(route.bucket), pythonString(route.config.limit)];
      let suffix = "";
      if (route.config.key === "ip") args.push("key=CLIENT_ADDRESS");
      else if (route.config.key === "user") {
        // The user comes from the auth dependency (cached per request), not from the request.
        imports.addFrom(prefixImport(this.#packagePrefix, "auth", "dependencies"), "get_current_user");
        suffix = ".per_user(get_current_user)";
      } else {
        const [module, fn] = Name.fromDotted(route.config.key);
        imports.addFrom(module, fn.raw);
        args.push(`key=${fn.raw}`);
      }
      args.push("engine=get_engine");
      if (!route.config.headers) args.push("headers=False");
      return { comment: route.route, line: `${route.variable} = RateLimit(${args.join(", ")})${suffix}` };
    });
    const proxies = this.#trustedProxies.map(pythonString);
    return [
      new FileFragment({
        path: "rate_limits.py",
        template: "operations/rate_limit/rate_limits.py.njk",
        context: {
          client_address: byAddress ? `CLIENT_ADDRESS = ClientAddress(${proxies.length ? `[${proxies.join(", ")}]` : ""})` : "",
          limiters,
          names: `${routes.map((route) => route.variable).join(", ")}${routes.length === 1 ? "," : ""}`,
        },
        imports,
      }),
      new FileFragment(runtimeHelperFile("rate_limit")),
      new FileFragment(runtimeHelperFile("autocommit")),
    ];
  }
}
