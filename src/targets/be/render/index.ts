// The `be` target's renderers, registered explicitly (no import side effects).

import type { RenderRegistry } from "../../../codegen/index.js";
import { RouteHandler, RouterMount, SchemaClass, SerializerFn } from "../operations/types.js";
import { renderRouteHandler } from "./routes.js";
import { renderRouterMount } from "./routers.js";
import { renderSchema } from "./schemas.js";
import { renderSerializer } from "./serializers.js";

export function registerRenderers(registry: RenderRegistry): void {
  registry.renders(SchemaClass, renderSchema);
  registry.renders(SerializerFn, renderSerializer);
  registry.renders(RouteHandler, renderRouteHandler);
  registry.renders(RouterMount, renderRouterMount);
}
