// The build store: every scope instance of one build and the outputs operations produced
// there, keyed by (instance id, op name) in insertion order. Instance ids encode ancestry
// (`project.apps.0.resources.2` lies under `project.apps.0`), which the queries rely on.
import { KeyError, LookupError, ValueError } from "./errors.js";
import type { OperationClass, OperationMeta } from "./operation.js";
import type { Scope, ScopeTree } from "./scopes.js";

/**
 * An operation that applies at an instance (scope and `dispatchOn` match, options parsed;
 * `when` not asked): its metadata, its class (each build runs one object of it) and its options.
 */
export interface AppliedOperation {
  readonly meta: OperationMeta;
  readonly cls: OperationClass;
  readonly options: unknown;
}

/** A class to filter outputs by; queries return its instances, so callers never cast. */
type OutputType<T> = abstract new (...args: any[]) => T;

interface OutputEntry {
  id: string;
  opName: string;
  items: unknown[];
  /** Position of the entry's first add, to keep queries in insertion order. */
  order: number;
}

interface InstanceRecord {
  instance: unknown;
  scope: Scope;
  parent: string | undefined;
  configPath: string;
  children: string[];
  operations: readonly AppliedOperation[];
}

/** Scope instances and operation outputs of one build. */
export class BuildStore {
  readonly #scopes: ScopeTree;
  readonly #instances = new Map<string, InstanceRecord>();
  // Every entry in order of its first add (`order` is its index).
  readonly #outputs: OutputEntry[] = [];
  // The same entries per instance, so subtree queries visit only the subtree.
  readonly #outputsById = new Map<string, OutputEntry[]>();
  // Instances registered without a parent: a query under the only root needs no walk.
  #rootCount = 0;

  /** @param scopes the build's scope tree: derives scopes from ids and checks `childScope` names. */
  constructor(scopes: ScopeTree) {
    this.#scopes = scopes;
  }

  /**
   * Records a scope instance. Register parents before their children: children are listed
   * in registration order, which the engine makes config order.
   * @param options.parent parent id. @default the id minus its last `.<key>.<index>`
   * @param options.scope @default the scope `ScopeTree.scopeFor(id)` resolves
   * @param options.configPath where the user wrote the instance, e.g. `apps[0].config.resources[2]`. @default ""
   * @param options.operations the operations that apply here, in run order (`operationsAt`). @default none
   * @throws ValueError when the id is already registered; KeyError when the parent is not.
   */
  registerInstance(
    id: string,
    instance: unknown,
    options: { parent?: string; scope?: Scope; configPath?: string; operations?: readonly AppliedOperation[] } = {},
  ): void {
    if (this.#instances.has(id)) throw new ValueError(`instance "${id}" is already registered`);
    const parent = options.parent ?? parentIdOf(id);
    if (parent !== undefined) this.#record(parent).children.push(id);
    else this.#rootCount++;
    this.#instances.set(id, {
      instance,
      scope: options.scope ?? this.#scopes.scopeFor(id),
      parent,
      configPath: options.configPath ?? "",
      children: [],
      operations: Object.freeze([...(options.operations ?? [])]),
    });
  }

  /**
   * The operations that apply at instance `id`, in run order: what an operation may learn
   * of another instance (an entry's siblings, a modifier's entry) from what their classes
   * declare, even while validating: those registered with it (the engine's plan).
   * @throws KeyError when the instance is not registered.
   */
  operationsAt(id: string): readonly AppliedOperation[] {
    return this.#record(id).operations;
  }

  /**
   * Appends outputs of `opName` at instance `id` (an op adding twice extends its entry).
   * @throws KeyError when the instance is not registered.
   */
  add(id: string, opName: string, ...objects: unknown[]): void {
    this.#record(id);
    const atId = this.#outputsById.get(id);
    if (atId) {
      for (const entry of atId) {
        if (entry.opName !== opName) continue;
        for (const object of objects) entry.items.push(object);
        return;
      }
    }
    const created: OutputEntry = { id, opName, items: objects, order: this.#outputs.length };
    this.#outputs.push(created);
    if (atId) atId.push(created);
    else this.#outputsById.set(id, [created]);
  }

  /** `[instance id, op name, outputs]` for every add, in order of each pair's first add. */
  entries(): [id: string, opName: string, items: readonly unknown[]][] {
    return this.#outputs.map(({ id, opName, items }) => [id, opName, items]);
  }

  /**
   * Id of the nearest instance of scope `scopeName` at or above `id`: an instance counts
   * as its own ancestor, as `outputsUnder` counts outputs at the id itself.
   * @returns undefined when there is none.
   * @throws KeyError when `id` is not registered.
   */
  ancestorIdOf(id: string, scopeName: string): string | undefined {
    for (let current: string | undefined = id; current !== undefined; ) {
      const record = this.#record(current);
      if (record.scope.name === scopeName) return current;
      current = record.parent;
    }
    return undefined;
  }

  /** The instance `ancestorIdOf(id, scopeName)` names, or undefined. */
  ancestorOf(id: string, scopeName: string): unknown {
    const ancestorId = this.ancestorIdOf(id, scopeName);
    return ancestorId === undefined ? undefined : this.#record(ancestorId).instance;
  }

  /**
   * `[child id, child]` pairs directly under `parentId`, in config order.
   * @param options.childScope only children of this scope name
   * @throws ValueError when `childScope` names no scope; KeyError when `parentId` is not registered.
   */
  children(parentId: string, options: { childScope?: string } = {}): [id: string, instance: unknown][] {
    const { childScope } = options;
    if (childScope !== undefined && !this.#scopes.byName(childScope)) {
      throw new ValueError(`unknown scope "${childScope}"`);
    }
    return this.#record(parentId)
      .children.filter((childId) => childScope === undefined || this.#record(childId).scope.name === childScope)
      .map((childId): [string, unknown] => [childId, this.#record(childId).instance]);
  }

  /** Scope of a registered instance. @throws KeyError when not registered. */
  scopeOf(id: string): Scope {
    return this.#record(id).scope;
  }

  /** The config object of a registered instance. @throws KeyError when not registered. */
  instanceAt(id: string): unknown {
    return this.#record(id).instance;
  }

  /** Config path of a registered instance, as the user wrote it. @throws KeyError when not registered. */
  configPathOf(id: string): string {
    return this.#record(id).configPath;
  }

  /**
   * Outputs of class `Type` at `ancestorId` or below it, in store order.
   * @example store.outputsUnder("project.apps.0", RouteHandler)
   */
  outputsUnder<T>(ancestorId: string, Type: OutputType<T>): T[] {
    const found: T[] = [];
    for (const { items } of this.#entriesUnder(ancestorId)) for (const item of items) if (item instanceof Type) found.push(item);
    return found;
  }

  /** `outputsUnder` the nearest `scopeName` instance at or above `id`; empty when there is none. */
  outputsUnderAncestor<T>(id: string, scopeName: string, Type: OutputType<T>): T[] {
    const ancestorId = this.ancestorIdOf(id, scopeName);
    return ancestorId === undefined ? [] : this.outputsUnder(ancestorId, Type);
  }

  /**
   * The first output of class `Type` under the nearest `scopeName` instance at or above `id`.
   * @throws LookupError when there is no such ancestor or no such output.
   * @example const schemas = store.outputUnderAncestor(ctx.instanceId, "resource", SchemaModule);
   */
  outputUnderAncestor<T>(id: string, scopeName: string, Type: OutputType<T>): T {
    const ancestorId = this.ancestorIdOf(id, scopeName);
    if (ancestorId === undefined) throw new LookupError(`instance "${id}" has no "${scopeName}" ancestor`);
    for (const { items } of this.#entriesUnder(ancestorId)) for (const item of items) if (item instanceof Type) return item;
    throw new LookupError(`no ${Type.name} output under "${ancestorId}"`);
  }

  /** Entries at `ancestorId` or below it, in store order; under the only root, all of them. */
  #entriesUnder(ancestorId: string): readonly OutputEntry[] {
    const record = this.#instances.get(ancestorId);
    if (record !== undefined && record.parent === undefined && this.#rootCount === 1) return this.#outputs;
    const entries: OutputEntry[] = [];
    const pending = [ancestorId];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      const atId = this.#outputsById.get(id);
      if (atId) for (const entry of atId) entries.push(entry);
      const children = this.#instances.get(id)?.children;
      if (children) for (const child of children) pending.push(child);
    }
    entries.sort((a, b) => a.order - b.order);
    return entries;
  }

  #record(id: string): InstanceRecord {
    const record = this.#instances.get(id);
    if (!record) throw new KeyError(`instance "${id}" is not registered`);
    return record;
  }
}

/** `project.apps.0` for `project.apps.0.resources.2`; undefined for a root id. */
function parentIdOf(id: string): string | undefined {
  const parts = id.split(".");
  return parts.length < 3 ? undefined : parts.slice(0, -2).join(".");
}
