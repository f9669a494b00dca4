import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import type { BuildContext } from "../../src/codegen/context.js";
import { Engine } from "../../src/codegen/engine.js";
import { ConfigError, ValueError } from "../../src/codegen/errors.js";
import { operation } from "../../src/codegen/operation.js";
import { OperationRegistry } from "../../src/codegen/registry.js";
import { discoverScopes, scoped } from "../../src/codegen/scopes.js";
import { sourcePath } from "../../src/codegen/source-path.js";

// A toy target: project > apps (App.config.resources) > resources > operations.
const ToyOperation = z.object({ type: z.string() }).loose();
const Resource = z.object({ model: z.string(), operations: scoped("operation", z.array(ToyOperation)).optional() });
const AppConfig = z.object({ module: z.string(), resources: scoped("resource", z.array(Resource)).optional() });
const App = z.object({ name: z.string(), config: AppConfig });
const Project = z.object({ apps: scoped("app", z.array(App)).optional() });
const scopes = discoverScopes(Project);

/** Two apps; the first has two resources, the second one. */
function sampleConfig(): any {
  return {
    apps: [
      { name: "shop", config: { module: "shop", resources: [{ model: "Item" }, { model: "Order" }] } },
      { name: "blog", config: { module: "blog", resources: [{ model: "Post" }] } },
    ],
  };
}

class Box {
  constructor(public value: number) {}
}

describe("Engine construction", () => {
  it("rejects afterChildren outside the project scope, naming the op", () => {
    const registry = new OperationRegistry();
    @operation("late", { scope: "app", afterChildren: true, registry })
    class Late {
      build(): unknown[] {
        return [];
      }
    }
    assert.throws(
      () => new Engine(registry, { scopes }),
      (e: unknown) => e instanceof ValueError && /operation "late" sets afterChildren in scope "app"/.test(e.message),
    );
  });

  it("rejects ops of unknown scopes (the default tree holds only the project)", () => {
    const registry = new OperationRegistry();
    @operation("per-app", { scope: "app", registry })
    class PerApp {
      build(): unknown[] {
        return [];
      }
    }
    assert.throws(() => new Engine(registry), (e: unknown) => e instanceof ValueError && /"per-app" targets unknown scope "app"/.test(e.message));
    assert.doesNotThrow(() => new Engine(registry, { scopes }));
  });

  it("rejects unknown requirements up front", () => {
    const registry = new OperationRegistry();
    @operation("b", { scope: "resource", requires: ["x"], registry })
    class B {
      build(): unknown[] {
        return [];
      }
    }
    assert.throws(() => new Engine(registry, { scopes }), /operation "b" requires unknown operation "x" in scope "resource"/);
  });
});

describe("Engine.build walk", () => {
  it("runs pre-phase ops before children and post-phase ops after all of them", () => {
    const registry = new OperationRegistry();
    const log: string[] = [];
    @operation("post", { scope: "project", afterChildren: true, registry })
    class Post {
      build(ctx: BuildContext): unknown[] {
        log.push(`post ${ctx.instanceId}`);
        return [];
      }
    }
    @operation("pre", { scope: "project", registry })
    class Pre {
      build(ctx: BuildContext): unknown[] {
        log.push(`pre ${ctx.instanceId}`);
        return [];
      }
    }
    @operation("app", { scope: "app", registry })
    class AppOp {
      build(ctx: BuildContext): unknown[] {
        log.push(`app ${ctx.instanceId} ${ctx.instance.name}`);
        return [];
      }
    }
    @operation("res", { scope: "resource", registry })
    class ResOp {
      build(ctx: BuildContext): unknown[] {
        log.push(`res ${ctx.instanceId} ${ctx.configPath} ${ctx.scope.name} ${ctx.packagePrefix}`);
        return [];
      }
    }
    new Engine(registry, { scopes, packagePrefix: "acme" }).build(sampleConfig());
    assert.deepEqual(log, [
      "pre project",
      "app project.apps.0 shop",
      "res project.apps.0.resources.0 apps[0].config.resources[0] resource acme",
      "res project.apps.0.resources.1 apps[0].config.resources[1] resource acme",
      "app project.apps.1 blog",
      "res project.apps.1.resources.0 apps[1].config.resources[0] resource acme",
      "post project",
    ]);
  });

  it("gives ops the whole config and a store where every instance is already registered", () => {
    const registry = new OperationRegistry();
    const seen: unknown[] = [];
    @operation("look", { scope: "project", registry })
    class Look {
      build(ctx: BuildContext): unknown[] {
        seen.push(ctx.config, ctx.instance, ctx.store.children("project").length, ctx.configPath);
        seen.push(ctx.store.configPathOf("project.apps.1.resources.0"));
        return [];
      }
    }
    const config = sampleConfig();
    new Engine(registry, { scopes }).build(config);
    assert.deepEqual(seen, [config, config, 2, "", "apps[1].config.resources[0]"]);
    assert.equal(seen[0], config);
  });

  it("treats missing lists as having no instances", () => {
    const registry = new OperationRegistry();
    const ran: string[] = [];
    @operation("app", { scope: "app", registry })
    class AppOp {
      build(ctx: BuildContext): unknown[] {
        ran.push(ctx.instanceId);
        return [];
      }
    }
    @operation("res", { scope: "resource", registry })
    class ResOp {
      build(ctx: BuildContext): unknown[] {
        ran.push(ctx.instanceId);
        return [];
      }
    }
    const engine = new Engine(registry, { scopes });
    engine.build({});
    assert.deepEqual(ran, []);
    engine.build({ apps: [{ name: "a", config: { module: "a" } }] });
    assert.deepEqual(ran, ["project.apps.0"]);
    assert.throws(() => engine.build({ apps: { not: "a list" } }), (e: unknown) => e instanceof TypeError && /list of "app" at "apps"/.test(e.message));
  });

  it("resets config paths at objects carrying sourcePath", () => {
    const registry = new OperationRegistry();
    const paths: string[] = [];
    @operation("res", { scope: "resource", registry })
    class ResOp {
      build(ctx: BuildContext): unknown[] {
        paths.push(ctx.configPath);
        return [];
      }
    }
    // What a single-app shorthand `{ module, resources }` normalises to.
    const config = { apps: [{ name: "only", config: { module: "m", resources: [{ model: "A" }, { model: "B" }], [sourcePath]: "" } }] };
    new Engine(registry, { scopes }).build(config);
    assert.deepEqual(paths, ["resources[0]", "resources[1]"]);
  });

  it("orders ops by requires and lets later ops mutate earlier outputs", () => {
    const registry = new OperationRegistry();
    @operation("double", { scope: "resource", requires: ["make"], registry })
    class Double {
      build(ctx: BuildContext): unknown[] {
        ctx.store.outputUnderAncestor(ctx.instanceId, "resource", Box).value *= 2;
        return [];
      }
    }
    @operation("make", { scope: "resource", registry })
    class Make {
      build(ctx: BuildContext): unknown[] {
        return [new Box(ctx.instance.model.length)];
      }
    }
    const store = new Engine(registry, { scopes }).build(sampleConfig());
    assert.deepEqual(store.entries().map(([id, op]) => `${op}@${id}`), [
      "make@project.apps.0.resources.0",
      "double@project.apps.0.resources.0",
      "make@project.apps.0.resources.1",
      "double@project.apps.0.resources.1",
      "make@project.apps.1.resources.0",
      "double@project.apps.1.resources.0",
    ]);
    assert.deepEqual(store.outputsUnder("project", Box).map((b) => b.value), [8, 10, 8]);
  });

  it("skips an op whose when() is false", () => {
    const registry = new OperationRegistry();
    let built = 0;
    @operation("shop-only", { scope: "app", registry })
    class ShopOnly {
      when(ctx: BuildContext): boolean {
        return ctx.instance.name === "shop";
      }
      build(): unknown[] {
        built += 1;
        return [new Box(1)];
      }
    }
    const store = new Engine(registry, { scopes }).build(sampleConfig());
    assert.equal(built, 1);
    assert.deepEqual(store.entries().map(([id]) => id), ["project.apps.0"]);
  });

  it("runs dispatched ops only where the attribute names them, skipping others silently", () => {
    const registry = new OperationRegistry();
    const ran: string[] = [];
    @operation("get", { scope: "operation", dispatchOn: "type", registry })
    class Get {
      // Would fail on the `list` instance if the engine validated it there.
      static Options = z.object({ type: z.literal("get"), limit: z.number() });
      build(ctx: BuildContext, options: { limit: number }): unknown[] {
        ran.push(`get ${ctx.configPath} ${options.limit}`);
        return [];
      }
    }
    @operation("list", { scope: "operation", dispatchOn: "type", registry })
    class List {
      build(ctx: BuildContext): unknown[] {
        ran.push(`list ${ctx.configPath}`);
        return [];
      }
    }
    const config = {
      apps: [{ name: "a", config: { module: "a", resources: [{ model: "M", operations: [{ type: "list" }, { type: "get", limit: 5 }] }] } }],
    };
    new Engine(registry, { scopes }).build(config);
    assert.deepEqual(ran, ["list apps[0].config.resources[0].operations[0]", "get apps[0].config.resources[0].operations[1] 5"]);
  });

  it("passes parsed options, defaults applied", () => {
    const registry = new OperationRegistry();
    const received: unknown[] = [];
    @operation("opts", { scope: "app", registry })
    class Opts {
      static Options = z.object({ name: z.string(), tests: z.boolean().default(false) });
      build(_ctx: BuildContext, options: z.infer<typeof Opts.Options>): unknown[] {
        received.push(options);
        return [];
      }
    }
    new Engine(registry, { scopes }).build(sampleConfig());
    assert.deepEqual(received, [
      { name: "shop", tests: false },
      { name: "blog", tests: false },
    ]);
  });

  it("shows every op, while validating and building, the ops that apply at its instance, with their classes and parsed options", () => {
    const registry = new OperationRegistry();
    const seen: string[] = [];
    @operation("get", { scope: "operation", dispatchOn: "type", role: "endpoint", registry })
    class Get {
      static Options = z.object({ type: z.literal("get"), limit: z.number().default(7) });
      static path = "/{pk}";
      build(): unknown[] {
        return [];
      }
    }
    @operation("list", { scope: "operation", dispatchOn: "type", role: "endpoint", registry })
    class List {
      build(): unknown[] {
        return [];
      }
    }
    @operation("augment", { scope: "operation", requiresRoles: ["endpoint"], registry })
    class Augment {
      describe(ctx: BuildContext, phase: string): void {
        const here = ctx.store.operationsAt(ctx.instanceId).map(({ meta, cls, options }) => `${meta.name}${cls === Get ? ` ${Get.path} ${JSON.stringify(options)}` : ""}`);
        seen.push(`${phase} ${ctx.configPath}: ${here.join(", ")}`);
      }
      *validate(ctx: BuildContext): Iterable<never> {
        this.describe(ctx, "validate");
      }
      build(ctx: BuildContext): unknown[] {
        this.describe(ctx, "build");
        return [];
      }
    }
    const config = { apps: [{ name: "a", config: { module: "a", resources: [{ model: "M", operations: [{ type: "get" }, { type: "list" }] }] } }] };
    new Engine(registry, { scopes }).build(config);
    const at = "apps[0].config.resources[0].operations";
    assert.deepEqual(seen, [
      `validate ${at}[0]: get /{pk} {"type":"get","limit":7}, augment`,
      `validate ${at}[1]: list, augment`,
      `build ${at}[0]: get /{pk} {"type":"get","limit":7}, augment`,
      `build ${at}[1]: list, augment`,
    ]);
  });

  it("creates one op object per class per build", () => {
    const registry = new OperationRegistry();
    let constructed = 0;
    const callsPerObject: number[] = [];
    @operation("count", { scope: "resource", registry })
    class Count {
      calls = 0;
      constructor() {
        constructed += 1;
        callsPerObject.push(0);
      }
      build(): unknown[] {
        callsPerObject[callsPerObject.length - 1] = ++this.calls;
        return [];
      }
    }
    const engine = new Engine(registry, { scopes });
    engine.build(sampleConfig());
    engine.build(sampleConfig());
    assert.equal(constructed, 2);
    assert.deepEqual(callsPerObject, [3, 3]);
  });

  it("raises TypeError naming an op whose build does not return an array", () => {
    const registry = new OperationRegistry();
    @operation("sloppy", { scope: "project", registry })
    class Sloppy {
      build(): unknown[] {
        return new Box(1) as never;
      }
    }
    assert.throws(
      () => new Engine(registry, { scopes }).build(sampleConfig()),
      (e: unknown) => e instanceof TypeError && /operation "sloppy" build\(\) must return an array/.test(e.message),
    );
  });
});

describe("Engine.build validation", () => {
  /** Registers a logging project op and option-checking app, resource and operation ops. */
  function validatingRegistry(log: string[]): OperationRegistry {
    const registry = new OperationRegistry();
    @operation("first", { scope: "project", registry })
    class First {
      build(): unknown[] {
        log.push("first");
        return [];
      }
    }
    @operation("app", { scope: "app", registry })
    class AppOp {
      static Options = z.object({ name: z.string().min(1) });
      build(): unknown[] {
        log.push("app");
        return [];
      }
    }
    @operation("fields", { scope: "resource", registry })
    class Fields {
      static Options = z.object({ fields: z.array(z.object({ name: z.string(), type: z.enum(["str", "int"]) })).default([]) });
      build(): unknown[] {
        log.push("fields");
        return [];
      }
    }
    @operation("get", { scope: "operation", dispatchOn: "type", registry })
    class Get {
      static Options = z.strictObject({ type: z.literal("get"), limit: z.number().optional() });
      build(): unknown[] {
        return [];
      }
    }
    @operation("list", { scope: "operation", dispatchOn: "type", registry })
    class List {
      build(): unknown[] {
        return [];
      }
    }
    return registry;
  }

  it("reports every problem at once with config paths, before any op runs", () => {
    const log: string[] = [];
    const config = {
      apps: [
        {
          name: "shop",
          config: {
            module: "shop",
            resources: [
              { model: "Item" },
              {
                model: "Order",
                fields: [{ name: "id", type: "uuid" }, { name: "total", type: "int" }, { type: "str" }],
                operations: [{ type: "get", limit: "ten", extra: 1 }, { type: "delete" }, { type: "list", anything: true }],
              },
            ],
          },
        },
        { name: "", config: { module: "blog" } },
      ],
    };
    const engine = new Engine(validatingRegistry(log), { scopes });
    assert.throws(
      () => engine.build(config),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.summary, "invalid configuration");
        assert.deepEqual(
          e.issues.map((issue) => issue.path),
          [
            "apps[0].config.resources[1].fields[0].type",
            "apps[0].config.resources[1].fields[2].name",
            "apps[0].config.resources[1].operations[0].limit",
            "apps[0].config.resources[1].operations[0].extra",
            "apps[1].name",
          ],
        );
        assert.equal(e.issues[3].message, "unknown key");
        return true;
      },
    );
    assert.deepEqual(log, []);
  });

  it("reports paths from the sourcePath an object carries", () => {
    const config = {
      apps: [
        {
          name: "only",
          config: { module: "m", resources: [{ model: "A", fields: [{ name: "x", type: "float" }] }], [sourcePath]: "" },
        },
      ],
    };
    assert.throws(
      () => new Engine(validatingRegistry([]), { scopes }).build(config),
      (e: unknown) => e instanceof ConfigError && e.issues.length === 1 && e.issues[0].path === "resources[0].fields[0].type",
    );
  });

  it("skips silently an instance whose dispatch attribute names no operation, or is missing (SPEC)", () => {
    const log: string[] = [];
    const config = {
      apps: [{ name: "a", config: { module: "a", resources: [{ model: "M", operations: [{ kind: "get" }, { type: "frobnicate" }] }] } }],
    };
    const store = new Engine(validatingRegistry(log), { scopes }).build(config);
    assert.deepEqual(
      store.entries().filter(([id]) => id.includes(".operations.")),
      [],
    );
  });

  it("runs validate before any build, with paths under the instance, reporting every problem together", () => {
    const registry = new OperationRegistry();
    const built: string[] = [];
    @operation("checked", { scope: "resource", registry })
    class Checked {
      static Options = z.object({ model: z.string() });
      validate(ctx: BuildContext, options: { model: string }) {
        assert.equal(ctx.store.entries().length, 0, "validation sees no outputs");
        assert.deepEqual(ctx.operations.map((meta) => meta.name), ["checked", "skipped"]);
        return options.model.startsWith("Bad") ? [{ path: ["model"], message: `${options.model} is bad` }, { message: "and the whole resource" }] : [];
      }
      build(ctx: BuildContext): unknown[] {
        built.push(ctx.configPath);
        return [];
      }
    }
    @operation("skipped", { scope: "resource", registry })
    class Skipped {
      when(): boolean {
        return false;
      }
      validate(): never {
        throw new Error("validate must not run where when() is false");
      }
      build(): unknown[] {
        return [];
      }
    }
    const config = {
      apps: [{ name: "a", config: { module: "a", resources: [{ model: "BadOne" }, { model: "Good" }, { model: "BadTwo" }] } }],
    };
    assert.throws(
      () => new Engine(registry, { scopes }).build(config),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.deepEqual(
          e.issues.map((issue) => `${issue.path}: ${issue.message}`),
          [
            "apps[0].config.resources[0].model: BadOne is bad",
            "apps[0].config.resources[0]: and the whole resource",
            "apps[0].config.resources[2].model: BadTwo is bad",
            "apps[0].config.resources[2]: and the whole resource",
          ],
        );
        return true;
      },
    );
    assert.deepEqual(built, []);
  });

  it("builds a valid config", () => {
    const log: string[] = [];
    const store = new Engine(validatingRegistry(log), { scopes }).build(sampleConfig());
    assert.deepEqual(log, ["first", "app", "fields", "fields", "app", "fields"]);
    assert.equal(store.entries().length, 6);
  });
});
