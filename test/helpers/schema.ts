// Assertions on config schemas: a parse's normalised output, or the exact issues (config
// path and message, as the CLI prints them) of a rejected config.
import assert from "node:assert/strict";
import type { z } from "zod";
import { configIssuesOf } from "../../src/codegen/index.js";

export interface Issue {
  path: string;
  message: string;
}

/** The output of a parse that must succeed. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) assert.fail(`unexpected issues: ${JSON.stringify(configIssuesOf(result.error))}`);
  return result.data;
}

/** Asserts that parsing fails with exactly these issues, in order. */
export function assertIssues(schema: z.ZodType, input: unknown, expected: Issue[]): void {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, `expected ${JSON.stringify(input)} to be rejected`);
  assert.deepEqual(configIssuesOf(result.error!), expected);
}
