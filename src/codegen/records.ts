// The one test of "an object with keys" that reading JSON (package.json manifests) and
// zod's non-strict `z.object` both mean.

/** A non-null object that is not an array: a JSON object, or any value a non-strict `z.object` accepts. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
