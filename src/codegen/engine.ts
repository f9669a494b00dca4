// The engine: walks every scope instance of a config depth first and runs the registered
// operations there. A validation phase parses every operation's options and runs every
// `validate` before any operation builds; all problems are reported together as one
// ConfigError with the paths the user wrote. A watch builds through incremental-build.ts
// instead, which redoes only the units whose inputs changed.
import { configIssuesOf, formatConfigPath } from "./config-path.js";
import type { BuildContext } from "./context.js";
import { ConfigError, ValueError, type ConfigIssue } from "./errors.js";
import { EmptyOptions, type Operation, type OperationClass, type OperationMeta } from "./operation.js";
import type { OperationRegistry } from "./registry.js";
import { isRecord } from "./records.js";
import { ScopeTree, type Scope } from "./scopes.js";
import { sourcePath } from "./source-path.js";
import { tracked, untracked } from "./read-tracking.js";
import { BuildStore } from "./store.js";

/** One scope instance found in the config. */
export interface Instance {
  id: string;
  scope: Scope;
  value: any;
  configPath: string;
  children: Instance[];
  /** The operations that apply here, filled by the validation phase. */
  runs: PlannedRun[];
  /** The context its operations share, made on first use (`contextAt`). */
  context?: BuildContext;
}

/** What both kinds of build share: the store with its instances, and how to validate and run an operation at one. */
export interface BuildRun {
  store: BuildStore;
  root: Instance;
  /** The operations that apply at `instance` with their parsed options; problems go to `issues`. */
  plan(instance: Instance, issues: ConfigIssue[]): PlannedRun[];
  /** Runs the `validate` of every operation planned at `instance`, pushing what it finds to `issues`. */
  validate(instance: Instance, issues: ConfigIssue[]): void;
  /** Runs one planned operation at `instance` and adds its outputs to the store; returns them, or undefined when its `when` said no. */
  build(instance: Instance, planned: PlannedRun): unknown[] | undefined;
}

/**
 * Instance subtrees a watch kept from its last good build (incremental.ts), for `prepare` to
 * use again: collecting 20,000 instances of 1,000 resources anew costs a rerun more than
 * checking that 1,000 kept subtrees still stand. @internal
 */
export interface KeptSubtrees {
  /** The scope whose instances, with everything below them, are kept. */
  readonly scope: string;
  /** The subtree collected last time at `id` for the config object `value`, if it still stands. */
  reuse(value: object, id: string, configPath: string): Instance | undefined;
  /** A subtree collected afresh, with the config objects whose keys shaped it. */
  keep(value: object, root: Instance, shapedBy: readonly object[]): void;
}

/** An operation that applies at one instance, with its validated options. */
export interface PlannedRun {
  meta: OperationMeta;
  /** The operation's class: each build runs one object of it (ops may keep per-build state), so a plan can serve the next build. */
  cls: OperationClass;
  options: unknown;
}

/** Runs a target's operations over a config. */
export class Engine {
  readonly #scopes: ScopeTree;
  readonly #packagePrefix: string;
  readonly #groups: Map<string, [OperationMeta, OperationClass][]>;
  readonly #operations: readonly OperationMeta[];

  /**
   * @param options.packagePrefix import prefix of the generated package. @default ""
   * @param options.scopes the target's scope tree (`discoverScopes(target.schema)`). @default project only
   * @throws ValueError when an operation targets an unknown scope, sets `afterChildren`
   *   outside the root scope, or its `requires` are unknown or cyclic.
   * @example new Engine(await loadRegistry("be.operations"), { scopes: discoverScopes(ProjectConfig) })
   */
  constructor(registry: OperationRegistry, options: { packagePrefix?: string; scopes?: ScopeTree } = {}) {
    this.#scopes = options.scopes ?? new ScopeTree();
    this.#packagePrefix = options.packagePrefix ?? "";
    registry.validateScopes([...this.#scopes].map((scope) => scope.name));
    for (const [meta] of registry.entries) {
      if (meta.afterChildren && meta.scope !== this.#scopes.root.name) {
        throw new ValueError(
          `operation "${meta.name}" sets afterChildren in scope "${meta.scope}"; ` +
            `only "${this.#scopes.root.name}"-scope operations may run after their children`,
        );
      }
    }
    this.#groups = registry.sortedByScope();
    this.#operations = Object.freeze(registry.entries.map(([meta]) => meta));
  }

  /**
   * Validates every operation's options against the instances it applies to and runs every
   * operation's `validate`, then runs the operations depth first: at each instance,
   * pre-phase ops in `requires` order, then the child instances in config order, then
   * post-phase (`afterChildren`) ops. A dispatched op whose attribute names another op is
   * skipped silently (SPEC); targets reject unknown names in their own validation.
   * @throws ConfigError listing every invalid option and validation problem, before any op builds.
   * @throws TypeError when an operation's `build` returns something other than an array.
   */
  build(config: unknown): BuildStore {
    const run = this.prepare(config);
    const optionIssues: ConfigIssue[] = [];
    const plan = (instance: Instance): void => {
      instance.runs = run.plan(instance, optionIssues);
      for (const child of instance.children) plan(child);
    };
    plan(run.root);
    const validationIssues: ConfigIssue[] = [];
    const validate = (instance: Instance): void => {
      run.validate(instance, validationIssues);
      for (const child of instance.children) validate(child);
    };
    validate(run.root);
    const issues = [...optionIssues, ...validationIssues];
    if (issues.length > 0) throw new ConfigError("invalid configuration", { issues });
    const visit = (instance: Instance): void => {
      for (const planned of instance.runs) if (!planned.meta.afterChildren) run.build(instance, planned);
      for (const child of instance.children) visit(child);
      for (const planned of instance.runs) if (planned.meta.afterChildren) run.build(instance, planned);
    };
    visit(run.root);
    return run.store;
  }

  /**
   * A build's store with every instance registered, and what a build does at one instance:
   * `build` walks it all; a watch's build (incremental-build.ts) walks it unit by unit.
   * @internal
   */
  prepare(config: unknown, kept?: KeptSubtrees): BuildRun {
    const store = new BuildStore(this.#scopes);
    // A watch's config is wrapped to note reads (read-tracking.ts): the tree is found in the
    // objects behind it, faster and unnoted, and each instance is handed out wrapped.
    const raw = untracked(config);
    const root = this.#collect(this.#scopes.root, raw, this.#scopes.root.name, pathOf(raw, ""), raw === config ? undefined : tracked, kept);
    const register = (instance: Instance, parent: string | undefined): void => {
      store.registerInstance(instance.id, instance.value, { parent, scope: instance.scope, configPath: instance.configPath });
      for (const child of instance.children) register(child, instance.id);
    };
    register(root, undefined);

    // One operation object per class for the whole build, so ops may keep per-build state.
    const ops = new Map<OperationClass, Operation<unknown>>();
    const opOf = (cls: OperationClass): Operation<unknown> => {
      let op = ops.get(cls);
      if (!op) ops.set(cls, (op = new cls()));
      return op;
    };
    // One frozen context per instance and build, made when its first operation needs it and
    // shared by the rest (a kept instance still holds the one of the build that made it).
    const contextAt = (instance: Instance): BuildContext =>
      (instance.context = instance.context?.store === store ? instance.context : Object.freeze({
        config,
        scope: instance.scope,
        instance: instance.value,
        instanceId: instance.id,
        configPath: instance.configPath,
        store,
        packagePrefix: this.#packagePrefix,
        operations: this.#operations,
      }));
    return {
      store,
      root,
      plan: (instance, issues) => this.#plan(instance, issues),
      validate(instance, issues) {
        for (const { cls, options } of instance.runs) {
          const op = opOf(cls);
          if (!op.validate) continue;
          const ctx = contextAt(instance);
          if (op.when && !op.when(ctx)) continue;
          for (const issue of op.validate(ctx, options)) {
            issues.push({ path: formatConfigPath(issue.path ?? [], instance.configPath), message: issue.message });
          }
        }
      },
      build(instance, { meta, cls, options }) {
        const op = opOf(cls);
        const ctx = contextAt(instance);
        if (op.when && !op.when(ctx)) return undefined;
        const outputs: unknown = op.build(ctx, options);
        if (!Array.isArray(outputs)) {
          throw new TypeError(`operation "${meta.name}" build() must return an array, got ${describe(outputs)}`);
        }
        store.add(instance.id, meta.name, ...outputs);
        return outputs;
      },
    };
  }

  /**
   * The instance tree below `value`, with ids and user-facing config paths. `kept` subtrees
   * stand in for those collected last time; `shapedBy` receives every object whose keys
   * shaped the tree (the values, the objects on the way to each list, the lists).
   */
  #collect(scope: Scope, value: unknown, id: string, configPath: string, wrap: (<T>(value: T) => T) | undefined, kept?: KeptSubtrees, shapedBy?: object[]): Instance {
    const children: Instance[] = [];
    if (shapedBy && typeof value === "object" && value !== null) shapedBy.push(value);
    for (const childScope of this.#scopes.childrenOf(scope)) {
      let list: any = value;
      let listPath = configPath;
      for (const key of childScope.resolvePath) {
        list = list?.[key];
        listPath = pathOf(list, formatConfigPath([key], listPath));
        if (shapedBy && typeof list === "object" && list !== null) shapedBy.push(list);
      }
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) {
        throw new TypeError(`expected a list of "${childScope.name}" at "${listPath}", got ${describe(list)}`);
      }
      const keeping = kept !== undefined && childScope.name === kept.scope;
      list.forEach((item, index) => {
        const itemId = `${id}.${childScope.configKey}.${index}`;
        const itemPath = pathOf(item, formatConfigPath([index], listPath));
        if (!keeping || typeof item !== "object" || item === null) {
          children.push(this.#collect(childScope, item, itemId, itemPath, wrap, kept, shapedBy));
          return;
        }
        let subtree = kept.reuse(item, itemId, itemPath);
        if (subtree === undefined) {
          const shapes: object[] = [];
          subtree = this.#collect(childScope, item, itemId, itemPath, wrap, undefined, shapes);
          kept.keep(item, subtree, shapes);
        }
        children.push(subtree);
      });
    }
    return { id, scope, value: wrap ? wrap(value) : value, configPath, children, runs: [] };
  }

  /** The operations that apply at `instance` with their parsed options; problems go to `issues`. */
  #plan(instance: Instance, issues: ConfigIssue[]): PlannedRun[] {
    const group = this.#groups.get(instance.scope.name) ?? [];
    const runs: PlannedRun[] = [];
    for (const [meta, cls] of group) {
      if (meta.dispatchOn !== undefined && instance.value?.[meta.dispatchOn] !== meta.name) continue;
      // An operation without `Options` reads nothing from its instance: any object passes as
      // `{}`, as `EmptyOptions` (a non-strict `z.object({})`) would parse it.
      if (cls.Options === undefined && isRecord(instance.value)) {
        runs.push({ meta, cls, options: {} });
        continue;
      }
      const parsed = (cls.Options ?? EmptyOptions).safeParse(instance.value);
      if (parsed.success) runs.push({ meta, cls, options: parsed.data });
      else issues.push(...configIssuesOf(parsed.error, instance.configPath));
    }
    return runs;
  }
}

/** `fallback`, unless `value` carries its own `sourcePath` (it was normalised from elsewhere). */
function pathOf(value: unknown, fallback: string): string {
  if (typeof value === "object" && value !== null && Object.hasOwn(value, sourcePath)) {
    const written = (value as { [sourcePath]?: unknown })[sourcePath];
    if (typeof written === "string") return written;
  }
  return fallback;
}

/** A short rendering of a value for messages: strings quoted, objects by kind. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
}
