/**
 * The comms end-to-end machinery: a real SMTP server on 127.0.0.1 that records what it is
 * given (smtp_sink.py, aiosmtpd), pgqueuer's tables (`pgq install`) and workers (`pgq run`),
 * and waiting on either with a timeout that fails with the processes' output.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { freePort } from "../../support/ports.js";
import { type RunningProcess, startProcess } from "../../support/processes.js";
import { runCheck } from "../../support/python.js";
import type { Venv } from "../../support/venv.js";

export const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "..");

/** A message as the sink received it. */
export interface Mail {
  from: string;
  to: string[];
  subject: string;
  message_id: string;
  content_type: string;
  body: string;
}

export interface SmtpSink {
  port: number;
  process: RunningProcess;
  /** Every message accepted so far, in order. */
  mails(): Promise<Mail[]>;
  stop(): Promise<void>;
}

/**
 * Start smtp_sink.py on a free port; resolves once it listens. `hold`: the first DATA of each
 * message to an address at `hold.domain` is held for `hold.seconds` (a slow mail server).
 */
export async function startSmtpSink(venv: Venv, hold?: { domain: string; seconds: number }): Promise<SmtpSink> {
  const [port, dir] = await Promise.all([freePort(), mkdtemp(join(tmpdir(), "codegen-smtp-"))]);
  const out = join(dir, "mails.jsonl");
  const holding = hold === undefined ? [] : ["--hold-domain", hold.domain, "--hold", String(hold.seconds)];
  const sink = startProcess(venv.python, [join(SUPPORT_DIR, "smtp_sink.py"), "--port", String(port), "--out", out, ...holding], {
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  const stop = async () => {
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const mails = async (): Promise<Mail[]> => {
    if (!existsSync(out)) return [];
    return (await readFile(out, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Mail);
  };
  try {
    await until("the SMTP sink to listen", () => sink.output().includes("listening"), [sink]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, process: sink, mails, stop };
}

/**
 * Wait until `condition` holds, polling every 50 ms, while `processes` run; once one of them
 * has exited, or past `timeoutMs`, fail with the output of them all.
 */
export async function until(what: string, condition: () => Promise<boolean> | boolean, processes: RunningProcess[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    const exited = processes.some((p) => p.exited());
    if (exited || Date.now() > deadline) {
      const why = exited ? "a process exited while waiting" : `timed out after ${timeoutMs} ms waiting`;
      throw new Error(`${why} for ${what}:\n${processes.map((p) => p.output()).join("\n---\n")}`);
    }
    await sleep(50);
  }
}

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
