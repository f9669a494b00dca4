// The operation registry: which operation classes a target runs, grouped by scope and
// ordered by `requires`. Ordering is deterministic: among operations ready to run,
// registration order wins. `loadRegistry` builds a fresh registry from package manifests.
import { ValueError } from "./errors.js";
import { getOperationMeta, type OperationClass, type OperationMeta } from "./operation.js";
import { entryPoints, loadEntryPoint } from "./plugins.js";

/** One registered operation: its metadata and its class. */
type Entry = [OperationMeta, OperationClass];

/** The operations of one target, in registration order. */
export class OperationRegistry {
  /** `[meta, class]` pairs in registration order. */
  readonly entries: Entry[] = [];

  /**
   * Adds an operation.
   * @throws ValueError when an operation of the same name is already registered in the same scope.
   */
  register(meta: OperationMeta, cls: OperationClass): void {
    if (this.entries.some(([other]) => other.name === meta.name && other.scope === meta.scope)) {
      throw new ValueError(`operation "${meta.name}" is registered twice in scope "${meta.scope}"`);
    }
    this.entries.push([meta, cls]);
  }

  /**
   * Operations grouped by scope (scopes in order of first registration; scopes without
   * operations are absent), each group sorted so an operation follows everything it requires.
   * @throws ValueError naming the operations when a required name is not in the same scope,
   *   or requirements (of names or roles) form a cycle.
   */
  sortedByScope(): Map<string, Entry[]> {
    const groups = new Map<string, Entry[]>();
    for (const entry of this.entries) {
      const group = groups.get(entry[0].scope) ?? [];
      group.push(entry);
      groups.set(entry[0].scope, group);
    }
    for (const [scope, group] of groups) groups.set(scope, sortGroup(scope, group));
    return groups;
  }

  /**
   * Checks that every operation targets one of the `known` scope names.
   * @throws ValueError naming the first operation whose scope is unknown.
   */
  validateScopes(known: Iterable<string>): void {
    const names = new Set(known);
    for (const [meta] of this.entries) {
      if (!names.has(meta.scope)) {
        throw new ValueError(
          `operation "${meta.name}" targets unknown scope "${meta.scope}"; known scopes: ${[...names].join(", ")}`,
        );
      }
    }
  }
}

/**
 * Topological order of one scope's operations; stable in registration order. An operation
 * waits for the names it `requires` and for every other operation of a role it `requiresRoles`.
 */
function sortGroup(scope: string, group: readonly Entry[]): Entry[] {
  const names = new Set(group.map(([meta]) => meta.name));
  for (const [meta] of group) {
    const unknown = meta.requires.find((name) => !names.has(name));
    if (unknown !== undefined) {
      throw new ValueError(`operation "${meta.name}" requires unknown operation "${unknown}" in scope "${scope}"`);
    }
  }
  const waitsFor = new Map(
    group.map(([meta]) => [
      meta,
      [...meta.requires, ...group.filter(([other]) => other !== meta && other.role !== undefined && meta.requiresRoles.includes(other.role)).map(([other]) => other.name)],
    ]),
  );
  const sorted: Entry[] = [];
  const done = new Set<string>();
  let pending = [...group];
  while (pending.length > 0) {
    const ready = pending.find(([meta]) => waitsFor.get(meta)!.every((name) => done.has(name)));
    if (!ready) throw new ValueError(`cycle among operations in scope "${scope}": ${findCycle(pending, waitsFor).join(" -> ")}`);
    sorted.push(ready);
    done.add(ready[0].name);
    pending = pending.filter((entry) => entry !== ready);
  }
  return sorted;
}

/** A requirement cycle among operations none of which can run, as names ending where it starts. */
function findCycle(pending: readonly Entry[], waitsFor: ReadonlyMap<OperationMeta, readonly string[]>): string[] {
  const byName = new Map(pending.map(([meta]) => [meta.name, meta]));
  // Every pending op waits on another pending op, so following those edges must loop.
  const path: string[] = [];
  let current = pending[0][0];
  while (!path.includes(current.name)) {
    path.push(current.name);
    current = byName.get(waitsFor.get(current)!.find((name) => byName.has(name))!)!;
  }
  return [...path.slice(path.indexOf(current.name)), current.name];
}

/**
 * A fresh registry holding every operation class declared under `group` in the package
 * manifests visible from `cwd` (see `entryPoints`).
 * @throws TypeError naming the entry when a loaded export has no operation metadata.
 * @example
 * const registry = await loadRegistry("be.operations");
 */
export async function loadRegistry(group: string, options: { cwd?: string } = {}): Promise<OperationRegistry> {
  const registry = new OperationRegistry();
  for (const entry of await entryPoints(group, options)) {
    const cls = await loadEntryPoint(entry);
    const meta = getOperationMeta(cls);
    if (!meta) {
      throw new TypeError(
        `entry "${entry.name}" of group "${group}" (package ${entry.packageName}, ${entry.specifier}) ` +
          "is not an operation class: it has no @operation metadata",
      );
    }
    registry.register(meta, cls as OperationClass);
  }
  return registry;
}
