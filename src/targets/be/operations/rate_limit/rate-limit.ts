// `rate_limits` (project) holds the rate-limits module; `rate_limit` (operation entry, after
// every endpoint operation (role `ENDPOINT`) and `auth`) gives each handler the limit its
// entry inherits through the cascade (entry → resource → app → project), amending it only
// through `limitRate`, and yields a `LimitedRoute` per handler, which the module lists when
// it renders. `project_rate_limit` does the same with the project's limit for the routes of
// project-wide modules (`ProjectRoute`: discovery, the auth package), after every
// project-scope operation of role `ENDPOINT`.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { cascadeSource, cascaded } from "../../cascade.js";
import { isKilnsLimiter } from "../../config/kiln.js";
import { wasDefaulted } from "../../config/provenance.js";
import { type ProjectConfig, type RateLimitConfig, RateLimitSetting, type ResolvedApp } from "../../config/schema.js";
import { ENDPOINT, RouteHandler } from "../../modules/handler.js";
import { ProjectRoute } from "../../modules/project-route.js";
import { routePath, whyNoUser } from "../auth/decide.js";
import { LimitedRoute, RateLimitsModule } from "./rate-limits.js";

@operation("rate_limits", { scope: "project" })
export class RateLimits {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    return [new RateLimitsModule({ packagePrefix: ctx.packagePrefix, trustedProxies: ctx.config.trusted_proxies })];
  }
}

/**
 * The limit the entry `instanceId` inherits, parsed (an entry's own options are kept as
 * written), or undefined for none. Under kiln's limiter, a limit written as a bare string
 * counts by the limiter's key and sends its headers, as slowapi's do.
 */
export function rateLimitOf(ctx: BuildContext<ProjectConfig>): RateLimitConfig | undefined {
  const setting = cascaded(ctx.store, ctx.instanceId, ctx.config, "rate_limit");
  if (setting === undefined) return undefined;
  const parsed = RateLimitSetting.safeParse(setting);
  if (!parsed.success || parsed.data === false) return undefined;
  const limiter = ctx.config.rate_limit;
  // A bare string: an entry's, as written, or a resource's or app's, parsed with its level.
  const bare = typeof setting === "string" || (typeof setting === "object" && setting !== null && wasDefaulted(setting, "key"));
  if (isKilnsLimiter(limiter) && bare) return { ...parsed.data, key: limiter.key, headers: limiter.headers };
  return parsed.data;
}

@operation("rate_limit", { scope: "operation", requires: ["auth"], requiresRoles: [ENDPOINT] })
export class RateLimit {
  *validate(ctx: BuildContext<ProjectConfig>): Iterable<ValidationIssue> {
    // The entry's own `rate_limit` is parsed by its endpoint operation's options.
    const limit = rateLimitOf(ctx);
    if (limit?.key !== "user") return;
    // The route must get a user: the auth augmenter decides the same way (no auth, require_auth: false, exclude_paths).
    const reason = whyNoUser(ctx);
    if (reason === undefined) return;
    const source = cascadeSource(ctx.store, ctx.instanceId, "rate_limit");
    yield { path: source === "this operation" ? ["rate_limit", "key"] : [], message: `rate_limit (from ${source}) is keyed by "user", but ${reason}` };
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const limit = rateLimitOf(ctx);
    if (limit === undefined) return [];
    const module = ctx.store.outputUnderAncestor(ctx.instanceId, "project", RateLimitsModule);
    const app = ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
    return ctx.store.outputsUnder(ctx.instanceId, RouteHandler).map((handler) => {
      if (limit.key === "user" && handler.user === undefined) throw new Error(`bug: ${handler.name} is limited per user but takes none (validate lets it through)`);
      const limited = new LimitedRoute({
        variable: ctx.config.single_app ? `limit_${handler.name}` : `limit_${app.config.module}_${handler.name}`,
        route: `${handler.method} ${routePath(ctx.store, ctx.instanceId, handler.path) || "/"}`,
        bucket: `${app.config.module}.${handler.name}`,
        config: limit,
      });
      handler.limitRate(module.limiterOf(limited));
      return limited;
    });
  }
}

/** The project's own `rate_limit`, parsed, or undefined for none. */
function projectLimit(project: ProjectConfig): RateLimitConfig | undefined {
  if (project.rate_limit === undefined) return undefined;
  const parsed = RateLimitSetting.safeParse(project.rate_limit);
  return parsed.success && parsed.data !== false ? parsed.data : undefined;
}

@operation("project_rate_limit", { scope: "project", afterChildren: true, requiresRoles: [ENDPOINT] })
export class ProjectRateLimit {
  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const limit = projectLimit(ctx.config);
    if (limit === undefined) return [];
    const module = ctx.store.outputUnderAncestor(ctx.instanceId, "project", RateLimitsModule);
    // A limit keyed by the user counts only routes that take one (not the token endpoint).
    const routes = ctx.store.outputsUnder(ctx.instanceId, ProjectRoute).filter((route) => limit.key !== "user" || route.userKeyed);
    return routes.map((route) => {
      const limited = new LimitedRoute({
        variable: `limit_${route.name}`,
        route: `${route.method} ${route.path}`,
        bucket: `${route.group}.${route.name}`,
        config: limit,
        presentIn: route.presentIn,
      });
      route.limitRate(module.limiterOf(limited));
      return limited;
    });
  }
}
