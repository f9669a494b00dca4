import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { ValueError } from "../../src/codegen/errors.js";
import { PROJECT, Scope, ScopeTree, discoverScopes, scoped } from "../../src/codegen/scopes.js";

/** `name(parent)@resolve.path` for each scope, for compact assertions. */
function shape(tree: ScopeTree): string[] {
  return [...tree].map((s) => `${s.name}(${s.parent?.name ?? "-"})@${s.resolvePath.join(".")}:${s.configKey}`);
}

const Resource = z.object({ model: z.string() });
const AppConfig = z.object({ module: z.string(), resources: scoped("resource", z.array(Resource)) });
const App = z.object({ name: z.string(), config: AppConfig });
const Project = z.object({ apps: scoped("app", z.array(App)) });

describe("Scope", () => {
  it("defaults resolvePath to [configKey]", () => {
    const app = new Scope({ name: "app", configKey: "apps", parent: PROJECT });
    assert.deepEqual(app.resolvePath, ["apps"]);
    assert.equal(app.parent, PROJECT);
  });

  it("keeps an explicit resolvePath", () => {
    const scope = new Scope({ name: "resource", configKey: "resources", resolvePath: ["config", "resources"] });
    assert.deepEqual(scope.resolvePath, ["config", "resources"]);
  });

  it("PROJECT is the root with an empty config key", () => {
    assert.equal(PROJECT.name, "project");
    assert.equal(PROJECT.configKey, "");
    assert.equal(PROJECT.parent, undefined);
    assert.deepEqual(PROJECT.resolvePath, []);
  });
});

describe("discoverScopes", () => {
  it("finds scoped lists through non-list object fields, accumulating resolvePath", () => {
    const tree = discoverScopes(Project);
    assert.deepEqual(shape(tree), ["project(-)@:", "app(project)@apps:apps", "resource(app)@config.resources:resources"]);
    assert.equal([...tree][0], PROJECT);
  });

  it("ignores unmarked lists, even of objects holding scoped lists", () => {
    const tree = discoverScopes(z.object({ plain: z.array(z.object({ inner: scoped("inner", z.array(Resource)) })) }));
    assert.deepEqual(shape(tree), ["project(-)@:"]);
  });

  it("keeps the mark through optional, default, nullable and describe wrappers", () => {
    const tree = discoverScopes(
      z.object({
        a: scoped("a", z.array(Resource)).optional(),
        b: scoped("b", z.array(Resource)).default([]),
        c: scoped("c", z.array(Resource)).nullable().optional(),
        d: scoped("d", z.array(Resource)).describe("documented").min(1),
      }),
    );
    assert.deepEqual(shape(tree), ["project(-)@:", "a(project)@a:a", "b(project)@b:b", "c(project)@c:c", "d(project)@d:d"]);
  });

  it("looks through wrappers, pipes and transforms around object fields", () => {
    const tree = discoverScopes(
      z.object({
        opt: z.object({ xs: scoped("x", z.array(Resource)) }).optional(),
        piped: z.object({ ys: scoped("y", z.array(Resource)) }).transform((v) => v),
        pre: z.preprocess((v) => v, z.object({ zs: scoped("z", z.array(Resource)) })),
      }),
    );
    assert.deepEqual(shape(tree), ["project(-)@:", "x(project)@opt.xs:xs", "y(project)@piped.ys:ys", "z(project)@pre.zs:zs"]);
  });

  it("searches every union option and scopes lists of union items", () => {
    const Op = z.discriminatedUnion("type", [
      z.object({ type: z.literal("get"), params: scoped("param", z.array(z.object({ n: z.string() }))) }),
      z.object({ type: z.literal("list") }),
    ]);
    const tree = discoverScopes(
      z.union([z.object({ ops: scoped("operation", z.array(Op)) }), z.object({ other: scoped("other", z.array(Resource)) })]),
    );
    assert.deepEqual(shape(tree), ["project(-)@:", "operation(project)@ops:ops", "param(operation)@params:params", "other(project)@other:other"]);
  });

  it("treats the same scoped field reached twice as one scope", () => {
    const shared = scoped("item", z.array(Resource));
    const tree = discoverScopes(z.union([z.object({ items: shared }), z.object({ items: shared, extra: z.string() })]));
    assert.deepEqual(shape(tree), ["project(-)@:", "item(project)@items:items"]);
  });

  it("descends into each scoped item type once", () => {
    const Db = z.object({ tables: scoped("table", z.array(Resource)) });
    const tree = discoverScopes(z.object({ primary: scoped("primary", z.array(Db)), replicas: scoped("replica", z.array(Db)) }));
    assert.deepEqual(shape(tree), ["project(-)@:", "primary(project)@primary:primary", "table(primary)@tables:tables", "replica(project)@replicas:replicas"]);
  });

  it("terminates on recursive object schemas", () => {
    const Node = z.object({
      label: z.string(),
      get next() {
        return Node.optional();
      },
      leaves: scoped("leaf", z.array(Resource)),
    });
    const tree = discoverScopes(z.object({ root: Node }));
    assert.deepEqual(shape(tree), ["project(-)@:", "leaf(project)@root.leaves:leaves"]);
  });

  it("rejects one scope name declared at two places", () => {
    const schema = z.object({ a: scoped("dup", z.array(Resource)), b: scoped("dup", z.array(Resource)) });
    assert.throws(() => discoverScopes(schema), (e: unknown) => e instanceof ValueError && /scope "dup" is declared twice/.test(e.message));
  });

  it("rejects sibling scopes sharing a config key", () => {
    const schema = z.union([z.object({ items: scoped("x", z.array(Resource)) }), z.object({ items: scoped("y", z.array(Resource)) })]);
    assert.throws(() => discoverScopes(schema), (e: unknown) => e instanceof ValueError && /share the config key "items"/.test(e.message));
  });
});

describe("ScopeTree", () => {
  const tree = discoverScopes(Project);
  const app = tree.byName("app")!;
  const resource = tree.byName("resource")!;

  it("iterates project first and lists direct children in discovery order", () => {
    const extra = new Scope({ name: "extra", configKey: "extras", parent: PROJECT });
    const manual = new ScopeTree([PROJECT, app, extra, resource]);
    assert.deepEqual([...manual].map((s) => s.name), ["project", "app", "extra", "resource"]);
    assert.deepEqual(manual.childrenOf(PROJECT).map((s) => s.name), ["app", "extra"]);
    assert.deepEqual(manual.childrenOf(app), [resource]);
    assert.deepEqual(manual.childrenOf(resource), []);
  });

  it("byName finds scopes and returns undefined otherwise", () => {
    assert.equal(tree.byName("project"), PROJECT);
    assert.equal(tree.byName("nope"), undefined);
  });

  it("scopeFor resolves instance ids", () => {
    assert.equal(tree.scopeFor("project"), PROJECT);
    assert.equal(tree.scopeFor("project.apps.0"), app);
    assert.equal(tree.scopeFor("project.apps.3.resources.12"), resource);
  });

  it("scopeFor rejects ids not starting with project", () => {
    assert.throws(() => tree.scopeFor("app.apps.0"), (e: unknown) => e instanceof ValueError && /must start with "project"/.test(e.message));
    assert.throws(() => tree.scopeFor(""), ValueError);
  });

  it("scopeFor rejects unknown config keys and missing indexes", () => {
    assert.throws(() => tree.scopeFor("project.resources.0"), (e: unknown) => e instanceof ValueError && /key "resources"/.test(e.message));
    assert.throws(() => tree.scopeFor("project.apps.0.fields.1"), (e: unknown) => e instanceof ValueError && /key "fields"/.test(e.message));
    assert.throws(() => tree.scopeFor("project.apps"), (e: unknown) => e instanceof ValueError && /expected an index/.test(e.message));
    assert.throws(() => tree.scopeFor("project.apps.x"), ValueError);
  });

  it("rejects trees whose root is missing or whose parents come late", () => {
    assert.throws(() => new ScopeTree([]), ValueError);
    assert.throws(() => new ScopeTree([app]), ValueError);
    assert.throws(() => new ScopeTree([PROJECT, resource, app]), ValueError);
    assert.throws(() => new ScopeTree([PROJECT, app, app]), ValueError);
  });
});
