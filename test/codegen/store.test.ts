import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { KeyError, LookupError, ValueError } from "../../src/codegen/errors.js";
import { discoverScopes, scoped } from "../../src/codegen/scopes.js";
import { BuildStore } from "../../src/codegen/store.js";

const Resource = z.object({ model: z.string() });
const App = z.object({ resources: scoped("resource", z.array(Resource)), jobs: scoped("job", z.array(Resource)) });
const tree = discoverScopes(z.object({ apps: scoped("app", z.array(App)) }));

class Route {
  constructor(readonly path: string) {}
}
class SubRoute extends Route {}
class Schema {
  constructor(readonly name: string) {}
}

/** project > apps.0 (resources 0, 1; job 0), apps.1, apps.10 */
function sampleStore(): BuildStore {
  const store = new BuildStore(tree);
  store.registerInstance("project", { root: true }, { configPath: "" });
  store.registerInstance("project.apps.0", { app: 0 }, { configPath: "apps[0]" });
  store.registerInstance("project.apps.0.resources.0", { res: 0 }, { configPath: "apps[0].resources[0]" });
  store.registerInstance("project.apps.0.jobs.0", { job: 0 });
  store.registerInstance("project.apps.0.resources.1", { res: 1 });
  store.registerInstance("project.apps.1", { app: 1 });
  store.registerInstance("project.apps.10", { app: 10 });
  return store;
}

describe("BuildStore instances", () => {
  it("derives scope and parent from the id and lists children in registration order", () => {
    const store = sampleStore();
    assert.equal(store.scopeOf("project.apps.0.jobs.0").name, "job");
    assert.equal(store.scopeOf("project").name, "project");
    assert.deepEqual(store.children("project"), [
      ["project.apps.0", { app: 0 }],
      ["project.apps.1", { app: 1 }],
      ["project.apps.10", { app: 10 }],
    ]);
    assert.deepEqual(store.children("project.apps.0").map(([id]) => id), [
      "project.apps.0.resources.0",
      "project.apps.0.jobs.0",
      "project.apps.0.resources.1",
    ]);
  });

  it("filters children by scope name and rejects unknown scope names", () => {
    const store = sampleStore();
    assert.deepEqual(store.children("project.apps.0", { childScope: "resource" }).map(([id]) => id), [
      "project.apps.0.resources.0",
      "project.apps.0.resources.1",
    ]);
    assert.deepEqual(store.children("project.apps.0", { childScope: "app" }), []);
    assert.throws(() => store.children("project", { childScope: "widget" }), ValueError);
  });

  it("accepts an explicit parent and scope", () => {
    const store = new BuildStore(tree);
    store.registerInstance("project", {});
    store.registerInstance("project.apps.0", { a: 1 }, { parent: "project", scope: tree.byName("app") });
    assert.deepEqual(store.children("project"), [["project.apps.0", { a: 1 }]]);
  });

  it("returns instances and config paths, defaulting the path to the root", () => {
    const store = sampleStore();
    assert.deepEqual(store.instanceAt("project.apps.0.resources.1"), { res: 1 });
    assert.equal(store.configPathOf("project.apps.0.resources.0"), "apps[0].resources[0]");
    assert.equal(store.configPathOf("project.apps.1"), "");
  });

  it("rejects duplicate ids, unregistered parents and unknown ids", () => {
    const store = sampleStore();
    assert.throws(() => store.registerInstance("project.apps.0", {}), ValueError);
    assert.throws(() => store.registerInstance("project.apps.5.resources.0", {}), KeyError);
    assert.throws(() => store.registerInstance("project.widgets.0", {}), ValueError);
    assert.throws(() => store.instanceAt("project.apps.7"), KeyError);
    assert.throws(() => store.scopeOf("nope"), KeyError);
    assert.throws(() => store.add("project.apps.7", "op", 1), KeyError);
  });

  it("finds ancestors at or above an id", () => {
    const store = sampleStore();
    assert.equal(store.ancestorIdOf("project.apps.0.resources.1", "app"), "project.apps.0");
    assert.equal(store.ancestorIdOf("project.apps.0.resources.1", "project"), "project");
    assert.equal(store.ancestorIdOf("project.apps.0.resources.1", "resource"), "project.apps.0.resources.1");
    assert.equal(store.ancestorIdOf("project.apps.0", "resource"), undefined);
    assert.deepEqual(store.ancestorOf("project.apps.0.jobs.0", "app"), { app: 0 });
    assert.equal(store.ancestorOf("project", "app"), undefined);
  });
});

describe("BuildStore outputs", () => {
  it("lists entries in insertion order and extends an entry added twice", () => {
    const store = sampleStore();
    const a = new Route("/a");
    store.add("project.apps.0", "router", a);
    store.add("project", "scaffold");
    store.add("project.apps.0", "router", new Schema("b"), new Schema("c"));
    const entries = store.entries();
    assert.deepEqual(entries.map(([id, op, items]) => [id, op, items.length]), [
      ["project.apps.0", "router", 3],
      ["project", "scaffold", 0],
    ]);
    assert.equal(entries[0][2][0], a);
  });

  it("outputsUnder matches the id and its descendants by path prefix, filtered by class", () => {
    const store = sampleStore();
    store.add("project.apps.0.resources.0", "get", new Route("/r0"), new Schema("R0"));
    store.add("project.apps.1", "router", new Route("/app1"));
    store.add("project.apps.10", "router", new SubRoute("/app10"));
    store.add("project", "scaffold", new Route("/root"));
    const paths = (routes: Route[]) => routes.map((r) => r.path);
    assert.deepEqual(paths(store.outputsUnder("project.apps.1", Route)), ["/app1"]);
    assert.deepEqual(paths(store.outputsUnder("project.apps.0", Route)), ["/r0"]);
    assert.deepEqual(paths(store.outputsUnder("project", Route)), ["/r0", "/app1", "/app10", "/root"]);
    assert.deepEqual(paths(store.outputsUnder("project", SubRoute)), ["/app10"]);
    assert.deepEqual(store.outputsUnder("project.apps.0", Schema).map((s) => s.name), ["R0"]);
  });

  it("outputsUnderAncestor is empty without an ancestor", () => {
    const store = sampleStore();
    store.add("project.apps.0", "router", new Route("/app0"));
    store.add("project.apps.0.resources.1", "get", new Route("/r1"));
    assert.deepEqual(store.outputsUnderAncestor("project.apps.0.resources.0", "app", Route).map((r) => r.path), ["/app0", "/r1"]);
    assert.deepEqual(store.outputsUnderAncestor("project.apps.0", "resource", Route), []);
  });

  it("outputUnderAncestor returns the first match and raises LookupError otherwise", () => {
    const store = sampleStore();
    store.add("project.apps.0.resources.0", "get", new Schema("first"));
    store.add("project.apps.0.resources.1", "get", new Schema("second"));
    assert.equal(store.outputUnderAncestor("project.apps.0.jobs.0", "app", Schema).name, "first");
    assert.throws(
      () => store.outputUnderAncestor("project.apps.0", "resource", Schema),
      (e: unknown) => e instanceof LookupError && /no "resource" ancestor/.test(e.message),
    );
    assert.throws(
      () => store.outputUnderAncestor("project.apps.0.jobs.0", "app", Route),
      (e: unknown) => e instanceof LookupError && /no Route output under "project.apps.0"/.test(e.message),
    );
  });

  it("outputUnderAncestor answers again after an earlier entry is extended, under the root and under a subtree", () => {
    const store = sampleStore();
    store.add("project.apps.0.resources.0", "get", new Route("/r0"));
    store.add("project.apps.0.resources.1", "get", new Schema("later"));
    const first = (scope: string) => store.outputUnderAncestor("project.apps.0.jobs.0", scope, Schema).name;
    assert.deepEqual([first("project"), first("app")], ["later", "later"]);
    // A new entry comes after every existing one: the first found stays first.
    store.add("project.apps.0.jobs.0", "list", new Schema("newest"));
    assert.deepEqual([first("project"), first("app")], ["later", "later"]);
    // Extending the earliest entry puts a match before the one remembered.
    store.add("project.apps.0.resources.0", "get", new Schema("earlier"));
    assert.deepEqual([first("project"), first("app")], ["earlier", "earlier"]);
  });
});
