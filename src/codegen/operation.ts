// Operations: classes that turn one scope instance into typed outputs. `@operation` records
// their metadata as an own static property under a global symbol, so every copy of the
// engine reads the same metadata and subclasses never inherit it by accident.
import { z } from "zod";
import type { BuildContext } from "./context.js";
import type { OperationRegistry } from "./registry.js";

/** Options schema of an operation that reads nothing from its instance. Non-strict: accepts any object. */
export const EmptyOptions = z.object({});

/** Registration data of one operation. */
export class OperationMeta {
  /** Operation name, unique within its scope; also the store key of its outputs. */
  readonly name: string;
  /** Name of the scope the operation runs at, e.g. `"resource"`. */
  readonly scope: string;
  /** Operations of the same scope that must run first. @default [] */
  readonly requires: readonly string[];
  /** Run after every child instance has been built (project scope only). @default false */
  readonly afterChildren: boolean;
  /** Instance attribute that must equal `name` for the op to run, for union-typed instances. */
  readonly dispatchOn: string | undefined;
  /**
   * What the operation is, for operations that attach to every operation of a kind rather
   * than to names (`"endpoint"`); the engine gives the word no meaning of its own.
   */
  readonly role: string | undefined;
  /**
   * Roles whose every operation of the same scope must run first, whoever registered them
   * (a package's too); a role no operation declares requires nothing. @default []
   */
  readonly requiresRoles: readonly string[];

  constructor(options: {
    name: string;
    scope: string;
    requires?: readonly string[];
    afterChildren?: boolean;
    dispatchOn?: string;
    role?: string;
    requiresRoles?: readonly string[];
  }) {
    if (typeof options.name !== "string" || typeof options.scope !== "string") {
      throw new TypeError(`operation metadata needs string "name" and "scope", got ${JSON.stringify(options)}`);
    }
    this.name = options.name;
    this.scope = options.scope;
    this.requires = Object.freeze([...(options.requires ?? [])]);
    this.afterChildren = options.afterChildren ?? false;
    this.dispatchOn = options.dispatchOn;
    this.role = options.role;
    this.requiresRoles = Object.freeze([...(options.requiresRoles ?? [])]);
  }
}

/**
 * A problem an operation's `validate` finds in its instance: `path` is relative to the
 * instance (`["pass_user"]`), the engine prefixes the path the user wrote the instance at.
 */
export interface ValidationIssue {
  /** @default [] (the instance itself) */
  path?: readonly PropertyKey[];
  message: string;
}

/**
 * An operation instance. `build` receives its scope instance parsed through the class's
 * static `Options` schema and returns output objects for the store.
 */
export interface Operation<O = unknown> {
  /** Outputs for the instance in `ctx`; must be an array (possibly empty). */
  build(ctx: BuildContext, options: O): unknown[];
  /** When present and false for `ctx`, the op is skipped at that instance. */
  when?(ctx: BuildContext): boolean;
  /**
   * Config problems only this operation can see (rules that span instances, or need the
   * other registered operations). Runs in the validation phase, before any `build`, for
   * every instance whose options parsed and whose `when` holds; the store then holds every
   * instance but no outputs. All problems of all operations are reported together.
   */
  validate?(ctx: BuildContext, options: O): Iterable<ValidationIssue>;
}

/**
 * An operation class: constructed with no arguments, optionally with a static `Options` zod
 * schema describing the scope instance it runs on (default `EmptyOptions`).
 */
export type OperationClass = (new () => Operation<any>) & { Options?: z.ZodType };

/** Symbol under which `@operation` stores an `OperationMeta` on the class. */
const metaKey = Symbol.for("codegen.operationMeta");

/**
 * Class decorator registering an operation.
 * @param name operation name, unique within its scope
 * @param options.registry push into this registry immediately (tests); the metadata is
 *   always stored on the class too, for `loadRegistry`.
 * @param options.role what the operation is (`"endpoint"`), for `requiresRoles` of others
 * @param options.requiresRoles run after every operation of the same scope with one of these roles
 * @example
 * \@operation("list", { scope: "resource", requires: ["get"] })
 * class ListOp implements Operation<z.infer<typeof ListOp.Options>> {
 *   static Options = z.object({ fields: z.array(Field) });
 *   build(ctx: BuildContext, options: { fields: Field[] }) { return [new RouteHandler(…)]; }
 * }
 */
export function operation(name: string, options: Omit<ConstructorParameters<typeof OperationMeta>[0], "name"> & { registry?: OperationRegistry }) {
  const { registry, ...fields } = options;
  const meta = new OperationMeta({ name, ...fields });
  return <C extends OperationClass>(cls: C, context: ClassDecoratorContext<C>): void => {
    if (context.kind !== "class") throw new TypeError(`@operation("${name}") decorates classes only`);
    Object.defineProperty(cls, metaKey, { value: meta, enumerable: false, configurable: true });
    registry?.register(meta, cls);
  };
}

/**
 * The metadata `@operation` stored on `cls` itself (an undecorated subclass has none).
 * Metadata written by another copy of the engine, or by hand as a plain object under
 * `Symbol.for("codegen.operationMeta")`, is read into an `OperationMeta`.
 */
export function getOperationMeta(cls: unknown): OperationMeta | undefined {
  if (typeof cls !== "function" || !Object.hasOwn(cls, metaKey)) return undefined;
  const stored = (cls as unknown as Record<symbol, unknown>)[metaKey];
  if (stored instanceof OperationMeta) return stored;
  if (typeof stored !== "object" || stored === null) {
    throw new TypeError(`class ${cls.name} has malformed operation metadata: ${String(stored)}`);
  }
  return new OperationMeta(stored as ConstructorParameters<typeof OperationMeta>[0]);
}
