// Remembers which keys of a parsed config object were filled by a default rather than
// written by the user, so a cross-check can point at what the user actually wrote (a
// clash of derived resource names is reported at `model`, the key the name came from).
//
// Kept on the object itself, under a symbol and not enumerable (spreads, JSON and key listings
// leave it out), so it goes wherever the object goes.

const DEFAULTED = Symbol("defaulted keys");

/** Records that `keys` of `value` hold defaults; returns `value`. */
export function recordDefaulted<T extends object>(value: T, keys: readonly string[]): T {
  // A copy: callers pass shared constants.
  if (keys.length > 0) Object.defineProperty(value, DEFAULTED, { value: [...keys], configurable: true, writable: true, enumerable: false });
  else if (Object.hasOwn(value, DEFAULTED)) delete (value as { [DEFAULTED]?: unknown })[DEFAULTED];
  return value;
}

/** Records that `key` of `value` holds a default too, beside the keys already recorded; returns `value`. */
export function recordAlsoDefaulted<T extends object>(value: T, key: string): T {
  const known = (value as { [DEFAULTED]?: readonly string[] })[DEFAULTED] ?? [];
  return recordDefaulted(value, [...known, key]);
}

/** Whether `key` of a parsed object holds a default (false for anything not recorded). */
export function wasDefaulted(value: object, key: string): boolean {
  return ((value as { [DEFAULTED]?: readonly string[] })[DEFAULTED] ?? []).includes(key);
}
