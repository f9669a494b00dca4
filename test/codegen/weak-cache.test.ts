import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WeakCache } from "../../src/codegen/index.js";

describe("WeakCache", () => {
  it("computes a value once per owner and key, falsy values included", () => {
    const cache = new WeakCache<object, string, boolean>();
    const owner = {};
    let calls = 0;
    const compute = () => {
      calls++;
      return false;
    };
    assert.equal(cache.get(owner, "a", compute), false);
    assert.equal(cache.get(owner, "a", compute), false);
    assert.equal(calls, 1);
    cache.get(owner, "b", compute);
    assert.equal(calls, 2);
  });

  it("keeps each owner's values apart", () => {
    const cache = new WeakCache<object, string, number>();
    assert.equal(cache.get({}, "key", () => 1), 1);
    assert.equal(cache.get({}, "key", () => 2), 2);
  });
});
