import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { mapLimit } from "../../src/codegen/concurrency.js";

describe("mapLimit", () => {
  test("keeps input order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapLimit([30, 5, 20, 1, 10, 2], 3, async (delay, index) => {
      running += 1;
      peak = Math.max(peak, running);
      await sleep(delay);
      running -= 1;
      return index * 10;
    });
    assert.deepEqual(results, [0, 10, 20, 30, 40, 50]);
    assert.equal(peak, 3);
  });

  test("throws the earliest item's error, after the calls in flight settle, and starts no new call", async () => {
    const started: number[] = [];
    let settled = 0;
    const failing = mapLimit([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      // Item 1 fails first in time; item 0 fails later but comes first in the input.
      await sleep(item === 0 ? 20 : 1);
      settled += 1;
      if (item <= 1) throw new Error(`item ${item}`);
      return item;
    });
    await assert.rejects(failing, /item 0/);
    assert.deepEqual(started, [0, 1]);
    assert.equal(settled, 2);
  });

  test("an empty list maps to an empty list", async () => {
    assert.deepEqual(await mapLimit([], 4, async () => 1), []);
  });
});
