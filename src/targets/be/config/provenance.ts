// Remembers which keys of a parsed config object were filled by a default rather than
// written by the user, so a cross-check can point at what the user actually wrote (a
// clash of derived resource names is reported at `model`, the key the name came from).

// Lists of a few keys; an object with none defaulted is not recorded (weak entries cost the GC).
const defaultedKeys = new WeakMap<object, readonly string[]>();

/** Records that `keys` of `value` hold defaults; returns `value`. */
export function recordDefaulted<T extends object>(value: T, keys: readonly string[]): T {
  if (keys.length > 0) defaultedKeys.set(value, keys);
  else defaultedKeys.delete(value);
  return value;
}

/** Whether `key` of a parsed object holds a default (false for anything not recorded). */
export function wasDefaulted(value: object, key: string): boolean {
  return defaultedKeys.get(value)?.includes(key) ?? false;
}
