// `entry` (operation scope, every entry): the `be` target's own check that an entry's
// `type` names an operation registered in `be.operations` — the engine skips unmatched
// dispatch values silently (SPEC), so a typo would otherwise generate nothing.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";

@operation("entry", { scope: "operation" })
export class Entry {
  *validate(ctx: BuildContext): Iterable<ValidationIssue> {
    const known = ctx.operations.filter((meta) => meta.scope === "operation" && meta.dispatchOn === "type").map((meta) => meta.name);
    const type: unknown = ctx.instance?.type;
    if (typeof type === "string" && !known.includes(type)) {
      yield { path: ["type"], message: `unknown operation ${JSON.stringify(type)}; expected one of: ${known.sort().join(", ")}` };
    }
  }

  build(): unknown[] {
    return [];
  }
}
