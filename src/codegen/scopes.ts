// Scopes: the tree of config levels (project, app, resource, …) operations run at.
// Only list fields marked with `scoped()` define scopes; the tree is discovered from the
// target's zod schema once, project first, and scope names are unique within it.
import { z } from "zod";
import { ValueError } from "./errors.js";

/** One level of the config tree that operations can target. */
export class Scope {
  /** Scope name operations refer to, e.g. `"resource"`. */
  readonly name: string;
  /** Config key of the list holding this scope's instances; used in instance ids. `""` for the project. */
  readonly configKey: string;
  /** Enclosing scope; undefined only for the root. */
  readonly parent: Scope | undefined;
  /**
   * Keys to follow from a parent instance to the list of this scope's instances.
   * @default [configKey] (empty for the root, which has no config key)
   * @example ["config", "resources"] // App -> AppConfig -> resources
   */
  readonly resolvePath: readonly string[];

  constructor(options: { name: string; configKey: string; parent?: Scope; resolvePath?: readonly string[] }) {
    this.name = options.name;
    this.configKey = options.configKey;
    this.parent = options.parent;
    this.resolvePath = Object.freeze([...(options.resolvePath ?? (options.configKey ? [options.configKey] : []))]);
  }
}

/** The root scope: the whole config. Always present, first in every `ScopeTree`. */
export const PROJECT = new Scope({ name: "project", configKey: "" });

/** Metadata `scoped()` attaches to a list schema. */
interface ScopeMarker {
  codegenScope: string;
}

// A zod registry (not a WeakMap) so clones made by `.describe()`, `.meta()` or `.min()`
// inherit the marker; kept on globalThis so a target built against another copy of the
// engine is still understood.
const markerKey = Symbol.for("codegen.scopeMarkers");
const globals = globalThis as { [markerKey]?: z.core.$ZodRegistry<ScopeMarker> };
const markers = (globals[markerKey] ??= z.registry<ScopeMarker>());

/**
 * Marks a list-of-objects field of a config schema as a scope, so operations can run once
 * per item. Returns the same schema; wrapping it later in `.optional()` or `.default([])`
 * keeps the mark.
 * @example
 * const AppConfig = z.object({ resources: scoped("resource", z.array(ResourceConfig)).default([]) });
 */
export function scoped<T extends z.ZodArray>(name: string, schema: T): T {
  markers.add(schema, { codegenScope: name });
  return schema;
}

/** Scope name `scoped()` gave this exact schema (or the schema it was cloned from), if any. */
function scopeMarkOf(schema: z.core.$ZodType): string | undefined {
  return markers.get(schema)?.codegenScope;
}

/** The scopes of one target, root first, each parent before its children. */
export class ScopeTree implements Iterable<Scope> {
  readonly #scopes: readonly Scope[];

  /**
   * @param scopes root first; every other scope's parent must come before it.
   * @default [PROJECT]
   */
  constructor(scopes: readonly Scope[] = [PROJECT]) {
    if (scopes.length === 0) throw new ValueError("a scope tree needs a root scope");
    const seen = new Set<Scope>();
    scopes.forEach((scope, index) => {
      if ([...seen].some((earlier) => earlier.name === scope.name)) {
        throw new ValueError(`scope "${scope.name}" is declared twice`);
      }
      if (index === 0 ? scope.parent !== undefined : !scope.parent || !seen.has(scope.parent)) {
        throw new ValueError(`scope "${scope.name}" must come after its parent, with the root first`);
      }
      seen.add(scope);
    });
    this.#scopes = Object.freeze([...scopes]);
  }

  /** The root scope (normally `PROJECT`). */
  get root(): Scope {
    return this.#scopes[0];
  }

  /** The scopes, root first, each parent before its children. */
  [Symbol.iterator](): Iterator<Scope> {
    return this.#scopes[Symbol.iterator]();
  }

  /** Direct children of `parent`, in discovery order. */
  childrenOf(parent: Scope): Scope[] {
    return this.#scopes.filter((scope) => scope.parent === parent);
  }

  /** The scope called `name`, or undefined. */
  byName(name: string): Scope | undefined {
    return this.#scopes.find((scope) => scope.name === name);
  }

  /**
   * The scope of an instance id such as `project.apps.0.resources.2`.
   * @throws ValueError when the id does not start with the root's name, names an unknown config key, or lacks an index after a key.
   */
  scopeFor(instanceId: string): Scope {
    const [head, ...rest] = instanceId.split(".");
    if (head !== this.root.name) throw new ValueError(`instance id "${instanceId}" must start with "${this.root.name}"`);
    let scope = this.root;
    for (let i = 0; i < rest.length; i += 2) {
      const key = rest[i];
      const child = this.childrenOf(scope).find((candidate) => candidate.configKey === key);
      if (!child) throw new ValueError(`instance id "${instanceId}": scope "${scope.name}" has no child scope under key "${key}"`);
      if (!/^\d+$/.test(rest[i + 1] ?? "")) throw new ValueError(`instance id "${instanceId}": expected an index after "${key}"`);
      scope = child;
    }
    return scope;
  }
}

/**
 * Discovers the scope tree of a config schema: `PROJECT`, then one scope per `scoped()`
 * list field, depth first in field order. Non-list object fields and wrappers (optional,
 * nullable, default, pipe, lazy, …) are looked through, extending the child's
 * `resolvePath`; union and intersection members are each searched. Unmarked lists are not
 * searched (no single path leads through them). Each scoped item type is descended once.
 * @throws ValueError when one scope name is declared at two different places, or two
 *   sibling scopes share a config key (their instance ids would collide).
 * @example
 * discoverScopes(ProjectConfig) // project, app (["apps"]), resource (["config", "resources"])
 */
export function discoverScopes(schema: z.core.$ZodType): ScopeTree {
  const scopes: Scope[] = [PROJECT];
  const descended = new Set<z.core.$ZodType>();

  const walk = (node: z.core.$ZodType, parent: Scope, path: readonly string[], onPath: Set<z.core.$ZodType>): void => {
    // Recursive schemas (getters, z.lazy) would otherwise loop forever.
    if (onPath.has(node)) return;
    onPath.add(node);
    const mark = scopeMarkOf(node);
    const def = (node as z.core.$ZodTypes)._zod.def;
    if (mark !== undefined) {
      addScope(mark, node, parent, path);
    } else {
      switch (def.type) {
        case "object":
          for (const [key, field] of Object.entries(def.shape)) walk(field, parent, [...path, key], onPath);
          break;
        case "pipe":
          // The engine sees the pipe's output; a trailing transform hides its shape, so
          // fall back to the input's.
          walk((def.out as z.core.$ZodTypes)._zod.def.type === "transform" ? def.in : def.out, parent, path, onPath);
          break;
        case "union":
          for (const option of def.options) walk(option, parent, path, onPath);
          break;
        case "intersection":
          walk(def.left, parent, path, onPath);
          walk(def.right, parent, path, onPath);
          break;
        default: {
          const inner = unwrapped(node);
          if (inner) walk(inner, parent, path, onPath);
        }
      }
    }
    onPath.delete(node);
  };

  const addScope = (name: string, node: z.core.$ZodType, parent: Scope, path: readonly string[]): void => {
    const configKey = path[path.length - 1];
    if (configKey === undefined) throw new ValueError(`scope "${name}" cannot mark the root schema`);
    const item = listItemOf(node);
    const existing = scopes.find((scope) => scope.name === name);
    if (existing) {
      if (existing.parent !== parent || existing.resolvePath.join(".") !== path.join(".")) {
        throw new ValueError(
          `scope "${name}" is declared twice: under "${existing.parent?.name}" at "${existing.resolvePath.join(".")}" ` +
            `and under "${parent.name}" at "${path.join(".")}"`,
        );
      }
    } else {
      const sibling = scopes.find((scope) => scope.parent === parent && scope.configKey === configKey);
      if (sibling) {
        throw new ValueError(`scopes "${sibling.name}" and "${name}" under "${parent.name}" share the config key "${configKey}"`);
      }
      scopes.push(new Scope({ name, configKey, parent, resolvePath: path }));
    }
    if (item && !descended.has(item)) {
      descended.add(item);
      walk(item, scopes.find((scope) => scope.name === name)!, [], new Set());
    }
  };

  walk(schema, PROJECT, [], new Set());
  return new ScopeTree(scopes);
}

/** The item schema of a (possibly wrapped) list schema. */
function listItemOf(node: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = (node as z.core.$ZodTypes)._zod.def;
  if (def.type === "array") return def.element;
  if (def.type === "pipe") return listItemOf(def.in);
  const inner = unwrapped(node);
  return inner && listItemOf(inner);
}

/** The schema inside a wrapper that changes presence, not shape (`.optional()`, `.default()`, `z.lazy`, ...). */
function unwrapped(node: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = (node as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
    case "readonly":
      return def.innerType;
    case "lazy":
      return def.getter();
    default:
      return undefined;
  }
}
