/**
 * pgqueuer in end-to-end tests: its tables (`pgq install`) and workers (`pgq run`).
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningProcess, startProcess } from "../../support/processes.js";
import { runCheck } from "../../support/python.js";
import type { Venv } from "../../support/venv.js";

const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "..");

/** Generous on a busy machine: `pgq install` creates a few tables and takes a second. */
const PGQ_INSTALL_TIMEOUT_MS = 60_000;

/** pgqueuer's tables in the database `env` names (`PGDSN`); fails with pgq's output. */
export async function installPgqueuer(venv: Venv, env: NodeJS.ProcessEnv): Promise<void> {
  const installed = await runCheck(join(venv.bin, "pgq"), ["install"], SUPPORT_DIR, { env, timeoutMs: PGQ_INSTALL_TIMEOUT_MS });
  if (!installed.ok) throw new Error(`pgq install failed:\n${installed.output}`);
}

/**
 * A pgqueuer worker, `pgq run <factory>`, in `cwd` with `env` (the database's URL and what its
 * deliveries read). A short heartbeat timeout and dequeue timeout: pgqueuer re-runs a dead
 * worker's job, and a retry scheduled for later is picked within a second of its time.
 */
export function startWorker(venv: Venv, factory: string, cwd: string, env: NodeJS.ProcessEnv): RunningProcess {
  const args = ["run", factory, "--heartbeat-timeout", "2", "--dequeue-timeout", "1", "--log-level", "warning"];
  return startProcess(join(venv.bin, "pgq"), args, { cwd, env });
}
