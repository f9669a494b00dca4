// The build of a watch: the engine's walk, split into units, redoing only those whose inputs
// changed since the last good build (incremental.ts keeps what each unit read and added).

import type { ConfigIssue } from "./errors.js";
import { ConfigError } from "./errors.js";
import type { BuildRun, Instance, PlannedRun } from "./engine.js";
import type { BuildMemory, InstanceKey, UnitMemory } from "./incremental.js";
import { Frame, inFrame } from "./read-tracking.js";
import { type BuildStore, sameItems } from "./store.js";

/** How a watch builds again: what it remembers, and the scope whose instances (with all below them) are its units. */
export interface IncrementalOptions {
  memory: BuildMemory;
  unitScope: string;
}

/**
 * `Engine.build` for a watch: redoes only the units whose inputs changed since the last good
 * build in `memory`. A unit is an instance of `unitScope` with everything below it, or the
 * pre-phase or post-phase runs of an instance outside such subtrees. A unit is reused when its
 * instances are the same, nothing it read of the config changed, and every store query it
 * made answers the same: its outputs (the same objects) go into the new store in the order
 * it added them. Issues come only from the units planned again: the others had none.
 */
export function buildIncrementally(run: BuildRun, { memory, unitScope }: IncrementalOptions): BuildStore {
  const { store } = run;
  // The units in build order. A unit plans its instances (an "after" unit plans none: its
  // instance's "before" unit did) and runs `steps` from its first one.
  interface Unit {
    key: string;
    at: Instance;
    planned: Instance[];
    steps: (build: BuildRun["build"]) => void;
    /** The config objects of its instance's ancestors. */
    above: unknown[];
    last: UnitMemory | undefined;
    /** Whether its instances are those of `last`: compared once, when first asked. */
    sameAsLast: boolean | undefined;
    /** The unit whose planning this one's runs come from: itself, or the "before" unit of its instance. */
    planner: Unit | undefined;
    plannedAgain: boolean;
    plan: Frame;
  }
  const units: Unit[] = [];
  const homeOf = (unit: Unit): string | undefined => (unit.at.scope.name === unitScope ? unit.at.id : undefined);
  const unitOf = (key: string, at: Instance, planned: Instance[], steps: Unit["steps"], above: unknown[], planner?: Unit): Unit => {
    const last = memory.unit(key);
    const unit: Unit = { key, at, planned, steps, above, last, sameAsLast: undefined, planner, plannedAgain: false, plan: last?.planned ?? new Frame() };
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
  // `above`: the config objects of the instance's ancestors, which `store.ancestorOf` hands out.
  const walk = (instance: Instance, above: unknown[]): void => {
    if (instance.scope.name === unitScope) {
      unitOf(instance.id, instance, subtreeOf(instance, []), (build) => visit(instance, build), above);
      return;
    }
    const before = unitOf(`${instance.id} before`, instance, [instance], (build) => runsAt(instance, false, build), above);
    for (const child of instance.children) walk(child, [...above, instance.value]);
    unitOf(`${instance.id} after`, instance, [], (build) => runsAt(instance, true, build), above, before);
  };
  walk(run.root, []);
  // Whether a unit stands where it stood last time: the same instances, by id, config path
  // and config object, under the same ancestors' objects. Compared once per run.
  const matches = (instance: Instance, [id, configPath, value]: InstanceKey): boolean => instance.id === id && instance.configPath === configPath && instance.value === value;
  const sameInstances = (unit: Unit, last: UnitMemory): boolean =>
    (unit.sameAsLast ??=
      sameItems(last.above, unit.above) &&
      last.instances.length === unit.planned.length + 1 &&
      matches(unit.at, last.instances[0]!) &&
      unit.planned.every((instance, index) => matches(instance, last.instances[index + 1]!)));
  const instancesOf = ({ at, planned }: Unit): InstanceKey[] => [at, ...planned].map(({ id, configPath, value }): InstanceKey => [id, configPath, value]);

  // Planning: a unit whose planning read something that changed is planned and validated
  // again. Issues are gathered as `build` gathers them: every option problem, then every
  // validation problem, each in config order.
  const optionIssues: ConfigIssue[] = [];
  const validationIssues: ConfigIssue[] = [];
  for (const unit of units) {
    if (unit.planned.length === 0) continue;
    const { last } = unit;
    if (last !== undefined && sameInstances(unit, last) && !memory.changed(last.planned) && memory.answersHold(last.planned, store)) {
      // The same plan: a planned run names its operation's class, each build runs its own object.
      unit.planned.forEach((instance, index) => (instance.runs = last.runs[index] as PlannedRun[]));
      continue;
    }
    unit.plannedAgain = true;
    unit.plan = new Frame({ home: homeOf(unit) });
    inFrame(unit.plan, () => {
      for (const instance of unit.planned) instance.runs = run.plan(instance, optionIssues);
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
        // An empty add changes nothing a store query or a render sees: not worth replaying.
        if (outputs !== undefined && outputs.length > 0) adds.push([instance.id, planned.meta.name, outputs]);
        return outputs;
      }),
    );
    const runs = unit.planned.map((instance) => instance.runs as unknown);
    memory.keepUnit(unit.key, { instances: instancesOf(unit), above: unit.above, runs, planned: unit.plan, built, adds });
  }
  return store;
}
