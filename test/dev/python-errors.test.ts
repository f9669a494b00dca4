// The one line `codegen dev` says for a Python program that failed, read from real Python
// output: the exception and the project file it came from, a syntax error's file and line,
// and uvicorn's own error when there is no traceback.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { whyItStopped } from "../../src/dev/python-errors.js";

const root = await mkdtemp(join(tmpdir(), "codegen-dev-python-errors-"));
after(() => rm(root, { recursive: true, force: true }));

/** The error output of `python3 -c "import shop.main"` in `root`. */
function importError(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile("python3", ["-c", "import shop.main"], { cwd: root, timeout: 30_000 }, (error, _stdout, stderr) => {
      if (!error) reject(new Error("the import succeeded"));
      else resolve(stderr.split("\n"));
    });
  });
}

test("an exception: its class without the module, its message, and the innermost frame in the project", async () => {
  await mkdir(join(root, "shop"), { recursive: true });
  await writeFile(join(root, "shop", "__init__.py"), "");
  await writeFile(join(root, "shop", "main.py"), "import shop.actions\n");
  await writeFile(join(root, "shop", "actions.py"), "import json\n\n\nclass NotReady(Exception):\n    pass\n\n\nraise NotReady('the database lacks table tags')\n");
  assert.equal(whyItStopped(await importError(), root), "NotReady: the database lacks table tags (shop/actions.py, line 8)");
});

test("a syntax error: its message, file and line", async () => {
  await writeFile(join(root, "shop", "actions.py"), "x = (\n");
  assert.equal(whyItStopped(await importError(), root), "SyntaxError: '(' was never closed (shop/actions.py, line 1)");
});

test("no traceback: the last error uvicorn logged, without its level, and never its closing 'startup failed'", () => {
  const output = ["INFO:     Started server process [7]", "ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use", "ERROR:    Application startup failed. Exiting."];
  assert.equal(whyItStopped(output, root), "[Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use");
});
