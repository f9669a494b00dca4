// The engine: walks every scope instance of a config depth first and runs the registered
// operations there. A validation phase parses every operation's options and runs every
// `validate` before any operation builds; all problems are reported together as one
// ConfigError with the paths the user wrote.
import { configIssuesOf, formatConfigPath } from "./config-path.js";
import type { BuildContext } from "./context.js";
import { ConfigError, ValueError, type ConfigIssue } from "./errors.js";
import { EmptyOptions, type Operation, type OperationClass, type OperationMeta } from "./operation.js";
import type { OperationRegistry } from "./registry.js";
import { isRecord } from "./records.js";
import { ScopeTree, type Scope } from "./scopes.js";
import { sourcePath } from "./source-path.js";
import type { BuildMemory, UnitMemory } from "./incremental.js";
import { Frame, inFrame } from "./read-tracking.js";
import { BuildStore } from "./store.js";

/** How a watch builds again: what it remembers, and the scope whose instances (with all below them) are its units. */
export interface IncrementalOptions {
  memory: BuildMemory;
  unitScope: string;
}

/** One scope instance found in the config. */
interface Instance {
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
interface BuildRun {
  store: BuildStore;
  root: Instance;
  /** The build's one object of an operation class. */
  opOf(cls: OperationClass): Operation<unknown>;
  /** Runs the `validate` of every operation planned at `instance`, pushing what it finds to `issues`. */
  validate(instance: Instance, issues: ConfigIssue[]): void;
  /** Runs one planned operation at `instance` and adds its outputs to the store; returns them, or undefined when its `when` said no. */
  build(instance: Instance, planned: PlannedRun): unknown[] | undefined;
}

/** An operation that applies at one instance, with its validated options. */
interface PlannedRun {
  meta: OperationMeta;
  /** The build's one object of the operation's class. */
  op: Operation<unknown>;
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
  build(config: unknown, incremental?: IncrementalOptions): BuildStore {
    const run = this.#start(config);
    if (incremental) return this.#buildIncrementally(run, incremental);
    const optionIssues: ConfigIssue[] = [];
    const plan = (instance: Instance): void => {
      instance.runs = this.#plan(instance, run.opOf, optionIssues);
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

  /** A build's store with every instance registered, and the helpers both kinds of build share. */
  #start(config: unknown): BuildRun {
    const store = new BuildStore(this.#scopes);
    const root = this.#collect(this.#scopes.root, config, this.#scopes.root.name, pathOf(config, ""));
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
    // One frozen context per instance, made when its first operation needs it and shared by the rest.
    const contextAt = (instance: Instance): BuildContext =>
      (instance.context ??= Object.freeze({
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
      opOf,
      validate(instance, issues) {
        for (const { op, options } of instance.runs) {
          if (!op.validate) continue;
          const ctx = contextAt(instance);
          if (op.when && !op.when(ctx)) continue;
          for (const issue of op.validate(ctx, options)) {
            issues.push({ path: formatConfigPath(issue.path ?? [], instance.configPath), message: issue.message });
          }
        }
      },
      build(instance, { meta, op, options }) {
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
   * `build`, redoing only the units whose inputs changed since the last good build in
   * `memory`. A unit is an instance of `unitScope` with everything below it, or the pre-phase
   * or post-phase runs of an instance outside such subtrees. A unit is reused when its
   * instances are the same, nothing it read of the config changed, and every store query it
   * made answers the same: its outputs (the same objects) go into the new store in the order
   * it added them. Issues come only from the units planned again: the others had none.
   */
  #buildIncrementally(run: BuildRun, { memory, unitScope }: IncrementalOptions): BuildStore {
    const { store } = run;
    // The units in build order. A unit plans its instances (an "after" unit plans none: its
    // instance's "before" unit did) and runs `steps` from its first one.
    interface Unit {
      key: string;
      at: Instance;
      planned: Instance[];
      steps: (build: BuildRun["build"]) => void;
      signature: string;
      /** The config objects of its instances: one that was replaced, not patched, holds reads no longer tracked. */
      values: unknown[];
      last: UnitMemory | undefined;
      /** The unit whose planning this one's runs come from: itself, or the "before" unit of its instance. */
      planner: Unit | undefined;
      plannedAgain: boolean;
      plan: Frame;
    }
    const units: Unit[] = [];
    const homeOf = (unit: Unit): string | undefined => (unit.at.scope.name === unitScope ? unit.at.id : undefined);
    const unitOf = (key: string, at: Instance, planned: Instance[], steps: Unit["steps"], planner?: Unit): Unit => {
      const signature = [at, ...planned].map((instance) => `${instance.id}\0${instance.configPath}`).join("\n");
      const values = [at, ...planned].map((instance) => instance.value);
      const last = memory.unit(key);
      const unit: Unit = { key, at, planned, steps, signature, values, last, planner, plannedAgain: false, plan: last?.planned ?? new Frame() };
      unit.planner ??= unit;
      units.push(unit);
      return unit;
    };
    const runsAt = (instance: Instance, afterChildren: boolean, build: BuildRun["build"]): void => {
      for (const planned of instance.runs) if (Boolean(planned.meta.afterChildren) === afterChildren) build(instance, planned);
    };
    const subtreeOf = (instance: Instance, into: Instance[]): Instance[] => {
      into.push(instance);
      for (const child of instance.children) subtreeOf(child, into);
      return into;
    };
    const visit = (instance: Instance, build: BuildRun["build"]): void => {
      runsAt(instance, false, build);
      for (const child of instance.children) visit(child, build);
      runsAt(instance, true, build);
    };
    const walk = (instance: Instance): void => {
      if (instance.scope.name === unitScope) {
        unitOf(instance.id, instance, subtreeOf(instance, []), (build) => visit(instance, build));
        return;
      }
      const before = unitOf(`${instance.id} before`, instance, [instance], (build) => runsAt(instance, false, build));
      for (const child of instance.children) walk(child);
      unitOf(`${instance.id} after`, instance, [], (build) => runsAt(instance, true, build), before);
    };
    walk(run.root);
    const sameInstances = (unit: Unit, last: UnitMemory): boolean =>
      last.signature === unit.signature && last.values.length === unit.values.length && last.values.every((value, index) => value === unit.values[index]);

    // Planning: a unit whose planning read something that changed is planned and validated
    // again. Issues are gathered as `build` gathers them: every option problem, then every
    // validation problem, each in config order.
    const optionIssues: ConfigIssue[] = [];
    const validationIssues: ConfigIssue[] = [];
    for (const unit of units) {
      if (unit.planned.length === 0) continue;
      const { last } = unit;
      if (last !== undefined && sameInstances(unit, last) && !memory.changed(last.planned) && memory.answersHold(last.planned, store)) {
        // This build's operation objects, not the last one's: an op may keep per-build state.
        for (const instance of unit.planned) {
          instance.runs = (last.runs.get(instance.id) as PlannedRun[]).map(({ meta, op, options }) => ({ meta, op: run.opOf(op.constructor as OperationClass), options }));
        }
        continue;
      }
      unit.plannedAgain = true;
      unit.plan = new Frame({ home: homeOf(unit) });
      inFrame(unit.plan, () => {
        for (const instance of unit.planned) instance.runs = this.#plan(instance, run.opOf, optionIssues);
        for (const instance of unit.planned) run.validate(instance, validationIssues);
      });
    }
    const issues = [...optionIssues, ...validationIssues];
    if (issues.length > 0) throw new ConfigError("invalid configuration", { issues });

    for (const unit of units) {
      const { last, planner } = unit;
      if (!planner!.plannedAgain && last && sameInstances(unit, last) && !memory.changed(last.built) && memory.answersHold(last.built, store)) {
        for (const [id, opName, items] of last.adds) store.add(id, opName, ...items);
        memory.keepUnit(unit.key, last);
        continue;
      }
      const built = new Frame({ home: homeOf(unit) });
      const adds: UnitMemory["adds"] = [];
      inFrame(built, () =>
        unit.steps((instance, planned) => {
          const outputs = run.build(instance, planned);
          if (outputs) adds.push([instance.id, planned.meta.name, outputs]);
          return outputs;
        }),
      );
      const runs = new Map(unit.planned.map((instance) => [instance.id, instance.runs as unknown]));
      memory.keepUnit(unit.key, { signature: unit.signature, values: unit.values, runs, planned: unit.plan, built, adds });
    }
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
        const itemPath = pathOf(item, formatConfigPath([index], listPath));
        children.push(this.#collect(childScope, item, `${id}.${childScope.configKey}.${index}`, itemPath));
      });
    }
    return { id, scope, value, configPath, children, runs: [] };
  }

  /** The operations that apply at `instance` with their parsed options; problems go to `issues`. */
  #plan(instance: Instance, opOf: (cls: OperationClass) => Operation<unknown>, issues: ConfigIssue[]): PlannedRun[] {
    const group = this.#groups.get(instance.scope.name) ?? [];
    const runs: PlannedRun[] = [];
    for (const [meta, cls] of group) {
      if (meta.dispatchOn !== undefined && instance.value?.[meta.dispatchOn] !== meta.name) continue;
      // An operation without `Options` reads nothing from its instance: any object passes as
      // `{}`, as `EmptyOptions` (a non-strict `z.object({})`) would parse it.
      if (cls.Options === undefined && isRecord(instance.value)) {
        runs.push({ meta, op: opOf(cls), options: {} });
        continue;
      }
      const parsed = (cls.Options ?? EmptyOptions).safeParse(instance.value);
      if (parsed.success) runs.push({ meta, op: opOf(cls), options: parsed.data });
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
