// Values computed once per (owner, key), for work asked many times within one build: the
// owner (a build's store, a template environment, a parsed config) is held weakly, so its
// entries go when it does and a later build never sees an earlier one's answers.

/**
 * @example
 * const levels = new WeakCache<BuildStore, string, Level[]>();
 * levels.get(store, instanceId, () => computeLevels(store, instanceId));
 */
export class WeakCache<Owner extends object, Key, Value> {
  readonly #byOwner = new WeakMap<Owner, Map<Key, Value>>();

  /** The value for `key` under `owner`, from `compute` the first time it is asked. */
  get(owner: Owner, key: Key, compute: () => Value): Value {
    let values = this.#byOwner.get(owner);
    if (values === undefined) this.#byOwner.set(owner, (values = new Map()));
    const known = values.get(key);
    if (known !== undefined || values.has(key)) return known as Value;
    const value = compute();
    values.set(key, value);
    return value;
  }
}
