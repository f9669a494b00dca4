import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import type { BuildContext } from "../../src/codegen/context.js";
import { EmptyOptions, OperationMeta, getOperationMeta, operation } from "../../src/codegen/operation.js";
import { OperationRegistry } from "../../src/codegen/registry.js";

describe("OperationMeta", () => {
  it("applies defaults", () => {
    const meta = new OperationMeta({ name: "get", scope: "resource" });
    assert.deepEqual(meta.requires, []);
    assert.equal(meta.afterChildren, false);
    assert.equal(meta.dispatchOn, undefined);
  });

  it("keeps given values and copies requires", () => {
    const requires = ["a"];
    const meta = new OperationMeta({ name: "b", scope: "project", requires, afterChildren: true, dispatchOn: "type" });
    requires.push("later");
    assert.deepEqual(meta.requires, ["a"]);
    assert.equal(meta.afterChildren, true);
    assert.equal(meta.dispatchOn, "type");
  });

  it("rejects a missing name or scope", () => {
    assert.throws(() => new OperationMeta({ name: 1 as never, scope: "project" }), TypeError);
  });
});

describe("EmptyOptions", () => {
  it("accepts any object, extra keys included", () => {
    assert.equal(EmptyOptions.safeParse({ anything: 1 }).success, true);
    assert.equal(EmptyOptions.safeParse("not an object").success, false);
  });
});

describe("@operation", () => {
  it("stores metadata as an own property under the global symbol", () => {
    @operation("scaffold", { scope: "project", requires: ["x"], afterChildren: true })
    class Scaffold {
      build(): unknown[] {
        return [];
      }
    }
    const meta = getOperationMeta(Scaffold);
    assert.ok(meta instanceof OperationMeta);
    assert.equal(meta.name, "scaffold");
    assert.equal(meta.scope, "project");
    assert.deepEqual(meta.requires, ["x"]);
    assert.equal(meta.afterChildren, true);
    assert.equal(Object.hasOwn(Scaffold, Symbol.for("codegen.operationMeta")), true);
  });

  it("pushes into the given registry", () => {
    const registry = new OperationRegistry();
    @operation("get", { scope: "resource", dispatchOn: "type", registry })
    class Get {
      static Options = z.object({ type: z.literal("get") });
      build(_ctx: BuildContext, _options: z.infer<typeof Get.Options>): unknown[] {
        return [];
      }
    }
    assert.equal(registry.entries.length, 1);
    assert.equal(registry.entries[0][1], Get);
    assert.equal(registry.entries[0][0].dispatchOn, "type");
    assert.equal(registry.entries[0][0], getOperationMeta(Get));
  });

  it("is not inherited by an undecorated subclass", () => {
    @operation("base", { scope: "project" })
    class Base {
      build(): unknown[] {
        return [];
      }
    }
    class Derived extends Base {}
    assert.equal(getOperationMeta(Base)?.name, "base");
    assert.equal(getOperationMeta(Derived), undefined);
  });
});

describe("getOperationMeta", () => {
  it("returns undefined for undecorated classes and non-classes", () => {
    class Plain {}
    assert.equal(getOperationMeta(Plain), undefined);
    assert.equal(getOperationMeta({}), undefined);
    assert.equal(getOperationMeta(undefined), undefined);
  });

  it("reads plain-object metadata written by another copy of the engine", () => {
    class Foreign {}
    Object.defineProperty(Foreign, Symbol.for("codegen.operationMeta"), {
      value: { name: "foreign", scope: "app", requires: ["a"], afterChildren: false },
    });
    const meta = getOperationMeta(Foreign);
    assert.ok(meta instanceof OperationMeta);
    assert.equal(meta.name, "foreign");
    assert.equal(meta.scope, "app");
    assert.deepEqual(meta.requires, ["a"]);
  });

  it("rejects malformed metadata", () => {
    class Broken {}
    Object.defineProperty(Broken, Symbol.for("codegen.operationMeta"), { value: "nope" });
    assert.throws(() => getOperationMeta(Broken), (e: unknown) => e instanceof TypeError && /Broken/.test(e.message));
  });
});
