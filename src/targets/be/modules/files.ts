// The typed handle to one resource's generated modules. `resource_files` yields it once per
// resource; every operation below the resource reaches the modules through it (one
// producer, found by class), never by looking for outputs by name or shape.

import { type BuildContext, Handle } from "../../../codegen/index.js";
import type { ResourceView } from "../resource.js";
import type { ReadShape } from "./read-shape.js";
import type { RoutesModule } from "./routes.js";
import type { SchemaModule } from "./schemas.js";
import type { SerializerModule } from "./serializers.js";

/** The modules of one resource, and the facts they derive from. */
export class ResourceFiles extends Handle {
  constructor(
    readonly view: ResourceView,
    readonly schemas: SchemaModule,
    readonly serializers: SerializerModule,
    readonly routes: RoutesModule,
    readonly read: ReadShape,
  ) {
    super();
  }
}

/** The `ResourceFiles` of the resource at or above `ctx`'s instance. */
export function resourceFiles(ctx: BuildContext): ResourceFiles {
  return ctx.store.outputUnderAncestor(ctx.instanceId, "resource", ResourceFiles);
}
