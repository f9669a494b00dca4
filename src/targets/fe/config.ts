// SPEC's `fe.config.ProjectConfig`: where @hey-api/openapi-ts reads the backend's OpenAPI
// document, where it writes the typed client, and with which plugins. Parsing fills every
// default, so the operation never recomputes one.

import { z } from "zod";
import { UserTemplatesConfig } from "../../codegen/index.js";
import { PagesConfig } from "./pages/config.js";
import { buildPagesModel } from "./pages/model.js";

/** Client plugins of @hey-api/openapi-ts: the HTTP library the generated SDK calls through. */
export const ClientPlugin = z.enum([
  "@hey-api/client-fetch",
  "@hey-api/client-axios",
  "@hey-api/client-ky",
  "@hey-api/client-ofetch",
  "@hey-api/client-next",
  "@hey-api/client-nuxt",
  "@hey-api/client-angular",
]);
export type ClientPlugin = z.output<typeof ClientPlugin>;

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const SAFE_TEXT = /^[^\p{Cc}]+$/u;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "";
  } catch {
    return false;
  }
}

/** The OpenAPI document: an `http(s)://` URL, or a file path relative to the front end's root. */
export const SpecInput = z
  .string()
  .regex(SAFE_TEXT, "must be a URL or a file path (non-empty, printable)")
  .superRefine((value, ctx) => {
    if (URL_SCHEME.test(value) && !isHttpUrl(value)) {
      ctx.addIssue({ code: "custom", message: 'must be an http:// or https:// URL, or a file path like "openapi.json"' });
    }
  });

/** The directory openapi-ts writes the client into; emptied on every run, so one of its own. */
export const OutputDir = z.string().superRefine((value, ctx) => {
  const segments = value.split("/");
  const problem =
    value === "" || !SAFE_TEXT.test(value)
      ? "must be a non-empty relative path"
      : value.startsWith("/") || /^[A-Za-z]:/.test(value) || value.includes("\\")
        ? 'must be a relative path with "/" separators, like "src/client"'
        : segments.some((segment) => segment === "..")
          ? 'must stay inside the project (no ".." segments)'
          : segments.every((segment) => segment === "." || segment === "")
            ? "must name a directory of its own: openapi-ts empties it on every run"
            : undefined;
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** Base URL baked into the generated client: a path, an `http(s)://` URL, or `false`. */
export const BaseUrl = z
  .union([z.string(), z.literal(false)], { error: 'must be a path like "/api", an http(s):// URL, or false' })
  .superRefine((value, ctx) => {
    if (value === false) return;
    if (!(SAFE_TEXT.test(value) && (isHttpUrl(value) || /^\/\S*$/.test(value)))) {
      ctx.addIssue({ code: "custom", message: 'must be a path like "/api", an http(s):// URL, or false' });
    }
  });

/** The config of the `fe` target: one `openapi-ts.config.ts` for @hey-api/openapi-ts, and with `pages`, the pages of every resource. */
export const ProjectConfig = z
  .strictObject({
    input: SpecInput.meta({
      description:
        "The OpenAPI document to generate from: an `http(s)://` URL (the running backend's `/openapi.json`), or a file saved " +
        "from it, relative to the front end's root. Other URL schemes are rejected.",
      examples: ["http://127.0.0.1:8000/openapi.json", "../backend/openapi.json"],
    }),
    output: OutputDir.default("src/client").meta({
      description:
        "The directory openapi-ts writes the client into, relative to the front end's root. openapi-ts empties it on every " +
        "run, so it must be a directory of its own inside the project: not `.`, not absolute, no `..`.",
    }),
    client: ClientPlugin.default("@hey-api/client-fetch").meta({ description: "The client plugin: the HTTP library the generated SDK calls through. Every client but fetch needs its library installed (`axios`, `ky`, …)." }),
    base_url: BaseUrl.optional().meta({
      description:
        "Base URL baked into the generated client: a path on the front end's own origin (`/api`, where `fe_root`'s dev server " +
        "proxies requests to the backend), an absolute `http(s)://` URL, or `false` for none. Default: none written: " +
        "openapi-ts uses the document's first server, if it lists one (FastAPI lists none by default).",
      examples: ["/api"],
    }),
    tanstack_query: z.boolean().default(false).meta({
      description: "Also generate TanStack Query helpers (the `@tanstack/react-query` plugin): `…Options()` for `useQuery`, " +
        "`…Mutation()` for `useMutation`, and query keys. Needs `@tanstack/react-query` installed.",
    }),
    user_templates: UserTemplatesConfig.optional(),
    pages: PagesConfig.optional().meta({
      description:
        "Generate the pages of every resource of the backend's OpenAPI document (docs/fe.md). Needs `tanstack_query: true`, " +
        "the fetch client, and `output` inside `src/`. Default: no pages.",
    }),
  })
  .meta({
    description: "The config of the `fe` target: where @hey-api/openapi-ts reads the backend's OpenAPI document, where it writes the typed client, and the pages.",
    examples: [{ input: "http://127.0.0.1:8000/openapi.json", base_url: "/api", tanstack_query: true }],
  })
  .transform((config, ctx) => {
    if (config.pages === undefined) return { ...config, pages_model: undefined };
    let problems = 0;
    const issue = (path: (string | number)[], message: string) => {
      problems += 1;
      ctx.addIssue({ code: "custom", path, message });
    };
    if (!config.tanstack_query) issue(["tanstack_query"], "must be true with pages: the pages call the backend through the TanStack Query helpers");
    if (config.client !== "@hey-api/client-fetch") issue(["client"], 'must be "@hey-api/client-fetch" with pages');
    if (!config.output.startsWith("src/")) issue(["output"], 'must be a directory inside src/ with pages, like "src/client"');
    const { model, issues } = buildPagesModel(config.pages);
    for (const problem of issues) issue(["pages", ...problem.path], problem.message);
    if (model === undefined || problems > 0) return z.NEVER;
    return { ...config, pages_model: model };
  });
export type ProjectConfig = z.output<typeof ProjectConfig>;
