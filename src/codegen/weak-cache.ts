// Values computed once per (owner, key), for work asked many times within one build: the
// owner (a build's store, a template environment, a parsed config) is held weakly, so its
// entries go when it does and a later build never sees an earlier one's answers.
//
// In a watch's tracked build (read-tracking.ts) the config lives on between runs, so an
// owner can outlive a run: answers are kept for one run only, and a computation's reads are
// noted in a frame of its own that every user of the answer includes, so whoever reuses an
// answer depends on what it read. A cache made `acrossRuns` keeps an answer for later runs
// too, while nothing its frame read or asked has changed (judged by the watch's memory).

import { Frame, currentFrame, inFrame, reusable, trackedRun } from "./read-tracking.js";

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
  readonly #acrossRuns: boolean;

  /**
   * @param options.acrossRuns in a watch, reuse an answer of an earlier run whose reads and
   * store queries are unchanged: for per-item work of a render that lists every resource,
   * owned by the item (an output the store replays as the same object). @default false
   */
  constructor(options: { acrossRuns?: boolean } = {}) {
    this.#acrossRuns = options.acrossRuns ?? false;
  }

  /** The value for `key` under `owner`, from `compute` the first time it is asked (in this tracked run). */
  get(owner: Owner, key: Key, compute: () => Value): Value {
    let values = this.#byOwner.get(owner);
    if (values === undefined) this.#byOwner.set(owner, (values = new Map()));
    const asking = currentFrame();
    const known = values.get(key);
    if (known !== undefined && (known.frame !== undefined || asking === undefined)) {
      if (known.run !== trackedRun() && this.#acrossRuns && known.frame !== undefined && reusable(known.frame)) known.run = trackedRun();
      if (known.run === trackedRun()) {
        if (known.frame) asking?.includes.add(known.frame);
        return known.value;
      }
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
