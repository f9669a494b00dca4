// `RootScaffold` (project scope): the files of a new Vite + React + TypeScript front end.
// Every file is the user's once written: the `skip` policy leaves an existing file alone
// (unless `--force` or `--force-paths`), and none carries the "do not edit" banner.

import { StaticFile, operation } from "../../../codegen/index.js";
import type { BuildContext } from "../../../codegen/index.js";
import type { RootConfig } from "../config.js";
import { DEV_DEPENDENCIES, NODE_ENGINES, dependencies } from "../versions.js";

/** A user-owned file: written once, no banner. */
function starter(path: string, template: string, context: Record<string, unknown> = {}): StaticFile {
  return new StaticFile({ path, template, context, ifExists: "skip", banner: false });
}

/** package.json, key by key in the order npm itself writes them. */
export function packageJson(root: RootConfig): string {
  const manifest = {
    name: root.name,
    private: true,
    version: "0.0.0",
    type: "module",
    scripts: {
      dev: "vite",
      build: "vite build",
      preview: "vite preview",
      typecheck: "tsc --noEmit",
      format: "prettier --write .",
      "format:check": "prettier --check .",
      "openapi-ts": "openapi-ts",
    },
    engines: { node: NODE_ENGINES },
    dependencies: dependencies({ tanstackQuery: root.tanstack_query }),
    devDependencies: DEV_DEPENDENCIES,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A regular expression literal matching `prefix` at the start of a path: `/api` → `/^\/api/`. */
function prefixPattern(prefix: string): string {
  return `/^${prefix.replace(/[.]/g, "\\.").replace(/\//g, "\\/")}/`;
}

@operation("root_scaffold", { scope: "project" })
export class RootScaffold {
  build(ctx: BuildContext<RootConfig>): StaticFile[] {
    const root = ctx.config;
    const context = {
      ...root,
      title_literal: JSON.stringify(root.title),
      backend_literal: JSON.stringify(root.backend_url),
      proxy_key: JSON.stringify(`${root.api_prefix}/`),
      prefix_pattern: prefixPattern(root.api_prefix),
      spec_url: JSON.stringify(`${root.api_prefix}/openapi.json`),
    };
    return [
      starter("package.json", "package.json.njk", { content: packageJson(root) }),
      starter("tsconfig.json", "tsconfig.json.njk"),
      starter("vite.config.ts", "vite.config.ts.njk", context),
      starter("index.html", "index.html.njk", context),
      starter("src/main.tsx", "src/main.tsx.njk", context),
      starter("src/App.tsx", "src/App.tsx.njk", context),
      starter("config/fe.jsonnet", "config/fe.jsonnet.njk", context),
      starter("README.md", "README.md.njk", context),
      starter(".gitignore", "gitignore.njk"),
      starter(".prettierrc.json", "prettierrc.json.njk"),
      starter(".prettierignore", "prettierignore.njk"),
      starter(".nvmrc", "nvmrc.njk", context),
    ];
  }
}
