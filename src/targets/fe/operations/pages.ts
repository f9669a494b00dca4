// `Pages` (project scope): with the config's `pages`, the React pages of every resource of
// the backend's OpenAPI document under src/generated/ (regenerated on every run, with the
// banner), and src/custom/pages.tsx once (the user's, never touched again).

import { operation } from "../../../codegen/index.js";
import type { BuildContext } from "../../../codegen/index.js";
import type { ProjectConfig } from "../config.js";
import { pageFiles } from "../pages/app-files.js";
import type { PageFile } from "../pages/output.js";

@operation("pages", { scope: "project" })
export class Pages {
  when(ctx: BuildContext<ProjectConfig>): boolean {
    return ctx.config.pages_model !== undefined;
  }

  build(ctx: BuildContext<ProjectConfig>): PageFile[] {
    const model = ctx.config.pages_model!;
    return pageFiles(model, ctx.config.output, `codegen.session:${model.title}`);
  }
}
