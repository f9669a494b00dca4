// `rate_limits.py`: one `RateLimit` per limited route, so a reader finds every policy of the
// API in one module, and the routes depend on them by name. Written, with the runtime helper
// `runtime/rate_limit.py` (and `runtime/autocommit.py`, which it runs its statements with), only
// when some route is limited: a project without limits gets none of them.

import { FileFragment, type Fragment, ImportCollector, Name, prefixImport } from "../../../../codegen/index.js";
import type { RateLimitConfig } from "../../config/schema.js";
import type { RouteLimiter } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import { runtimeHelperFile } from "../../runtime-source.js";

/** One limited route. */
interface LimitedRoute {
  variable: string;
  /** `POST /content/articles`, for the comment above it. */
  route: string;
  bucket: string;
  config: RateLimitConfig;
}

/** The project's rate-limits module; routes are added by the `rate_limit` operation. */
export class RateLimitsModule {
  readonly #routes: LimitedRoute[] = [];
  readonly #packagePrefix: string;
  readonly #trustedProxies: readonly string[];

  constructor(options: { packagePrefix: string; trustedProxies: readonly string[] }) {
    this.#packagePrefix = options.packagePrefix;
    this.#trustedProxies = options.trustedProxies;
  }

  get dotted(): string {
    return prefixImport(this.#packagePrefix, "rate_limits");
  }

  /**
   * Adds the limiter of one route and returns what its handler needs to depend on it.
   * @param bucket the route's name among the counters, e.g. `content.create_article`
   */
  add(options: { variable: string; route: string; bucket: string; config: RateLimitConfig }): RouteLimiter {
    this.#routes.push(options);
    return { name: options.variable, imports: new ImportCollector().addFrom(this.dotted, options.variable) };
  }

  render(): Fragment[] {
    if (this.#routes.length === 0) return [];
    const runtime = prefixImport(this.#packagePrefix, "runtime", "rate_limit");
    const imports = new ImportCollector().addFrom(runtime, "RateLimit").addFrom(prefixImport(this.#packagePrefix, "db"), "get_engine");
    const byAddress = this.#routes.some((route) => route.config.key === "ip");
    if (byAddress) imports.addFrom(runtime, "ClientAddress");
    const limiters = this.#routes.map((route) => {
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
        },
        imports,
      }),
      new FileFragment(runtimeHelperFile("rate_limit")),
      new FileFragment(runtimeHelperFile("autocommit")),
    ];
  }
}
