// The `codegen` command as a user runs it: this repository's built CLI (dist/, rebuilt first
// when older than src/), in a child process, from any working directory. Its own package
// manifest supplies the built-in targets (be, be_root, fe, fe_root), wherever it runs.
// Built, not from the TypeScript sources through tsx: a run then costs a third of the CPU.
import { spawn } from "node:child_process";
import { CLI, ensureBuilt } from "../../bench/dist.js";
import { tsxLoader } from "./user-project.js";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How long one run may take: the tests' largest take seconds, several times that on a busy machine; past it the run is stuck. */
const RUN_TIMEOUT_MS = 10 * 60_000;

let built: Promise<void> | undefined;

/** The built CLI's path, dist/ rebuilt first when older than src/ (once per test process). */
export async function builtCli(): Promise<string> {
  await (built ??= ensureBuilt());
  return CLI;
}

/** Runs `codegen <args>` in `cwd` and resolves once it exits; `cli` may name a copy of the CLI's TypeScript sources, run from them. */
export async function runCodegen(cwd: string, args: string[], cli?: string): Promise<CliRun> {
  if (cli !== undefined) return runNode(cwd, ["--conditions=codegen-source", "--import", tsxLoader, cli, ...args]);
  return runNode(cwd, [await builtCli(), ...args]);
}

/**
 * Runs `node <argv>` in `cwd` (a CLI: colour off, no inherited NODE_OPTIONS) and resolves once it exits.
 * Rejects with its output when it still runs after {@link RUN_TIMEOUT_MS} (and kills it).
 */
export function runNode(cwd: string, argv: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd,
      env: { ...process.env, NODE_OPTIONS: "", FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node ${argv.join(" ")} still ran after ${RUN_TIMEOUT_MS} ms; its output so far:\n${stderr}${stdout}`));
    }, RUN_TIMEOUT_MS);
    child.on("error", (error) => (clearTimeout(timer), reject(error)));
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

/** Runs `codegen generate` and fails with its output unless it exits 0. */
export async function generateWithCli(cwd: string, target: string, config: string, out: string, ...extra: string[]): Promise<CliRun> {
  const run = await runCodegen(cwd, ["generate", "-t", target, "-c", config, "-o", out, ...extra]);
  if (run.code !== 0) throw new Error(`codegen generate -t ${target} exited ${run.code}:\n${run.stderr}${run.stdout}`);
  return run;
}
