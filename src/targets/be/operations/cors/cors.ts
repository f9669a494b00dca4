// `cors` (project scope, only with the project's `cors`): `cors.py`, whose `add_cors(app)`
// installs FastAPI's CORSMiddleware with the configured origins, so browsers on those origins
// may call the API and preflight requests from any other origin get no CORS headers.

import { type BuildContext, ImportCollector, operation } from "../../../../codegen/index.js";
import type { ProjectConfig } from "../../config/schema.js";
import { PythonModule } from "../../modules/python-module.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";

@operation("cors", { scope: "project" })
export class Cors {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.cors !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): unknown[] {
    const cors = ctx.config.cors!;
    const list = (items: readonly string[]) => `[${items.map(pythonString).join(", ")}]`;
    return [
      new PythonModule({
        path: "cors.py",
        template: "operations/cors/cors.py.njk",
        context: {
          origins: list(cors.allow_origins),
          credentials: pythonLiteral(cors.allow_credentials),
          methods: list(cors.allow_methods),
          headers: list(cors.allow_headers),
          expose: list(cors.expose_headers),
          max_age: cors.max_age,
        },
        imports: new ImportCollector().addFrom("fastapi", "FastAPI").addFrom("fastapi.middleware.cors", "CORSMiddleware"),
      }),
    ];
  }
}
