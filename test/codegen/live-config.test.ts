// The live config of a watch (live-config.ts) and the tracking of what work reads of it
// (read-tracking.ts, incremental.ts): a patch keeps identities and says exactly what changed,
// reads are noted per frame, and a frame is dirty exactly when something it read changed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { BuildMemory } from "../../src/codegen/incremental.js";
import { patchInPlace } from "../../src/codegen/live-config.js";
import { ANY_KEY, Frame, inFrame, tracked } from "../../src/codegen/read-tracking.js";
import { WeakCache } from "../../src/codegen/weak-cache.js";

type Json = any;

describe("patchInPlace", () => {
  it("keeps every object, changes values in place and lists exactly what changed", () => {
    const live: Json = { name: "a", fields: [{ name: "id" }, { name: "title" }], meta: { size: 1 } };
    const [fields, first, meta] = [live.fields, live.fields[0], live.meta];
    const changed = patchInPlace(live, { name: "a", fields: [{ name: "id" }, { name: "body" }, { name: "x" }], meta: { size: 1 } });
    assert.deepEqual(live, { name: "a", fields: [{ name: "id" }, { name: "body" }, { name: "x" }], meta: { size: 1 } });
    assert.ok(live.fields === fields && live.fields[0] === first && live.meta === meta, "objects keep their identity");
    const described = changed.map(([target, key]) => [target === fields ? "fields" : target === live.fields[1] ? "fields[1]" : "?", key]);
    assert.deepEqual(described, [
      ["fields[1]", "name"],
      ["fields", "2"],
      ["fields", "length"],
      ["fields", ANY_KEY],
    ]);
  });

  it("gives the live object the new key order, and carries non-enumerable properties", () => {
    const record = Symbol("record");
    const live: Json = { b: 1, a: 2 };
    const next: Json = { a: 2, b: 1, c: 3 };
    Object.defineProperty(next, record, { value: ["c"], enumerable: false, configurable: true, writable: true });
    patchInPlace(live, next);
    assert.deepEqual(Object.keys(live), ["a", "b", "c"]);
    assert.deepEqual(live[record], ["c"]);
    assert.equal(Object.getOwnPropertyDescriptor(live, record)!.enumerable, false);
  });

  it("moves reused objects into place and never merges into them, and says where each object landed", () => {
    const kept = { name: "kept" };
    const other = { name: "other" };
    const live: Json = { list: [other, kept] };
    const fresh = { name: "fresh" };
    const landed = new Map<object, object>();
    // `kept` moves to the front; the place it leaves gets a fresh object instead of being merged into.
    patchInPlace(live, { list: [kept, fresh] }, { reused: new Set([kept]), landed: (next, at) => landed.set(next, at) });
    assert.equal(live.list[0], kept);
    assert.equal(live.list[1], fresh);
    assert.deepEqual(kept, { name: "kept" }, "a reused object is not changed");
    assert.equal(landed.get(kept), kept);
    assert.equal(landed.get(fresh), fresh);
  });
});

describe("tracked reads", () => {
  it("are noted in the current frame only, and writes are refused", () => {
    const config: Json = tracked({ apps: [{ name: "a" }], flag: true });
    const frame = new Frame();
    inFrame(frame, () => {
      void config.apps[0].name;
      void ("flag" in config);
      void Object.keys(config.apps[0]);
    });
    void config.flag; // outside any frame
    const keysOf = (target: object) => [...(frame.reads.get(target) ?? [])];
    const raw = (value: object) => [...frame.reads.keys()].find((target) => tracked(target) === value)!;
    assert.deepEqual(keysOf(raw(config)), ["apps", "flag"]);
    assert.deepEqual(keysOf(raw(config.apps[0])), ["name", ANY_KEY]);
    assert.equal(config.apps, config.apps, "the same proxy every time");
    assert.throws(() => {
      config.flag = false;
    }, /read-only/);
  });

  it("make a frame dirty when what it read changes, directly or through a cached computation", () => {
    const memory = new BuildMemory();
    const first: Json = { a: { x: 1 }, b: { y: 2 } };
    const config: Json = memory.begin(first, []);
    const cache = new WeakCache<object, string, number>();
    const readsA = new Frame();
    const usesCache = new Frame();
    inFrame(readsA, () => void config.a.x);
    inFrame(usesCache, () => cache.get(config, "y", () => config.b.y));
    // Frames are kept through a unit's memory; these two stand for two units.
    memory.keepUnit("a", { instances: [], above: [], runs: [], planned: new Frame(), built: readsA, adds: [] });
    memory.keepUnit("b", { instances: [], above: [], runs: [], planned: new Frame(), built: usesCache, adds: [] });
    memory.commit();

    memory.begin({ a: { x: 1 }, b: { y: 3 } }, []);
    assert.equal(memory.changed(readsA), false);
    assert.equal(memory.changed(usesCache), true, "the cached computation read b.y");
  });
});
