// The `be` target's renderers, registered explicitly (no import side effects). Each output
// class renders itself; this is the one list of what the target renders.

import type { RenderRegistry } from "../../codegen/index.js";
import { PythonModule } from "./modules/python-module.js";
import { RoutesModule } from "./modules/routes.js";
import { SchemaModule } from "./modules/schemas.js";
import { SerializerModule } from "./modules/serializers.js";
import { DatabaseModule } from "./operations/database/database.js";
import { Discovery } from "./operations/discovery/discovery.js";
import { Indexes } from "./operations/indexes/indexes.js";
import { RateLimitsModule } from "./operations/rate_limit/rate-limits.js";
import { AggregateRouter } from "./operations/routing/aggregate.js";
import { Conftest, TestModule } from "./operations/tests/outputs.js";

export function registerRenderers(registry: RenderRegistry): void {
  registry.renders(SchemaModule, (module) => module.render());
  registry.renders(SerializerModule, (module) => module.render());
  registry.renders(RoutesModule, (module, ctx) => module.render(ctx));
  registry.renders(AggregateRouter, (router, ctx) => router.render(ctx));
  registry.renders(Discovery, (discovery, ctx) => discovery.render(ctx));
  registry.renders(Indexes, (indexes, ctx) => indexes.render(ctx));
  registry.renders(DatabaseModule, (module, ctx) => module.render(ctx));
  registry.renders(PythonModule, (module) => module.render());
  registry.renders(RateLimitsModule, (module, ctx) => module.render(ctx));
  registry.renders(TestModule, (module, ctx) => module.render(ctx));
  registry.renders(Conftest, (conftest, ctx) => conftest.render(ctx));
}
