// The real `ruff format` (the pinned version in the test venv) over many sources at once:
// one file each in a temporary directory, one ruff process, so that hundreds of cases cost
// well under a second. `--isolated` keeps any repository configuration out.

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { ensureVenv } from "./venv.js";

const run = promisify(execFile);

/** How long one ruff run may take: well under a second for hundreds of files, far more on a busy machine; past it ruff is stuck. */
const RUFF_TIMEOUT_MS = 5 * 60_000;

async function ruff(): Promise<string> {
  return join((await ensureVenv()).bin, "ruff");
}

/** Runs `ruff` with `args` over `sources` written as files; returns the files afterwards and ruff's output. */
async function overFiles(sources: readonly string[], args: string[]): Promise<{ files: string[]; stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-pyfmt-"));
  try {
    const names = sources.map((_, index) => join(dir, `case_${index}.py`));
    await Promise.all(sources.map((source, index) => writeFile(names[index], source)));
    const result = await run(await ruff(), [...args, "--isolated", "--no-cache", dir], { maxBuffer: 64 * 1024 * 1024, timeout: RUFF_TIMEOUT_MS }).catch(
      (error: { stdout?: string; stderr?: string; code?: number; killed?: boolean }) => {
        if (error.killed) throw new Error(`ruff killed after its timeout of ${RUFF_TIMEOUT_MS} ms; its output so far:\n${error.stderr ?? ""}${error.stdout ?? ""}`);
        if (typeof error.code !== "number") throw error;
        return { stdout: error.stdout ?? "", stderr: error.stderr ?? "" };
      },
    );
    const files = await Promise.all(names.map((name) => readFile(name, "utf8")));
    return { files, stdout: result.stdout, stderr: result.stderr.replaceAll(`${dir}/`, "") };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `ruff format` of each source; throws if ruff cannot parse one of them. */
export async function ruffFormat(sources: readonly string[], lineLength = 88): Promise<string[]> {
  const { files, stderr } = await overFiles(sources, ["format", "--line-length", String(lineLength)]);
  const failed = [...stderr.matchAll(/case_(\d+)\.py/g)].map((match) => Number(match[1]));
  if (failed.length > 0) throw new Error(`ruff could not format:\n${sources[failed[0]]}\n${stderr}`);
  return files;
}

/** Diagnostics of `ruff check --select <rules>` over the sources, one line each (empty when clean). */
export async function ruffCheck(sources: readonly string[], rules: string): Promise<string> {
  const { stdout } = await overFiles(sources, ["check", "--select", rules, "--output-format", "concise"]);
  return stdout
    .split("\n")
    .filter((line) => /case_\d+\.py:\d+/.test(line))
    .join("\n");
}
