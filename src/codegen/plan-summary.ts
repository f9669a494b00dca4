// Counting a plan's actions and picking out its drift: what the CLI prints of a full run's
// plan or of the up-to-date check's, without loading the pipeline.

import type { PlanAction } from "./writer.js";

/** How many plan entries have each action. */
export function countActions(plan: readonly { action: PlanAction }[]): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, overwrite: 0, unchanged: 0, skip: 0, delete: 0 };
  for (const entry of plan) counts[entry.action]++;
  return counts;
}

/**
 * The entries that make the output directory differ from what this run generates: files to
 * create or overwrite and stale files to delete (an existing `skip` file is not drift).
 */
export function driftOf<E extends { action: PlanAction }>(plan: readonly E[]): E[] {
  return plan.filter((entry) => entry.action === "create" || entry.action === "overwrite" || entry.action === "delete");
}

