// The interpreters `codegen dev` starts ahead (src/dev/interpreters.ts, warm_python.py): a
// script runs in one as `python script args` would, on the code as it is when the script is
// handed over, whatever the interpreter imported ahead; each is recorded in the lock while
// it lives. Plain python3 and a project of two small modules: no library to wait for.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, it } from "node:test";
import { warmInterpreters } from "../../src/dev/interpreters.js";
import type { DevLock } from "../../src/dev/lock.js";
import type { ProcessGroup } from "../../src/dev/processes.js";

const project = await mkdtemp(join(tmpdir(), "codegen-dev-interpreters-"));
after(() => rm(project, { recursive: true, force: true }));

/** Records what the interpreters tell the lock. */
function recordingLock(): { lock: DevLock; recorded: Set<number> } {
  const recorded = new Set<number>();
  const lock = {
    record: async ({ pid }: { pid: number }) => void recorded.add(pid),
    forget: async (pid: number) => void recorded.delete(pid),
  } as unknown as DevLock;
  return { lock, recorded };
}

/** Its status and output, or a failure with them once `timeoutMs` passed. */
async function finished(run: ProcessGroup, timeoutMs = 20_000): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  run.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  run.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const status = await Promise.race([run.exited, sleep(timeoutMs, "timeout" as const)]);
  if (status === "timeout") {
    await run.stop();
    assert.fail(`still running after ${timeoutMs} ms:\n${stdout}${stderr}`);
  }
  return { status, stdout, stderr };
}

it("runs a script as python would, on the project's code as saved, though a module of it was imported ahead", async () => {
  // `ahead` is a module of the project, listed among the modules to import ahead: it says when it was.
  await writeFile(join(project, "ahead.py"), `open("imported-ahead", "w").close()\nVALUE = "stale"\n`);
  await writeFile(join(project, "script.py"), `import sys\nimport ahead\nprint(ahead.VALUE, sys.argv[1:], sys.stdin.read())\nsys.exit(3)\n`);
  const { lock, recorded } = recordingLock();
  const interpreters = warmInterpreters({ python: "python3", cwd: project, env: { ...process.env, PYTHONPATH: project, PYTHONDONTWRITEBYTECODE: "1" }, stdout: "pipe", modules: ["json", "ahead"], kept: 1, lock });
  try {
    interpreters.warmUp();
    for (const deadline = Date.now() + 20_000; !existsSync(join(project, "imported-ahead")); await sleep(20)) {
      if (Date.now() > deadline) assert.fail("the interpreter did not import ahead within 20 s");
    }
    assert.equal(recorded.size, 1, "the interpreter started ahead is recorded in the lock");
    await writeFile(join(project, "ahead.py"), `VALUE = "saved"\n`);

    const run = interpreters.start(join(project, "script.py"), ["--flag", "value"]);
    run.child.stdin!.end("the rest of stdin");
    const { status, stdout, stderr } = await finished(run);
    assert.equal(status, 3, stderr);
    assert.equal(stdout, "saved ['--flag', 'value'] the rest of stdin\n");
    for (const deadline = Date.now() + 5000; recorded.size > 0 && Date.now() < deadline; ) await sleep(20);
    assert.equal(recorded.size, 0, "an interpreter that ended is forgotten");
  } finally {
    await interpreters.close();
  }
});

it("ends as python would: an exception's traceback and status 1, sys.exit's message; with none started ahead, one starts", async () => {
  await writeFile(join(project, "raises.py"), `raise RuntimeError("half written")\n`);
  await writeFile(join(project, "exits.py"), `import sys\nsys.exit("no database")\n`);
  const interpreters = warmInterpreters({ python: "python3", cwd: project, env: process.env, stdout: "pipe", modules: [], kept: 1, lock: recordingLock().lock });
  try {
    const raised = interpreters.start(join(project, "raises.py"), []);
    raised.child.stdin!.end();
    const exited = interpreters.start(join(project, "exits.py"), []);
    exited.child.stdin!.end();
    const [raising, exiting] = await Promise.all([finished(raised), finished(exited)]);
    assert.equal(raising.status, 1);
    assert.match(raising.stderr, /Traceback[^]*raises\.py", line 1[^]*\nRuntimeError: half written\n$/);
    assert.deepEqual([exiting.status, exiting.stderr], [1, "no database\n"]);
  } finally {
    await interpreters.close();
  }
});
