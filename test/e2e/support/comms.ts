/**
 * A real SMTP server on 127.0.0.1 for the comms end-to-end tests, recording what it is given
 * (smtp_sink.py, aiosmtpd).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../support/ports.js";
import { type RunningProcess, startProcess, until } from "../../support/processes.js";
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
