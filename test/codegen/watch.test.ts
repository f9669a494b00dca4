// Watch mode through the toy target: a change to a file the jsonnet config imports
// regenerates, writing only the files that changed; a broken config is reported and leaves the
// output as it was; the watch goes on and picks up the fix, and the creation of a file an import
// looked for in vain.
import assert from "node:assert/strict";
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { ConfigError } from "../../src/codegen/errors.js";
import { countActions, type GenerateResult } from "../../src/codegen/generate.js";
import type { Target } from "../../src/codegen/target.js";
import { watchGeneration, type Watcher } from "../../src/codegen/watch.js";
import { treeHashes } from "../helpers/trees.js";
import { installToyTarget } from "../helpers/toy-target.js";
import { removeTempDirs } from "../helpers/user-project.js";

let work: string;
let toy: Target;

before(async () => {
  ({ project: work, toy } = await installToyTarget());
});

/** Twelve pages, `page00` … `page11`. */
function pages(): { pages: { name: string; words?: number }[] } {
  return { pages: Array.from({ length: 12 }, (_, index) => ({ name: `page${String(index).padStart(2, "0")}` })) };
}

after(removeTempDirs);

/** How long a run may take to report: the toy target's take milliseconds, many times more on a busy machine. */
const REPORT_TIMEOUT_MS = 30_000;

/** Resolves with the next report of the watcher (a finished run or an error); rejects when none comes within {@link REPORT_TIMEOUT_MS}. */
function nextReport(reports: Array<(report: Report) => void>): Promise<Report> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the watch reported no run or error within ${REPORT_TIMEOUT_MS} ms`)), REPORT_TIMEOUT_MS);
    reports.push((report) => (clearTimeout(timer), resolve(report)));
  });
}

type Report = { result: GenerateResult; ms: number } | { error: unknown };

describe("watchGeneration", () => {
  it("regenerates on a change to an imported file, writing only what changed, and survives a broken config", async () => {
    const dir = path.join(work, "project");
    await mkdir(dir);
    const data = path.join(dir, "data.libsonnet");
    const config = path.join(dir, "project.jsonnet");
    await writeFile(data, JSON.stringify(pages()));
    await writeFile(config, "local data = import 'data.libsonnet';\ndata\n");
    const out = path.join(work, "out");
    const waiting: Array<(report: Report) => void> = [];
    const report = (value: Report) => waiting.shift()?.(value);
    const first = nextReport(waiting);
    const watcher: Watcher = await watchGeneration(
      { target: toy, configFile: config, outDir: out, cwd: work },
      { onRun: (result, run) => report({ result, ms: run.ms }), onError: (error) => report({ error }) },
    );
    try {
      const initial = await first;
      assert.ok("result" in initial && countActions(initial.result.plan).create === 14);
      assert.ok(watcher.inputs.includes(data), "the imported file is an input");
      assert.ok(watcher.watched.includes(dir), "its directory is watched");
      const before = await treeHashes(out);
      const mtimeOf = async (file: string) => (await stat(path.join(out, file))).mtimeMs;
      const untouched = "pages/page05.txt";
      const untouchedMtime = await mtimeOf(untouched);

      // One page changes: only its file is written.
      const changed = pages();
      changed.pages[3]!.words = 7;
      const second = nextReport(waiting);
      await writeFile(data, JSON.stringify(changed));
      const rerun = await second;
      assert.ok("result" in rerun, `expected a run, got ${"error" in rerun ? String(rerun.error) : ""}`);
      const counts = countActions(rerun.result.plan);
      assert.deepEqual(rerun.result.plan.filter((entry) => entry.action === "overwrite").map((entry) => entry.path), ["pages/page03.txt"]);
      assert.equal(counts.create, 0);
      assert.equal(await mtimeOf(untouched), untouchedMtime, "an unaffected file is not rewritten");

      // A broken config: reported, output untouched, still watching.
      const afterChange = await treeHashes(out);
      const third = nextReport(waiting);
      await writeFile(data, "{ apps: [ }");
      const broken = await third;
      assert.ok("error" in broken && broken.error instanceof ConfigError);
      assert.deepEqual(await treeHashes(out), afterChange);

      const fourth = nextReport(waiting);
      await writeFile(data, JSON.stringify(pages()));
      const fixed = await fourth;
      assert.ok("result" in fixed);
      assert.deepEqual(await treeHashes(out), before);

      // An import of a file not there yet fails; creating the file where it was looked for first is a change.
      const extra = path.join(dir, "extra.libsonnet");
      const fifth = nextReport(waiting);
      await writeFile(config, "local data = import 'data.libsonnet';\ndata + import 'extra.libsonnet'\n");
      const missing = await fifth;
      assert.ok("error" in missing && missing.error instanceof ConfigError);
      const sixth = nextReport(waiting);
      await writeFile(extra, "{}\n");
      const found = await sixth;
      assert.ok("result" in found, `expected a run, got ${"error" in found ? String(found.error) : ""}`);
      assert.ok(watcher.inputs.includes(extra), "the created file is an input");
      assert.deepEqual(await treeHashes(out), before);

      // A change seen is pending from its first event, while its files settle: idle() waits for its run.
      assert.equal(watcher.pending(), false);
      const edited = pages();
      edited.pages[4]!.words = 3;
      await writeFile(data, JSON.stringify(edited));
      const deadline = Date.now() + 10_000;
      while (!watcher.pending()) {
        assert.ok(Date.now() < deadline, "the change was not seen within 10 s");
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await watcher.idle();
      assert.equal(watcher.pending(), false);
      assert.notEqual((await treeHashes(out)).get("pages/page04.txt"), before.get("pages/page04.txt"), "idle() resolved after the run that wrote the change");
    } finally {
      watcher.close();
      await watcher.idle();
    }
  });
});
