// What attaches to an endpoint operation by what its route is, shown with an operation this
// project never names: `show`, a read of one row at `/{pk}`, registered beside the built-in
// operations as a package's would be. Create's `Location`, the generated tests' fetch of a
// row and OPA's rows follow it as they follow `get`; list modifiers apply to a package's
// operation that declares it yields a `ListHandler`.

import assert from "node:assert/strict";
import { before, test } from "node:test";
import { z } from "zod";
import { type BuildContext, ConfigError, type OperationRegistry, type Target, discoverTargets, operation } from "../../../src/codegen/index.js";
import { buildStore, loadPlugins, renderStore } from "../../../src/codegen/build-output.js";
import { ENDPOINT, type Route } from "../../../src/targets/be/extend.js";
import type { ProjectConfig } from "../../../src/targets/be/config/schema.js";
import { ListOptions } from "../../../src/targets/be/operations/list/options.js";
import { CrudOptions } from "../../../src/targets/be/config/schema.js";
import { Create } from "../../../src/targets/be/operations/create/create.js";
import { List } from "../../../src/targets/be/operations/list/list.js";
import { visibilityRules } from "../../../src/targets/be/row-visibility.js";

let be: Target;
let registry: OperationRegistry;

before(async () => {
  be = (await discoverTargets()).find((target) => target.name === "be")!;
  registry = await loadPlugins(be, {});
  @operation("show", { scope: "operation", dispatchOn: "type", role: ENDPOINT, registry })
  class Show {
    static Options = z.looseObject({ name: z.string(), type: z.literal("show") });
    static route(): Route {
      return { kind: "read", path: "/{pk}" };
    }
    build(): unknown[] {
      return [];
    }
  }
  void Show; // registered by its decorator
});

const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials", opa: { decision: "shop/authz/allow" } };

function article(operations: unknown[]) {
  return {
    model: "shop.models.Article",
    fields: [
      { name: "id", type: "uuid" },
      { name: "title", type: "str" },
    ],
    opa: true,
    generate_tests: true,
    operations,
  };
}

function build(resource: object) {
  const config = be.schema.parse({ module: "store", auth, resources: [resource] });
  const store = buildStore(be, config, registry, undefined);
  const files = new Map(renderStore(be, config, store, undefined).files.map((file) => [file.path, file.content]));
  return { config, store, files };
}

test("a package's read of one row at /{pk} gives create its Location and the tests their fetch, as get does", () => {
  const shown = build(article([{ name: "show_article", type: "show" }, "create", "update", "delete"])).files;
  const located = /response\.headers\["location"\]/;
  assert.match(shown.get("store/routes/article.py")!, /response\.headers\["Location"\]/);
  assert.match(shown.get("store/tests/test_article.py")!, located);
  const unshown = build(article(["create", "update", "delete"])).files;
  assert.doesNotMatch(unshown.get("store/routes/article.py")!, /Location/);
  assert.doesNotMatch(unshown.get("store/tests/test_article.py")!, located);
});

test("OPA's rows of a model come from a package's read and are named after it", () => {
  const { config, store } = build(article([{ name: "show_article", type: "show" }, "create"]));
  assert.deepEqual(
    visibilityRules(config, store).map(({ model, opa }) => ({ model, opa })),
    [{ model: "shop.models.Article", opa: { resource: "article", action: "show_article" } }],
  );
  const writesOnly = build(article(["create", "delete"]));
  assert.deepEqual(visibilityRules(writesOnly.config, writesOnly.store), []);
});

test("a package's operation that declares it yields a ListHandler takes list modifiers", () => {
  @operation("recent", { scope: "operation", dispatchOn: "type", role: ENDPOINT, registry })
  class Recent {
    static Options = ListOptions.safeExtend({ type: z.literal("recent") as never }); // list's options under its own type
    static readonly yieldsListHandler = true;
    static route = List.route;
    build(ctx: BuildContext<ProjectConfig>, options: ListOptions): unknown[] {
      return new List().build(ctx, options);
    }
  }
  void Recent; // registered by its decorator
  const title = { name: "title", values: "free_text" };
  const recent = (...modifiers: object[]) => ({ ...article([{ name: "recent", type: "recent", modifiers }]), opa: false });
  assert.match(build(recent({ type: "filter", fields: [title] })).files.get("store/routes/article.py")!, /"\/search"/);
  // The modifiers' own checks run: they run only on an entry that yields a ListHandler.
  assert.throws(() => build(recent({ type: "filter", fields: [title] }, { type: "filter", fields: [title] })), (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(error.issues.some((issue) => issue.path === "resources[0].operations[0].modifiers[1].type"), JSON.stringify(error.issues));
    return true;
  });
});

test("a package's route that declares it creates rows makes the rows references need, as create's does", () => {
  @operation("add", { scope: "operation", dispatchOn: "type", role: ENDPOINT, registry })
  class Add {
    static Options = CrudOptions;
    static route(): Route {
      return { ...Create.route(), creates: true };
    }
    build(ctx: BuildContext<ProjectConfig>, options: CrudOptions): unknown[] {
      return new Create().build(ctx, options);
    }
  }
  void Add; // registered by its decorator
  const author = (operations: unknown[]) => ({ model: "shop.models.Author", fields: [{ name: "id", type: "uuid" }], generate_tests: true, operations });
  const book = { model: "shop.models.Book", fields: [{ name: "id", type: "uuid" }, { name: "author_id", type: "uuid", references: "author" }], generate_tests: true, operations: ["create"] };
  const project = (resources: object[]) => be.schema.parse({ module: "store", resources });
  const added = project([author(["get", { name: "add_author", type: "add" }]), book]);
  const files = new Map(renderStore(be, added, buildStore(be, added, registry, undefined), undefined).files.map((file) => [file.path, file.content]));
  assert.match(files.get("store/tests/conftest.py")!, /^def make_author\(/m);
  const readOnly = project([author(["get"]), book]);
  assert.throws(() => buildStore(be, readOnly, registry, undefined), (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.deepEqual(error.issues.map((issue) => issue.path), ["resources[1].fields[1].references"]);
    return true;
  });
});

