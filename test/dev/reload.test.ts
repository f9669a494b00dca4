// `codegen dev`'s runs (src/dev/reload.ts): the backend starts only on code the check saw.
// The check, the migration and the backend stand in as recorders; a save is what the
// reloader hears of one (`schedule()`, as a watched file's change calls it), made while a
// step of a run is under way.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ReloadOptions, type Reloader, reloadOnChange } from "../../src/dev/reload.js";

/** A reloader over recorders: `events` lists each check, prepared, discarded, started and halted server and line said, in order. */
function recorded(steps: { check?: (run: number) => string[]; started?: (run: number) => void; hangs?: boolean }) {
  const events: string[] = [];
  let held = false;
  let pending = false;
  let running = false;
  let prepared = false;
  let checks = 0;
  // Ends a start that hangs (a server that never answers) as stopping it does.
  let endStart = () => undefined as void;
  const options: ReloadOptions = {
    watchDirs: [],
    ignoreDir: "/nowhere",
    api: {
      settled: async () => undefined,
      pending: () => pending,
      async hold(fn) {
        assert.equal(held, false, "one run holds the API at a time");
        held = true;
        try {
          return await fn();
        } finally {
          held = false;
        }
      },
    },
    async check() {
      assert.ok(held, "the check runs holding the API");
      checks += 1;
      events.push(`check ${checks}`);
      return steps.check?.(checks) ?? [];
    },
    backend: {
      async restart() {
        assert.ok(held, "the backend starts holding the API");
        events.push(`start after check ${checks}`);
        prepared = false;
        running = true;
        steps.started?.(checks);
        return steps.hangs ? new Promise<boolean>((resolve) => (endStart = () => resolve(false))) : true;
      },
      prepare() {
        prepared = true;
        events.push(`prepare for check ${checks + 1}`);
      },
      // As the backend's: only a server prepared and not started is discarded.
      async discard() {
        if (prepared) events.push("discard");
        prepared = false;
      },
      running: () => running,
      async stop() {
        events.push("stop");
        running = false;
        endStart();
      },
      async halt() {
        events.push("halt");
        running = false;
      },
    },
    onServed: () => undefined,
    say: (line) => events.push(line),
  };
  const reloader: Reloader = reloadOnChange(options);
  return {
    events,
    reloader,
    setPending: (value: boolean) => (pending = value),
    /** Resolves once `events` holds `count` entries; fails with them after 10 s. */
    async until(count: number) {
      const deadline = Date.now() + 10_000;
      while (events.length < count) {
        assert.ok(Date.now() < deadline, `not ${count} events within 10 s: ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

describe("codegen dev's runs", () => {
  it("leave the start to the next run when a file is saved during the check, and start once on what that run checked", async () => {
    const run = recorded({ check: (n) => (n === 1 && void run.reloader.schedule(), []) });
    run.reloader.schedule();
    await run.until(6);
    await run.reloader.close();
    assert.deepEqual(run.events, ["prepare for check 1", "check 1", "discard", "prepare for check 2", "check 2", "start after check 2", "stop"]);
  });

  it("leave the start to the regeneration's run when the config changes during the check", async () => {
    const run = recorded({ check: (n) => (n === 1 && run.setPending(true), []) });
    run.reloader.schedule();
    await run.until(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(run.events, ["prepare for check 1", "check 1", "discard"], "no start on code a regeneration is replacing");
    // The regeneration wrote the API: it schedules a run.
    run.setPending(false);
    run.reloader.schedule();
    await run.until(6);
    await run.reloader.close();
    assert.deepEqual(run.events.slice(3), ["prepare for check 2", "check 2", "start after check 2", "stop"]);
  });

  it("end with close(), which stops a start in progress, or one checking before it starts", { timeout: 10_000 }, async () => {
    const run = recorded({ hangs: true });
    run.reloader.schedule();
    await run.until(3);
    await run.reloader.close();
    assert.deepEqual(run.events, ["prepare for check 1", "check 1", "start after check 1", "stop"]);

    // Closed during the check: the run ends without a start, its prepared server discarded.
    let closing: Promise<void> | undefined;
    const checking = recorded({ check: () => ((closing = checking.reloader.close()), []) });
    checking.reloader.schedule();
    await checking.until(4);
    await closing;
    assert.deepEqual(checking.events, ["prepare for check 1", "check 1", "stop", "discard"]);
  });

  it("keep the backend serving when the check refuses the next change, and stop one that started as a file was saved", async () => {
    const refused = ["config.jsonnet: resources[0].fields[5].name: shop.models.Note has no column or attribute rank"];
    const run = recorded({ check: (n) => (n === 1 ? [] : refused) });
    run.reloader.schedule();
    await run.until(3);
    run.reloader.schedule();
    await run.until(8);
    await run.reloader.close();
    assert.deepEqual(run.events.slice(3), ["prepare for check 2", "check 2", refused[0], "the backend was not started again; fix this and save again", "discard", "stop"]);

    // Saved as the backend started: it may have loaded what the next check refuses.
    const amid = recorded({ check: (n) => (n === 1 ? [] : refused), started: (n) => n === 1 && amid.reloader.schedule() });
    amid.reloader.schedule();
    await amid.until(9);
    await amid.reloader.close();
    assert.deepEqual(amid.events, [
      "prepare for check 1",
      "check 1",
      "start after check 1",
      "prepare for check 2",
      "check 2",
      refused[0],
      "halt",
      "the backend was stopped: it started as files were saved, and may serve this code; it starts once this is fixed and saved",
      "discard",
      "stop",
    ]);
  });
});
