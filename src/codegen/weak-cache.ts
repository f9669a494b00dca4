// Values computed once per (owner, key), for work asked many times within one build: the
// owner (a build's store, a template environment, a parsed config) is held weakly, so its
// entries go when it does and a later build never sees an earlier one's answers.
//
// In a watch's tracked build (read-tracking.ts) the config lives on between runs, so an
// owner can outlive a run: answers are kept for one run only, and a computation's reads are
// noted in a frame of its own that every user of the answer includes, so whoever reuses an
// answer depends on what it read.

import { Frame, currentFrame, inFrame, trackedRun } from "./read-tracking.js";

interface Entry<Value> {
  value: Value;
  /** What computing it read, when it was computed inside a tracked frame. */
  frame: Frame | undefined;
  run: number;
}

/**
 * @example
 * const levels = new WeakCache<BuildStore, string, Level[]>();
 * levels.get(store, instanceId, () => computeLevels(store, instanceId));
 */
export class WeakCache<Owner extends object, Key, Value> {
  readonly #byOwner = new WeakMap<Owner, Map<Key, Entry<Value>>>();

  /** The value for `key` under `owner`, from `compute` the first time it is asked (in this tracked run). */
  get(owner: Owner, key: Key, compute: () => Value): Value {
    let values = this.#byOwner.get(owner);
    if (values === undefined) this.#byOwner.set(owner, (values = new Map()));
    const asking = currentFrame();
    const known = values.get(key);
    if (known !== undefined && known.run === trackedRun() && (known.frame !== undefined || asking === undefined)) {
      if (known.frame) asking?.includes.add(known.frame);
      return known.value;
    }
    if (asking === undefined) {
      const value = compute();
      values.set(key, { value, frame: undefined, run: trackedRun() });
      return value;
    }
    // No home: the answer may serve another unit, for which every query it made matters.
    const frame = new Frame({ added: asking.added });
    const value = inFrame(frame, compute);
    values.set(key, { value, frame, run: trackedRun() });
    asking.includes.add(frame);
    return value;
  }
}
