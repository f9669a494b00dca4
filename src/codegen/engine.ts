// The engine: walks every scope instance of a config depth first and runs the registered
// operations there. A validation phase parses every operation's options and runs every
// `validate` before any operation builds; all problems are reported together as one
// ConfigError with the paths the user wrote.
import { configIssuesOf, formatConfigPath } from "./config-path.js";
import type { BuildContext } from "./context.js";
import { ConfigError, ValueError, type ConfigIssue } from "./errors.js";
import { EmptyOptions, type Operation, type OperationClass, type OperationMeta } from "./operation.js";
import { isRecord } from "./records.js";
import type { OperationRegistry } from "./registry.js";
import { ScopeTree, type Scope } from "./scopes.js";
import { sourcePath } from "./source-path.js";
import { type AppliedOperation, BuildStore } from "./store.js";

/** One scope instance found in the config. */
interface Instance {
  id: string;
  scope: Scope;
  value: any;
  configPath: string;
  children: Instance[];
  /** The operations that apply here, filled by the validation phase. */
  runs: AppliedOperation[];
  /** The frozen context the operations that run here share, made on first use. */
  ctx?: BuildContext;
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
    const store = new BuildStore(this.#scopes);
    const root = this.#collect(this.#scopes.root, config, this.#scopes.root.name, pathOf(config, ""));
    const optionIssues: ConfigIssue[] = [];
    const prepare = (instance: Instance, parent: string | undefined): void => {
      instance.runs = this.#plan(instance, optionIssues);
      store.registerInstance(instance.id, instance.value, { parent, scope: instance.scope, configPath: instance.configPath, operations: instance.runs });
      for (const child of instance.children) prepare(child, instance.id);
    };
    prepare(root, undefined);

    // One operation object per class for the whole build, so ops may keep per-build state.
    const ops = new Map<OperationClass, Operation<unknown>>();
    const opOf = (cls: OperationClass): Operation<unknown> => {
      let op = ops.get(cls);
      if (!op) ops.set(cls, (op = new cls()));
      return op;
    };
    const contextAt = (instance: Instance): BuildContext =>
      (instance.ctx ??= Object.freeze({
        config,
        scope: instance.scope,
        instance: instance.value,
        instanceId: instance.id,
        configPath: instance.configPath,
        store,
        packagePrefix: this.#packagePrefix,
        operations: this.#operations,
      }));

    const validationIssues: ConfigIssue[] = [];
    const validate = (instance: Instance): void => {
      for (const { cls, options } of instance.runs) {
        const op = opOf(cls);
        if (!op.validate) continue;
        const ctx = contextAt(instance);
        if (op.when && !op.when(ctx)) continue;
        for (const issue of op.validate(ctx, options)) {
          validationIssues.push({ path: formatConfigPath(issue.path ?? [], instance.configPath), message: issue.message });
        }
      }
      for (const child of instance.children) validate(child);
    };
    validate(root);
    const issues = [...optionIssues, ...validationIssues];
    if (issues.length > 0) throw new ConfigError("invalid configuration", { issues });

    const run = (instance: Instance, { meta, cls, options }: AppliedOperation): void => {
      const op = opOf(cls);
      const ctx = contextAt(instance);
      if (op.when && !op.when(ctx)) return;
      const outputs: unknown = op.build(ctx, options);
      if (!Array.isArray(outputs)) {
        throw new TypeError(`operation "${meta.name}" build() must return an array, got ${describe(outputs)}`);
      }
      store.add(instance.id, meta.name, ...outputs);
    };
    const visit = (instance: Instance): void => {
      for (const planned of instance.runs) if (!planned.meta.afterChildren) run(instance, planned);
      for (const child of instance.children) visit(child);
      for (const planned of instance.runs) if (planned.meta.afterChildren) run(instance, planned);
    };
    visit(root);
    return store;
  }

  /** The instance tree below `value`, with ids and user-facing config paths. */
  #collect(scope: Scope, value: unknown, id: string, configPath: string): Instance {
    const children: Instance[] = [];
    for (const childScope of this.#scopes.childrenOf(scope)) {
      let list: any = value;
      let listPath = configPath;
      for (const key of childScope.resolvePath) {
        list = list?.[key];
        listPath = pathOf(list, formatConfigPath([key], listPath));
      }
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) {
        throw new TypeError(`expected a list of "${childScope.name}" at "${listPath}", got ${describe(list)}`);
      }
      list.forEach((item, index) => {
        children.push(this.#collect(childScope, item, `${id}.${childScope.configKey}.${index}`, pathOf(item, formatConfigPath([index], listPath))));
      });
    }
    return { id, scope, value, configPath, children, runs: [] };
  }

  /** The operations that apply at `instance` with their parsed options; problems go to `issues`. */
  #plan(instance: Instance, issues: ConfigIssue[]): AppliedOperation[] {
    const group = this.#groups.get(instance.scope.name) ?? [];
    const runs: AppliedOperation[] = [];
    for (const [meta, cls] of group) {
      if (meta.dispatchOn !== undefined && instance.value?.[meta.dispatchOn] !== meta.name) continue;
      // An op without `Options` reads nothing of its instance: an object is `{}`, as EmptyOptions parses it, without zod's cost.
      if (cls.Options === undefined && isRecord(instance.value)) {
        runs.push({ meta, cls, options: NO_OPTIONS });
        continue;
      }
      const parsed = (cls.Options ?? EmptyOptions).safeParse(instance.value);
      if (parsed.success) runs.push({ meta, cls, options: parsed.data });
      else issues.push(...configIssuesOf(parsed.error, instance.configPath));
    }
    return runs;
  }
}

/** The options of every op without `Options`: one frozen object, not one per instance (54,000 at 1,000 resources, all held until the files are written). */
const NO_OPTIONS: Readonly<Record<string, never>> = Object.freeze({});

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
