// Finding repeated keys in a config list (field names, database keys, route prefixes).
// Callers turn each repeat into an issue at the later entry, naming the earlier one.

/** A later entry of a list whose key was already used by an earlier entry. */
export interface Duplicate<T> {
  /** The later entry and its index: the one the issue points at. */
  item: T;
  index: number;
  /** Index of the first entry with the same key. */
  first: number;
  key: string;
}

/**
 * Every entry whose key repeats an earlier entry's key, in list order. Entries for which
 * `keyOf` returns undefined take no part.
 * @example findDuplicates(["a", "b", "a"], (x) => x) // [{ item: "a", index: 2, first: 0, key: "a" }]
 */
export function findDuplicates<T>(items: readonly T[], keyOf: (item: T) => string | undefined): Duplicate<T>[] {
  const firstIndex = new Map<string, number>();
  const duplicates: Duplicate<T>[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else duplicates.push({ item, index, first, key });
  });
  return duplicates;
}
