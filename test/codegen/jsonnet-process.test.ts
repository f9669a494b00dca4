// The jsonnet child process (jsonnet-process.ts): an evaluation answers through it, and a child
// that dies during an evaluation is reported as such, not awaited forever; the next
// evaluation gets a child of its own.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { evaluateInChild } from "../../src/codegen/jsonnet-process.js";
import { makeTempDir, removeTempDirs } from "../helpers/user-project.js";

let dir: string;
before(async () => {
  dir = await makeTempDir("codegen-jsonnet-child-");
});
after(removeTempDirs);

/** The pids of this process's children running the jsonnet child script. */
function jsonnetChildren(): number[] {
  const lines = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" }).split("\n");
  return lines.filter((line) => line.includes("jsonnet-child.mjs")).map((line) => Number.parseInt(line.trim(), 10));
}

describe("evaluateInChild", () => {
  it("answers with the JSON, or with the evaluator's report", async () => {
    const good = path.join(dir, "good.jsonnet");
    await writeFile(good, "{ a: 1 + 1 }\n");
    const answer = await evaluateInChild(good, []);
    assert.equal(answer.kind, "ok");
    assert.deepEqual(JSON.parse(answer.kind === "ok" ? answer.text : ""), { a: 2 });
    const bad = path.join(dir, "bad.jsonnet");
    await writeFile(bad, "{ a: b }\n");
    const failed = await evaluateInChild(bad, []);
    assert.equal(failed.kind, "error");
    assert.match(failed.kind === "error" ? failed.message : "", /unknown identifier `b`/);
  });

  it("reports a child killed during an evaluation as crashed, and starts another for the next one", async () => {
    // About 2.5 s of evaluation: the child is killed long before it answers.
    const slow = path.join(dir, "slow.jsonnet");
    await writeFile(slow, "std.foldl(function(sum, i) sum + i, std.range(0, 2000000), 0)\n");
    const pending = evaluateInChild(slow, []);
    const [pid] = jsonnetChildren();
    assert.ok(pid !== undefined, "a child was started");
    process.kill(pid, "SIGKILL");
    const answer = await pending;
    assert.equal(answer.kind, "crashed");
    assert.equal(answer.kind === "crashed" ? answer.signal : undefined, "SIGKILL");

    const quick = path.join(dir, "quick.jsonnet");
    await writeFile(quick, "[1, 2]\n");
    const next = await evaluateInChild(quick, []);
    assert.deepEqual(JSON.parse(next.kind === "ok" ? next.text : "null"), [1, 2]);
  });
});
