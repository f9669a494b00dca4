// Bounded concurrency for file-system work: thousands of awaited syscalls one after
// another leave the process idle, while unbounded parallelism exhausts file handles.
// Failures stay deterministic: the error reported is the one of the earliest item.

/**
 * Maps `items` through `fn`, at most `limit` calls at a time; results keep the input order.
 * After a failure no new call starts; the calls in flight settle, then the error of the
 * lowest-indexed failing item is thrown (items start in order, so that is the first one).
 * @example const sizes = await mapLimit(paths, 32, async (p) => (await stat(p)).size);
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  const failures = new Map<number, unknown>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (failures.size === 0 && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failures.set(index, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return results;
}
