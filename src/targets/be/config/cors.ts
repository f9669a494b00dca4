// `cors` (project): which other origins' browsers may call the API (docs/auth.md, CORS). It
// generates `cors.py` with FastAPI's CORSMiddleware; unset, nothing is generated. Origins
// allowed with credentials are also the ones the cookie sessions' origin check trusts.

import { z } from "zod";

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/** A browser origin: scheme, host and optional port, no path. */
export const Origin = z
  .string()
  .regex(ORIGIN, 'must be an origin like "https://app.example.com" or "http://localhost:5173": a scheme, a host, an optional port, no path or "/"')
  .meta({ id: "Origin", title: "origin", description: "`scheme://host[:port]` as browsers send it in `Origin`, without a path." });

const HttpMethod = z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

export const CORS_DEFAULTS = {
  allow_methods: ["GET", "POST", "PATCH", "DELETE"],
  allow_headers: ["Authorization", "Content-Type", "Idempotency-Key"],
  expose_headers: ["Location", "Retry-After"],
  max_age: 600,
} as const;

export const CorsConfig = z
  .strictObject({
    allow_origins: z
      .array(z.union([Origin, z.literal("*")]))
      .min(1, 'must list at least one origin (or "*" for any, without credentials)')
      .meta({ description: 'Origins whose browsers may call the API; `"*"` alone for any origin (never with `allow_credentials`).', examples: [["https://app.example.com"]] }),
    allow_credentials: z.boolean().default(false).meta({
      description:
        "Whether browsers may send cookies (and read answers to requests that carry them): needed by a front end on another " +
        "origin using cookie sessions. These origins are then trusted by the cookie sessions' origin check.",
    }),
    allow_methods: z.array(HttpMethod).min(1).optional().meta({ description: "Methods allowed across origins.", default: [...CORS_DEFAULTS.allow_methods] }),
    allow_headers: z
      .array(z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name"))
      .optional()
      .meta({ description: "Request headers allowed across origins (beyond the CORS-safelisted ones).", default: [...CORS_DEFAULTS.allow_headers] }),
    expose_headers: z
      .array(z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name"))
      .optional()
      .meta({ description: "Response headers a page on another origin may read.", default: [...CORS_DEFAULTS.expose_headers] }),
    max_age: z.int().min(0).optional().meta({ description: "Seconds a browser may cache a preflight answer.", default: CORS_DEFAULTS.max_age }),
  })
  .superRefine((cors, ctx) => {
    const any = cors.allow_origins.indexOf("*");
    if (any >= 0 && cors.allow_origins.length > 1) {
      ctx.addIssue({ code: "custom", path: ["allow_origins", any], message: '"*" allows every origin: list it alone, or list origins' });
    }
    if (any >= 0 && cors.allow_credentials) {
      ctx.addIssue({
        code: "custom",
        path: ["allow_credentials"],
        message: 'cannot be true with allow_origins "*": any site could then act with your users\' cookies; list the origins',
      });
    }
  })
  .meta({
    id: "CorsConfig",
    description:
      "Cross-origin requests (docs/auth.md): generates `cors.py`, whose `add_cors(app)` installs FastAPI's CORSMiddleware. " +
      "Default: none, and no CORS code (browsers on other origins get no access).",
    examples: [{ allow_origins: ["https://app.example.com"], allow_credentials: true }],
  })
  .transform((cors) => ({
    allow_origins: cors.allow_origins,
    allow_credentials: cors.allow_credentials,
    allow_methods: cors.allow_methods ?? [...CORS_DEFAULTS.allow_methods],
    allow_headers: cors.allow_headers ?? [...CORS_DEFAULTS.allow_headers],
    expose_headers: cors.expose_headers ?? [...CORS_DEFAULTS.expose_headers],
    max_age: cors.max_age ?? CORS_DEFAULTS.max_age,
  }));
export type CorsConfig = z.output<typeof CorsConfig>;
