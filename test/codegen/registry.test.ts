import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { ValueError } from "../../src/codegen/errors.js";
import { OperationMeta, type OperationClass } from "../../src/codegen/operation.js";
import { OperationRegistry, loadRegistry } from "../../src/codegen/registry.js";

class Op {
  build(): unknown[] {
    return [];
  }
}

/** A registry holding `[name, scope, requires]` ops, in that order. */
function registryOf(...ops: [string, string, string[]?][]): OperationRegistry {
  const registry = new OperationRegistry();
  for (const [name, scope, requires] of ops) registry.register(new OperationMeta({ name, scope, requires }), Op);
  return registry;
}

/** `scope: a b c` per group, for compact assertions. */
function order(registry: OperationRegistry): string[] {
  return [...registry.sortedByScope()].map(([scope, entries]) => `${scope}: ${entries.map(([m]) => m.name).join(" ")}`);
}

describe("OperationRegistry", () => {
  it("keeps entries in registration order", () => {
    const registry = registryOf(["b", "project"], ["a", "resource"]);
    assert.deepEqual(registry.entries.map(([meta, cls]) => [meta.name, cls]), [["b", Op], ["a", Op]]);
  });

  it("rejects a duplicate name within a scope but allows it across scopes", () => {
    assert.throws(
      () => registryOf(["get", "resource"], ["get", "resource"]),
      (e: unknown) => e instanceof ValueError && e.message === 'operation "get" is registered twice in scope "resource"',
    );
    assert.equal(registryOf(["router", "app"], ["router", "project"]).entries.length, 2);
  });

  it("groups by scope in order of first registration, omitting scopes without ops", () => {
    const registry = registryOf(["r1", "resource"], ["p1", "project"], ["r2", "resource"]);
    assert.deepEqual(order(registry), ["resource: r1 r2", "project: p1"]);
    assert.equal(registry.sortedByScope().has("app"), false);
  });

  it("sorts each group so ops follow their requirements, stable otherwise", () => {
    const registry = registryOf(
      ["auth", "resource", ["get", "list"]],
      ["get", "resource"],
      ["tests", "resource", ["auth"]],
      ["list", "resource"],
      ["create", "resource"],
    );
    assert.deepEqual(order(registry), ["resource: get list auth tests create"]);
  });

  it("runs an operation that requires a role after every operation of that role, one registered later too", () => {
    const registry = new OperationRegistry();
    const add = (name: string, options: { role?: string; requiresRoles?: string[]; requires?: string[] } = {}) =>
      registry.register(new OperationMeta({ name, scope: "operation", ...options }), Op);
    add("get", { role: "endpoint" });
    add("auth", { requiresRoles: ["endpoint"] });
    add("rate_limit", { requires: ["auth"], requiresRoles: ["endpoint"] });
    add("note");
    // A package's endpoint, registered after everything that attaches to endpoints.
    add("bulk_delete", { role: "endpoint" });
    assert.deepEqual(order(registry), ["operation: get note bulk_delete auth rate_limit"]);
  });

  it("requires nothing of a role no operation declares, and never makes an operation wait for itself", () => {
    const registry = new OperationRegistry();
    registry.register(new OperationMeta({ name: "auth", scope: "operation", requiresRoles: ["endpoint"] }), Op);
    registry.register(new OperationMeta({ name: "nested", scope: "operation", role: "endpoint", requiresRoles: ["endpoint"] }), Op);
    assert.deepEqual(order(registry), ["operation: nested auth"]);
  });

  it("names a cycle made through a role", () => {
    const registry = new OperationRegistry();
    registry.register(new OperationMeta({ name: "auth", scope: "operation", requiresRoles: ["endpoint"] }), Op);
    registry.register(new OperationMeta({ name: "get", scope: "operation", role: "endpoint", requires: ["auth"] }), Op);
    assert.throws(() => registry.sortedByScope(), (e: unknown) => e instanceof ValueError && e.message === 'cycle among operations in scope "operation": auth -> get -> auth');
  });

  it("rejects a requirement that is not in the same scope", () => {
    const registry = registryOf(["a", "project"], ["b", "resource", ["x"]]);
    assert.throws(
      () => registry.sortedByScope(),
      (e: unknown) => e instanceof ValueError && e.message === 'operation "b" requires unknown operation "x" in scope "resource"',
    );
    assert.throws(() => registryOf(["a", "project"], ["b", "resource", ["a"]]).sortedByScope(), /requires unknown operation "a"/);
  });

  it("rejects a cycle, naming its ops", () => {
    const registry = registryOf(["c", "resource", ["a"]], ["a", "resource", ["b"]], ["b", "resource", ["a"]]);
    assert.throws(
      () => registry.sortedByScope(),
      (e: unknown) => e instanceof ValueError && e.message === 'cycle among operations in scope "resource": a -> b -> a',
    );
    assert.throws(() => registryOf(["self", "app", ["self"]]).sortedByScope(), /cycle among operations in scope "app": self -> self/);
  });

  it("validateScopes accepts known scopes and names the op of an unknown one", () => {
    const registry = registryOf(["a", "project"], ["b", "widget"]);
    assert.doesNotThrow(() => registry.validateScopes(["project", "widget"]));
    assert.throws(
      () => registry.validateScopes(new Set(["project", "app"])),
      (e: unknown) => e instanceof ValueError && /operation "b" targets unknown scope "widget"/.test(e.message),
    );
  });
});

describe("loadRegistry", () => {
  const temps: string[] = [];
  after(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  /** A temp dir with `node_modules/<name>` packages, each declaring `group` entries over one module. */
  async function project(packages: Record<string, { entries: Record<string, string>; module: string }>, group: string) {
    const root = await mkdtemp(path.join(tmpdir(), "codegen-registry-"));
    temps.push(root);
    for (const [name, { entries, module }] of Object.entries(packages)) {
      const dir = path.join(root, "node_modules", name);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "package.json"), JSON.stringify({ name, codegen: { [group]: entries } }));
      await writeFile(path.join(dir, "ops.mjs"), module);
    }
    return root;
  }

  const opModule = (...ops: [string, string, string[]][]) =>
    ops
      .map(
        ([cls, name, requires]) =>
          `export class ${cls} { build() { return []; } }\n` +
          `Object.defineProperty(${cls}, Symbol.for("codegen.operationMeta"), ` +
          `{ value: { name: ${JSON.stringify(name)}, scope: "resource", requires: ${JSON.stringify(requires)} } });\n`,
      )
      .join("");

  it("registers every entry of the group, by package name, and returns a fresh registry each call", async () => {
    const cwd = await project(
      {
        "pkg-b": { entries: { list: "./ops.mjs#List" }, module: opModule(["List", "list", ["get"]]) },
        "pkg-a": { entries: { get: "./ops.mjs#Get" }, module: opModule(["Get", "get", []]) },
      },
      "toy.operations",
    );
    const first = await loadRegistry("toy.operations", { cwd });
    const second = await loadRegistry("toy.operations", { cwd });
    assert.notEqual(first, second);
    assert.deepEqual(first.entries.map(([meta, cls]) => [meta.name, (cls as OperationClass).name]), [["get", "Get"], ["list", "List"]]);
    assert.deepEqual(order(first), ["resource: get list"]);
    assert.equal(second.entries.length, 2);
    assert.equal(first.entries[0][1], second.entries[0][1]);
  });

  it("ignores other groups", async () => {
    const cwd = await project({ "pkg-a": { entries: { get: "./ops.mjs#Get" }, module: opModule(["Get", "get", []]) } }, "other.operations");
    assert.equal((await loadRegistry("toy.operations", { cwd })).entries.length, 0);
  });

  it("raises TypeError naming an entry whose class has no metadata", async () => {
    const cwd = await project(
      { "pkg-bad": { entries: { plain: "./ops.mjs#Plain" }, module: "export class Plain { build() { return []; } }\n" } },
      "toy.operations",
    );
    await assert.rejects(
      loadRegistry("toy.operations", { cwd }),
      (e: unknown) => e instanceof TypeError && /entry "plain"/.test(e.message) && /pkg-bad/.test(e.message),
    );
  });
});
