// The `be` target's renderers, registered explicitly (no import side effects).

import type { RenderRegistry } from "../../../codegen/index.js";
import { PythonModule, RouteHandler, RouterMount, SchemaClass, SerializerFn, TestCase, TestFixture } from "../operations/types.js";
import { renderPythonModule } from "./modules.js";
import { renderRouteHandler } from "./routes.js";
import { renderRouterMount } from "./routers.js";
import { renderSchema } from "./schemas.js";
import { renderSerializer } from "./serializers.js";
import { renderTestCase, renderTestFixture } from "./tests.js";

export function registerRenderers(registry: RenderRegistry): void {
  registry.renders(SchemaClass, renderSchema);
  registry.renders(SerializerFn, renderSerializer);
  registry.renders(RouteHandler, renderRouteHandler);
  registry.renders(RouterMount, renderRouterMount);
  registry.renders(PythonModule, renderPythonModule);
  registry.renders(TestCase, renderTestCase);
  registry.renders(TestFixture, renderTestFixture);
}
