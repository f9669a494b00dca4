// Remembers which keys of a parsed config object were filled by a default rather than
// written by the user, so a cross-check can point at what the user actually wrote (a
// clash of derived resource names is reported at `model`, the key the name came from).

const defaultedKeys = new WeakMap<object, ReadonlySet<string>>();

/** Records that `keys` of `value` hold defaults; returns `value`. */
export function recordDefaulted<T extends object>(value: T, keys: readonly string[]): T {
  defaultedKeys.set(value, new Set(keys));
  return value;
}

/** Whether `key` of a parsed object holds a default (false for anything not recorded). */
export function wasDefaulted(value: object, key: string): boolean {
  return defaultedKeys.get(value)?.has(key) ?? false;
}
