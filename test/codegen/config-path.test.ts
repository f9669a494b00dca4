import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";

import { configIssuesOf, formatConfigPath } from "../../src/codegen/config-path.js";

describe("formatConfigPath", () => {
  it("joins keys with dots and puts indexes in brackets", () => {
    assert.equal(formatConfigPath(["apps", 0, "config", "resources", 2, "fields", 0, "type"]), "apps[0].config.resources[2].fields[0].type");
  });

  it("starts from a base path", () => {
    assert.equal(formatConfigPath(["fields", 1], "resources[2]"), "resources[2].fields[1]");
    assert.equal(formatConfigPath([3], "apps"), "apps[3]");
    assert.equal(formatConfigPath([], "apps[0]"), "apps[0]");
  });

  it("gives an empty path for the root and a bare index for a root list", () => {
    assert.equal(formatConfigPath([]), "");
    assert.equal(formatConfigPath([0, "name"]), "[0].name");
  });

  it("writes numeric-looking string keys as keys, not indexes", () => {
    assert.equal(formatConfigPath(["codes", "404"]), "codes.404");
  });

  it("writes symbol keys by their description", () => {
    assert.equal(formatConfigPath(["a", Symbol("meta")]), "a.Symbol(meta)");
  });
});

describe("configIssuesOf", () => {
  const Schema = z.strictObject({
    name: z.string(),
    items: z.array(z.strictObject({ size: z.int().positive() })),
  });

  const issuesOf = (value: unknown, base?: string) => {
    const result = Schema.safeParse(value);
    assert.equal(result.success, false);
    return configIssuesOf(result.error!, base);
  };

  it("gives one issue per problem, each with its path and zod's message", () => {
    const issues = issuesOf({ name: 3, items: [{ size: 1 }, { size: -1 }] });
    assert.deepEqual(
      issues.map((issue) => issue.path),
      ["name", "items[1].size"],
    );
    assert.match(issues[0].message, /expected string/);
    assert.match(issues[1].message, /too small|>0/i);
  });

  it("gives one issue per unknown key, at the key's own path", () => {
    const issues = issuesOf({ name: "n", items: [{ size: 1, colour: "red", shape: 1 }], extra: true });
    assert.deepEqual(issues, [
      { path: "items[0].colour", message: "unknown key" },
      { path: "items[0].shape", message: "unknown key" },
      { path: "extra", message: "unknown key" },
    ]);
  });

  it("prefixes paths with a base", () => {
    assert.deepEqual(
      issuesOf({ name: "n", items: [{ size: 0 }] }, "apps[1].config").map((issue) => issue.path),
      ["apps[1].config.items[0].size"],
    );
  });

  it("uses an empty path for a problem with the root itself", () => {
    const issues = issuesOf("not an object");
    assert.equal(issues.length, 1);
    assert.equal(issues[0].path, "");
  });
});
