import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { LookupError } from "../../src/codegen/errors.js";
import { FileFragment, SnippetFragment } from "../../src/codegen/fragments.js";
import { Handle, StaticFile } from "../../src/codegen/outputs.js";
import { RenderRegistry, registry, type RenderCtx } from "../../src/codegen/render.js";
import { ScopeTree } from "../../src/codegen/scopes.js";
import { BuildStore } from "../../src/codegen/store.js";
import { createTemplateEnv } from "../../src/codegen/templating.js";

const ctx: RenderCtx = {
  env: createTemplateEnv(),
  config: { package_prefix: "acme" },
  packagePrefix: "acme",
  language: "python",
  targetName: "toy",
  store: new BuildStore(new ScopeTree()),
  instanceId: "project",
};

class Route {
  constructor(readonly name: string) {}
}
class AdminRoute extends Route {}
class Unrelated {}

describe("RenderRegistry.renders / render", () => {
  it("calls the renderer registered for the output's class with the output and the context", () => {
    const renderers = new RenderRegistry();
    const calls: [unknown, RenderCtx][] = [];
    renderers.renders(Route, (route, seen) => {
      calls.push([route, seen]);
      return [new FileFragment({ path: `${route.name}.py`, template: "route.njk" })];
    });
    const route = new Route("items");
    const fragments = renderers.render(route, ctx);
    assert.deepEqual(
      fragments.map((f) => f.path),
      ["items.py"],
    );
    assert.equal(calls.length, 1);
    assert.equal(calls[0][0], route);
    assert.equal(calls[0][1], ctx);
  });

  it("returns a list even when the renderer yields from a generator", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, function* (route) {
      yield new FileFragment({ path: "a.py", template: "t" });
      yield new SnippetFragment({ path: "a.py", slot: "names", value: route.name });
    });
    const fragments = renderers.render(new Route("x"), ctx);
    assert.ok(Array.isArray(fragments));
    assert.equal(fragments.length, 2);
  });

  it("renders a subclass with its parent's renderer unless the subclass has its own", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, (route) => [new FileFragment({ path: `parent/${route.name}`, template: "t" })]);
    assert.equal(renderers.render(new AdminRoute("a"), ctx)[0].path, "parent/a");
    renderers.renders(AdminRoute, (route) => [new FileFragment({ path: `admin/${route.name}`, template: "t" })]);
    assert.equal(renderers.render(new AdminRoute("a"), ctx)[0].path, "admin/a");
    assert.equal(renderers.render(new Route("r"), ctx)[0].path, "parent/r");
  });

  it("lets a later registration replace an earlier one", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, () => [new FileFragment({ path: "first", template: "t" })]);
    renderers.renders(Route, () => [new FileFragment({ path: "second", template: "t" })]);
    assert.equal(renderers.render(new Route("r"), ctx)[0].path, "second");
  });

  it("raises LookupError naming the type when no renderer is registered", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, () => []);
    assert.throws(
      () => renderers.render(new Unrelated(), ctx),
      (error: unknown) => error instanceof LookupError && /no renderer registered for output type Unrelated/.test(error.message),
    );
    for (const [value, name] of [[null, "null"], [undefined, "undefined"], [42, "Number"], [{}, "Object"]] as const) {
      assert.throws(
        () => renderers.render(value, ctx),
        (error: unknown) => error instanceof LookupError && error.message.endsWith(`output type ${name}`),
      );
    }
  });

  it("renders every Handle (and subclass) as nothing, in every registry, unless a target says otherwise", () => {
    class ListHandle extends Handle {}
    class Unknown {}
    for (const renderers of [new RenderRegistry(), registry]) {
      assert.deepEqual(renderers.render(new ListHandle(), ctx), []);
      assert.throws(() => renderers.render(new Unknown(), ctx), LookupError);
    }
    const own = new RenderRegistry();
    own.renders(ListHandle, () => [new FileFragment({ path: "x", template: "" })]);
    assert.equal(own.render(new ListHandle(), ctx).length, 1);
  });

  it("renders the engine's StaticFile in every registry, as one file fragment", () => {
    for (const renderers of [new RenderRegistry(), new RenderRegistry(), registry]) {
      const file = new StaticFile({
        path: "bin/run.sh",
        template: "run.sh.njk",
        context: { a: 1 },
        ifExists: "skip",
        executable: true,
        banner: false,
      });
      const fragments = renderers.render(file, ctx);
      assert.equal(fragments.length, 1);
      const [fragment] = fragments;
      assert.ok(fragment instanceof FileFragment);
      assert.deepEqual(
        { path: fragment.path, template: fragment.template, context: fragment.context },
        { path: "bin/run.sh", template: "run.sh.njk", context: { a: 1 } },
      );
      assert.deepEqual([fragment.ifExists, fragment.executable, fragment.banner], ["skip", true, false]);
      assert.equal(fragment.imports.isEmpty, true);
    }
  });

  it("keeps registrations apart between registries", () => {
    const first = new RenderRegistry();
    const second = new RenderRegistry();
    first.renders(Route, () => []);
    assert.deepEqual(first.render(new Route("r"), ctx), []);
    assert.throws(() => second.render(new Route("r"), ctx), LookupError);
  });
});

describe("RenderRegistry fallback", () => {
  it("consults the fallback only for classes it has no renderer for", () => {
    const fallback = new RenderRegistry();
    fallback.renders(Route, () => [new FileFragment({ path: "from-fallback", template: "t" })]);
    const perRun = new RenderRegistry({ fallback });
    assert.equal(perRun.render(new AdminRoute("a"), ctx)[0].path, "from-fallback");
    perRun.renders(Route, () => [new FileFragment({ path: "own", template: "t" })]);
    assert.equal(perRun.render(new AdminRoute("a"), ctx)[0].path, "own");
    assert.throws(() => perRun.render(new Unrelated(), ctx), LookupError);
  });
});

describe("the process-wide registry", () => {
  it("is one RenderRegistry shared by every importer", async () => {
    assert.ok(registry instanceof RenderRegistry);
    const again = await import("../../src/codegen/render.js");
    assert.equal(again.registry, registry);
    const { registry: fromIndex } = await import("../../src/codegen/index.js");
    assert.equal(fromIndex, registry);
  });

  it("keeps what is registered in it", () => {
    class OnlyGlobal {}
    registry.renders(OnlyGlobal, () => [new FileFragment({ path: "global", template: "t" })]);
    assert.equal(registry.render(new OnlyGlobal(), ctx)[0].path, "global");
    assert.throws(() => new RenderRegistry().render(new OnlyGlobal(), ctx), LookupError);
  });
});

describe("RenderRegistry output check", () => {
  it("raises TypeError naming the output type when a renderer returns something other than fragments", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, () => [new StaticFile({ path: "a", template: "t" })] as never);
    assert.throws(
      () => renderers.render(new Route("r"), ctx),
      (error: unknown) => error instanceof TypeError && /renderer of Route returned a StaticFile, not a FileFragment or SnippetFragment/.test(error.message),
    );
    renderers.renders(Route, () => [null] as never);
    assert.throws(() => renderers.render(new Route("r"), ctx), /returned a null/);
  });
});

describe("RenderRegistry diagnostics", () => {
  it("says when a different class of the same name has a renderer (two copies of a module)", () => {
    const renderers = new RenderRegistry();
    renderers.renders(Route, () => []);
    const copy = class Route {};
    assert.throws(
      () => renderers.render(new copy(), ctx),
      (error: unknown) => error instanceof LookupError && /a different class named Route has one, so two copies of its module are loaded/.test(error.message),
    );
    assert.throws(
      () => renderers.render(new Unrelated(), ctx),
      (error: unknown) => error instanceof LookupError && !/two copies/.test(error.message),
    );
  });
});
