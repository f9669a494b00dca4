// `entry` (operation scope, every entry): the `be` target's own check that an entry's
// `type` names an operation registered in `be.operations` — the engine skips unmatched
// dispatch values silently (SPEC), so a typo would otherwise generate nothing.

import { type BuildContext, type ValidationIssue, operation } from "../../../../codegen/index.js";

// The names dispatched on `type` per scope, per build's operation list (one list per build).
const dispatchedByOperations = new WeakMap<BuildContext["operations"], Map<string, ReadonlySet<string>>>();

/** Names of the operations of `scope` dispatched on `type`, computed once per build. */
function dispatchedNames(operations: BuildContext["operations"], scope: string): ReadonlySet<string> {
  let byScope = dispatchedByOperations.get(operations);
  if (!byScope) dispatchedByOperations.set(operations, (byScope = new Map()));
  let names = byScope.get(scope);
  if (!names) byScope.set(scope, (names = new Set(operations.filter((meta) => meta.scope === scope && meta.dispatchOn === "type").map((meta) => meta.name))));
  return names;
}

/** An issue at `type` when no operation of `scope` dispatched on `type` answers to the instance's ("unknown {scope} …"). */
export function* unknownType(ctx: BuildContext, scope: string): Iterable<ValidationIssue> {
  const known = dispatchedNames(ctx.operations, scope);
  const type: unknown = ctx.instance?.type;
  if (typeof type === "string" && !known.has(type)) {
    yield { path: ["type"], message: `unknown ${scope} ${JSON.stringify(type)}; expected one of: ${[...known].sort().join(", ")}` };
  }
}

@operation("entry", { scope: "operation" })
export class Entry {
  validate(ctx: BuildContext): Iterable<ValidationIssue> {
    return unknownType(ctx, "operation");
  }

  build(): unknown[] {
    return [];
  }
}
