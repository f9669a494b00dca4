// The one inheritance rule of the `be` target: an operation entry's own setting wins, then
// its resource's, its app's, then the project's (which has the default). Tested once here
// for every cascading key, on a parsed config walked by the real engine's store.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BuildStore, discoverScopes } from "../../../src/codegen/index.js";
import { cascadeSource, cascaded } from "../../../src/targets/be/cascade.js";
import { ProjectConfig } from "../../../src/targets/be/config/schema.js";

const resource = (model: string, extra: object = {}) => ({
  model,
  fields: [{ name: "id", type: "uuid" }],
  operations: ["get", { name: "list", require_auth: false, generate_tests: true }],
  ...extra,
});

function storeOf(config: ProjectConfig): BuildStore {
  const store = new BuildStore(discoverScopes(ProjectConfig));
  store.registerInstance("project", config);
  config.apps.forEach((app, a) => {
    store.registerInstance(`project.apps.${a}`, app);
    app.config.resources.forEach((res, r) => {
      store.registerInstance(`project.apps.${a}.resources.${r}`, res);
      res.operations.forEach((entry, o) => store.registerInstance(`project.apps.${a}.resources.${r}.operations.${o}`, entry));
    });
  });
  return store;
}

describe("cascaded settings", () => {
  for (const key of ["require_auth", "generate_tests"] as const) {
    test(`${key}: operation, then resource, then app, then project`, () => {
      const config = ProjectConfig.parse({
        [key]: false,
        apps: [
          { config: { module: "a", resources: [resource("a.models.Plain"), resource("a.models.Own", { [key]: true })] } },
          { config: { module: "b", [key]: true, resources: [resource("b.models.Plain"), resource("b.models.Own", { [key]: false })] } },
        ],
      });
      const store = storeOf(config);
      const at = (id: string) => [cascaded(store, id, config, key), cascadeSource(store, id, key)];
      // The project's value where nothing below sets one.
      assert.deepEqual(at("project.apps.0.resources.0.operations.0"), [false, "the project"]);
      assert.deepEqual(at("project.apps.0.resources.0"), [false, "the project"]);
      // A resource's value over the project's; an entry's own over everything.
      assert.deepEqual(at("project.apps.0.resources.1.operations.0"), [true, "its resource"]);
      const own = key === "require_auth" ? false : true;
      assert.deepEqual(at("project.apps.0.resources.1.operations.1"), [own, "this operation"]);
      // An app's value over the project's, and under its resource's.
      assert.deepEqual(at("project.apps.1.resources.0.operations.0"), [true, "its app"]);
      assert.deepEqual(at("project.apps.1.resources.1.operations.0"), [false, "its resource"]);
      assert.deepEqual(at("project.apps.1"), [true, "its app"]);
    });
  }

  test("rate_limit: the nearest level that sets it wins whole, and false turns limits off below it", () => {
    const config = ProjectConfig.parse({
      rate_limit: "100/minute",
      apps: [
        {
          config: {
            module: "a",
            resources: [
              resource("a.models.Open", { rate_limit: false, operations: ["get", { name: "list", rate_limit: { limit: "5/second;50/hour", key: "user" } }] }),
              resource("a.models.Plain", { operations: ["get"] }),
            ],
          },
        },
      ],
    });
    const store = storeOf(config);
    const at = (id: string) => [cascaded(store, id, config, "rate_limit"), cascadeSource(store, id, "rate_limit")];
    assert.deepEqual(at("project.apps.0.resources.0.operations.0"), [false, "its resource"]);
    // An entry's options are kept as written (its operation parses them): no defaults filled in.
    assert.deepEqual(at("project.apps.0.resources.0.operations.1"), [{ limit: "5/second;50/hour", key: "user" }, "this operation"]);
    assert.deepEqual(at("project.apps.0.resources.1.operations.0"), [{ limit: "100/minute", key: "ip", headers: true }, "the project"]);
    const unset = ProjectConfig.parse({ module: "a", resources: [resource("a.models.Plain", { operations: ["get"] })] });
    assert.equal(cascaded(storeOf(unset), "project.apps.0.resources.0.operations.0", unset, "rate_limit"), undefined);
  });

  test("the project's defaults: require_auth true, generate_tests false", () => {
    const config = ProjectConfig.parse({ module: "a", resources: [resource("a.models.Plain", { operations: ["get"] })] });
    const store = storeOf(config);
    assert.equal(cascaded(store, "project.apps.0.resources.0.operations.0", config, "require_auth"), true);
    assert.equal(cascaded(store, "project.apps.0.resources.0.operations.0", config, "generate_tests"), false);
  });
});
