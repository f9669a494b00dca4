// SPEC's `fe_root.config.RootConfig`: what the `fe_root` target needs to lay out a new
// Vite + React + TypeScript front end for a `be` backend. Every key but `name` has a
// default; parsing fills them all.

import { z } from "zod";
import { UserTemplatesConfig } from "../../codegen/index.js";

// npm package names: lowercase, optionally scoped, URL-safe characters, not starting with . or _.
const NPM_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;
const URL_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;
// Printable text without `"`, `\`, `<`, `>`, `{`, `}` and `&`: the title goes into a TypeScript
// string, HTML and JSX text and Markdown, none of which then needs escaping.
const TITLE = /^[^\p{Cc}"\\<>{}&]+$/u;

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && (url.pathname === "/" || url.pathname === "") && !value.endsWith("/");
  } catch {
    return false;
  }
}

/** The config of the `fe_root` target: a new front end project. */
export const RootConfig = z
  .strictObject({
    name: z
      .string()
      .max(214, "must be at most 214 characters (npm's limit)")
      .regex(NPM_NAME, 'must be an npm package name like "shop-web" or "@acme/shop-web" (lowercase)')
      .meta({ description: "The npm package name (package.json `name`): lowercase, optionally scoped.", examples: ["shop-web", "@acme/shop-web"] }),
    title: z
      .string()
      .regex(TITLE, "must be non-empty printable text without \" \\ < > { } or &")
      .optional()
      .meta({ description: "Shown in the page title and heading; printable text without `\"`, `\\`, `<`, `>`, `{`, `}` or `&`. Default: the name." }),
    backend_url: z
      .string()
      .refine(isHttpOrigin, 'must be an http(s) origin without a path or trailing "/", like "http://127.0.0.1:8000"')
      .default("http://127.0.0.1:8000")
      .meta({
        description:
          "Origin of the backend during development (no path, no trailing `/`): where the dev server sends API requests, " +
          "and the starter fe config's `input` (`<backend_url>/openapi.json`).",
      }),
    api_prefix: z
      .string()
      .regex(URL_PATH, 'must be a URL path like "/api": starting with "/", without a trailing "/"')
      .default("/api")
      .meta({
        description:
          "Requests under `<api_prefix>/` go to the backend with the prefix removed (`/api/notes` → `/notes`); the starter " +
          "fe config's `base_url`.",
      }),
    port: z
      .int()
      .min(1024, "must be from 1024 to 65535")
      .max(65535, "must be from 1024 to 65535")
      .default(5173)
      .meta({ description: "Port of the dev server (`npm run dev`), with `strictPort`: a port in use is an error, not another port." }),
    tanstack_query: z.boolean().default(true).meta({
      description: "Set up TanStack Query: the dependency, a `QueryClientProvider`, and `tanstack_query` in the starter `fe` config.",
    }),
    user_templates: UserTemplatesConfig.optional(),
    node_version: z
      .string()
      .regex(/^(2[0-9]|[3-9][0-9])(\.\d+){0,2}$/, 'must be a Node.js version from 20 on, like "22" or "22.12.0"')
      .default("22")
      .meta({ description: "Node.js version written to `.nvmrc`: 20 or later." }),
  })
  .meta({
    description: "The config of the `fe_root` target: a new Vite + React + TypeScript front end for a `be` backend. Every key but `name` has a default.",
    examples: [{ name: "shop-web", title: "Shop", backend_url: "http://127.0.0.1:8000" }],
  })
  .transform((root) => ({ ...root, title: root.title ?? root.name }));
export type RootConfig = z.output<typeof RootConfig>;
