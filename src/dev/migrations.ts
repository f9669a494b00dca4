// Keeps the database in step with the code while `codegen dev` runs: after a change of the
// application's package (the user's models, or the API a regeneration just wrote), the
// project's Alembic compares the database with them, and a difference becomes a named
// revision in migrations/versions/, applied at once, before the backend starts again.

import { type StepContext, describeMigration, migrateDatabase } from "./db-steps.js";

/**
 * Writes and applies the migration the code needs, if any. Returns the lines that say what
 * it did; a failure is said too, and leaves the database as it was (`failed`).
 */
export async function migrateInStep(step: StepContext, allowDataLoss: boolean): Promise<{ lines: string[]; failed: boolean }> {
  try {
    const started = performance.now();
    const report = await migrateDatabase(step, allowDataLoss);
    const lines = describeMigration(report, { retry: "codegen db migrate --allow-data-loss (beside this codegen dev), or restart codegen dev with --allow-data-loss", write: "codegen db migrate" });
    if (report.revision !== null) lines[0] = lines[0]!.replace(/:$/, ` in ${((performance.now() - started) / 1000).toFixed(1)} s:`);
    return { lines, failed: false };
  } catch (error) {
    return { lines: [`${error instanceof Error ? error.message : String(error)}\nthe database was left as it was; fix the models and save again`], failed: true };
  }
}
