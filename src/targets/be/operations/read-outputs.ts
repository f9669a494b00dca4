// The read shape's schemas and serializers are emitted once per resource, by whichever
// read-returning operation runs first; later ones find them in the store and reuse them.

import type { BuildContext } from "../../../codegen/index.js";
import type { ResourceView } from "../resource.js";
import { type ReadShape, readShape } from "./read-shape.js";
import { SchemaClass } from "./types.js";

/** The read shape, and the outputs this op must add (empty when an earlier op added them). */
export function readShapeOutputs(ctx: BuildContext, view: ResourceView): { shape: ReadShape; outputs: unknown[] } {
  const shape = readShape(view);
  const emitted = ctx.store.outputsUnder(view.id, SchemaClass).some((schema) => schema.name === shape.read.name);
  return { shape, outputs: emitted ? [] : [...shape.schemas, ...shape.serializers] };
}
