// `modifier` (modifier scope, every modifier): the `be` target's own check that a
// modifier's `type` names a modifier operation registered in `be.operations`, built in or
// from a package; the engine skips unmatched dispatch values silently (SPEC).

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";
import { modifiesList } from "./context.js";

@operation("modifier", { scope: "modifier" })
export class Modifier {
  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    if (!modifiesList(ctx)) return;
    const known = ctx.operations.filter((meta) => meta.scope === "modifier" && meta.dispatchOn === "type").map((meta) => meta.name);
    const type: unknown = ctx.instance?.type;
    if (typeof type === "string" && !known.includes(type)) {
      yield { path: ["type"], message: `unknown modifier ${JSON.stringify(type)}; expected one of: ${known.sort().join(", ")}` };
    }
  }

  build(): unknown[] {
    return [];
  }
}
