// What a modifier operation reads around its instance: the list entry it modifies, the
// entry's `ListHandler` (the typed handle it amends), the resource and its app. Shared by
// the built-in modifiers and open to those of other packages.

import type { BuildContext, ValidationIssue } from "../../../../codegen/index.js";
import type { ResolvedApp, ResourceConfig } from "../../config/schema.js";
import { ListHandler } from "../list/list-handler.js";

/** The list handler of the entry a modifier belongs to. */
export function listHandler(ctx: BuildContext): ListHandler {
  return ctx.store.outputUnderAncestor(ctx.instanceId, "operation", ListHandler);
}

/** The resource a modifier's list serves. */
export function modifiedResource(ctx: BuildContext): ResourceConfig {
  return ctx.store.ancestorOf(ctx.instanceId, "resource") as ResourceConfig;
}

/** The app of a modifier's resource. */
export function modifiedApp(ctx: BuildContext): ResolvedApp {
  return ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
}

/** The static side of an operation whose entry's modifiers amend the `ListHandler` it yields (`list`, or a package's). */
export interface ModifiedOperation {
  readonly yieldsListHandler: true;
}

/**
 * Whether the modifier's entry runs an operation that yields a `ListHandler` for modifiers to
 * amend, as its class declares (`static yieldsListHandler = true`); other entries reject
 * `modifiers` themselves.
 */
export function modifiesList(ctx: BuildContext): boolean {
  const entryId = ctx.store.ancestorIdOf(ctx.instanceId, "operation");
  if (entryId === undefined) return false;
  return ctx.store.operationsAt(entryId).some(({ cls }) => (cls as Partial<ModifiedOperation>).yieldsListHandler === true);
}

/** An issue at the modifier's `type` when an earlier modifier of the entry has the same type. */
export function* onlyOnePerList(ctx: BuildContext, type: string): Iterable<ValidationIssue> {
  const entryId = ctx.store.ancestorIdOf(ctx.instanceId, "operation")!;
  const siblings = ctx.store.children(entryId, { childScope: "modifier" });
  const first = siblings.findIndex(([, modifier]) => (modifier as { type?: unknown }).type === type);
  const own = siblings.findIndex(([id]) => id === ctx.instanceId);
  if (first !== own) yield { path: ["type"], message: `a list takes one ${type} modifier; modifiers[${first}] is one already` };
}
