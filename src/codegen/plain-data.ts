// Plain data snapshots, for the render memo: `snapshotPlain` copies a template context when it
// holds only plain data (so what a template sees is fully determined by it), and
// `matchesSnapshot` says whether a context is that data again, without building anything.

/** A copy of plain data: primitives as they are, arrays as new arrays, objects as their keys and values in order. */
export type Snapshot = string | number | boolean | null | Snapshot[] | ObjectSnapshot;

/** A plain object's own keys in property order (what a template's loop sees) and their values. */
class ObjectSnapshot {
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly Snapshot[],
  ) {}
}

/**
 * A snapshot of `value` when it is plain data: only plain objects (enumerable data properties
 * only, no symbol keys), arrays without holes, strings, booleans, null and finite numbers other
 * than -0. Otherwise undefined. The copy shares only strings with `value`, so it cannot change.
 *
 * @example snapshotPlain({ a: [1] }); // a snapshot; snapshotPlain(new Date()) === undefined
 */
export function snapshotPlain(value: unknown): Snapshot | undefined {
  return snapshotOf(value, 0);
}

/**
 * True exactly when `snapshotPlain(value)` would equal `snapshot`: the same plainness checks,
 * each primitive compared with `===`, keys in the same order.
 */
export function matchesSnapshot(value: unknown, snapshot: Snapshot): boolean {
  return matches(value, snapshot, 0);
}

// Deeper than this is no template context; a cycle would also end here.
const MAX_DEPTH = 64;

function snapshotOf(value: unknown, depth: number): Snapshot | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return isPlainNumber(value) ? value : undefined;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    if (!isPlainArray(value)) return undefined;
    const items: Snapshot[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = snapshotOf(value[index], depth + 1);
      if (item === undefined) return undefined;
      items[index] = item;
    }
    return items;
  }
  const keys = plainObjectKeys(value);
  if (keys === undefined) return undefined;
  const record = value as Record<string, unknown>;
  const values: Snapshot[] = new Array(keys.length);
  for (let index = 0; index < keys.length; index++) {
    const item = snapshotOf(record[keys[index]!], depth + 1);
    if (item === undefined) return undefined;
    values[index] = item;
  }
  return new ObjectSnapshot(keys, values);
}

function matches(value: unknown, snapshot: Snapshot, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value === snapshot;
    case "number":
      // A snapshot holds no NaN or -0, so `===` is exact here.
      return value === snapshot && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return snapshot === null;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(snapshot) || snapshot.length !== value.length || !isPlainArray(value)) return false;
    for (let index = 0; index < value.length; index++) {
      if (!matches(value[index], snapshot[index]!, depth + 1)) return false;
    }
    return true;
  }
  if (!(snapshot instanceof ObjectSnapshot)) return false;
  const keys = plainObjectKeys(value);
  if (keys === undefined || keys.length !== snapshot.keys.length) return false;
  const record = value as Record<string, unknown>;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== snapshot.keys[index] || !matches(record[key], snapshot.values[index]!, depth + 1)) return false;
  }
  return true;
}

function isPlainNumber(value: number): boolean {
  return Number.isFinite(value) && !Object.is(value, -0);
}

/** An array of the built-in kind. A hole needs no check: it reads as undefined, which is no plain data. */
function isPlainArray(value: unknown[]): boolean {
  return Object.getPrototypeOf(value) === Array.prototype;
}

/** The keys of a plain object in property order, or undefined when it is not one (class instance, accessor, hidden or symbol key). */
function plainObjectKeys(value: object): string[] | undefined {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  if (Object.getOwnPropertySymbols(value).length > 0) return undefined;
  const keys = Object.getOwnPropertyNames(value);
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!descriptor.enumerable || !("value" in descriptor)) return undefined;
  }
  return keys;
}
