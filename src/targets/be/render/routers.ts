// RouterMount → an aggregating `routes/__init__.py`: one import and one `include_router`
// per mounted router, in config order.

import { FileFragment, type Fragment, ImportCollector, SnippetFragment } from "../../../codegen/index.js";
import type { RouterMount } from "../operations/types.js";

export function renderRouterMount(mount: RouterMount): Fragment[] {
  return [
    new FileFragment({ path: mount.file, template: "routes/aggregate.py.njk", context: { doc: mount.doc, router_prefix: mount.routerPrefix } }),
    new SnippetFragment({
      path: mount.file,
      slot: "mounts",
      value: { alias: mount.alias, prefix: mount.prefix },
      imports: new ImportCollector().addFrom("fastapi", "APIRouter").addFrom(mount.module, `router as ${mount.alias}`),
    }),
  ];
}
