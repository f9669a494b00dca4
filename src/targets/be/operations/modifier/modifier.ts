// `modifier` (modifier scope, every modifier): the `be` target's own check that a
// modifier's `type` names a modifier operation registered in `be.operations`, built in or
// from a package; the engine skips unmatched dispatch values silently (SPEC).

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { unknownType } from "../entry/entry.js";
import { modifiesList } from "./context.js";

@operation("modifier", { scope: "modifier" })
export class Modifier {
  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    if (modifiesList(ctx)) yield* unknownType(ctx, "modifier");
  }

  build(): unknown[] {
    return [];
  }
}
