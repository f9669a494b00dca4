// `OpenApiTsConfig` (project scope): the front end's `openapi-ts.config.ts`, from which
// `npx openapi-ts` writes the typed client. Regenerated on every run (it carries the banner);
// the client itself is written by openapi-ts, never by codegen.

import { StaticFile, operation } from "../../../codegen/index.js";
import type { BuildContext } from "../../../codegen/index.js";
import type { ProjectConfig } from "../config.js";

/** A TypeScript string literal. */
const literal = (value: string) => JSON.stringify(value);

/** The `plugins` entries of the openapi-ts config, as TypeScript source. */
export function pluginEntries(config: ProjectConfig): string[] {
  const client =
    config.base_url === undefined
      ? literal(config.client)
      : `{ name: ${literal(config.client)}, baseUrl: ${config.base_url === false ? "false" : literal(config.base_url)} }`;
  const entries = [client, literal("@hey-api/typescript"), literal("@hey-api/sdk")];
  if (config.tanstack_query) entries.push(literal("@tanstack/react-query"));
  return entries;
}

@operation("openapi_ts_config", { scope: "project" })
export class OpenApiTsConfig {
  build(ctx: BuildContext<ProjectConfig>): StaticFile[] {
    const config = ctx.config;
    return [
      new StaticFile({
        path: "openapi-ts.config.ts",
        template: "openapi-ts.config.ts.njk",
        context: {
          input: literal(config.input),
          output: literal(config.output),
          plugins: pluginEntries(config),
        },
      }),
    ];
  }
}
