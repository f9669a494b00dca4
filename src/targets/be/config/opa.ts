// `auth.opa` (`OpaConfig`): the Open Policy Agent server that authorizes the routes that
// opt in with `opa: true` (cascading like `groups`). docs/authorization.md shows the flow;
// runtime/opa.py is what generated code runs.

import { z } from "zod";
import { EnvVarName } from "./primitives.js";

/** A Rego package path and rule, as OPA's Data API addresses it: `blog/authz/allow`. */
const DecisionPath = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)+$/, 'must be a rule path like "blog/authz/allow": the policy\'s package, then the rule, joined by /')
  .meta({ description: "The decision's path under `/v1/data/`: the policy's package and the rule that answers true to allow.", examples: ["blog/authz/allow"] });

/** The OPA defaults `auth.opa` fills in. */
export const OPA_DEFAULTS = { url_env: "OPA_URL", timeout_seconds: 1, fail: "closed" } as const;

export const OpaConfig = z
  .strictObject({
    decision: DecisionPath,
    url_env: EnvVarName.default(OPA_DEFAULTS.url_env)
      .meta({ description: "The environment variable holding the OPA server's URL (`http://127.0.0.1:8181`); the application refuses to start without it.", default: OPA_DEFAULTS.url_env }),
    timeout_seconds: z
      .number()
      .positive()
      .max(60)
      .default(OPA_DEFAULTS.timeout_seconds)
      .meta({ description: "How long one call to OPA may take, in seconds, before it counts as failed.", default: OPA_DEFAULTS.timeout_seconds }),
    fail: z
      .enum(["closed", "open"])
      .default(OPA_DEFAULTS.fail)
      .meta({
        description:
          "What a failed call (OPA down, slow, or answering an error) means: `closed` answers 503 with `Retry-After`; `open` allows " +
          "the request (and a list shows every row), logging a warning.",
        default: OPA_DEFAULTS.fail,
      }),
  })
  .meta({
    id: "OpaConfig",
    description:
      "The OPA server that authorizes routes with `opa: true`: asked over its REST Data API whether a user may act, and over its " +
      "Compile API which rows a list shows (docs/authorization.md). Needs the generated JWT flow.",
    examples: [{ decision: "blog/authz/allow" }, { decision: "blog/authz/allow", url_env: "OPA_URL", timeout_seconds: 0.5, fail: "open" }],
  });
export type OpaConfig = z.output<typeof OpaConfig>;

/** `opa` at an operation entry, a resource or an app: whether its routes ask OPA. */
export const OpaSetting = z.boolean().meta({
  description:
    "Whether the routes ask the OPA server of `auth.opa` (they must require a user): instance routes about the loaded row, " +
    "collection routes without one, and lists show only the rows the policy lets the user `get`. Cascades like `groups`. Default: false.",
  examples: [true],
});
