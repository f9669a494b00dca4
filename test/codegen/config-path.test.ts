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

  it("reports a value that fits no option of a union with the problems of the option of its type", () => {
    const entry = z.union([z.string(), z.strictObject({ name: z.string(), size: z.int() })]);
    const result = z.array(entry).safeParse(["plain", { name: "a", size: "big", colour: 1 }]);
    assert.deepEqual(configIssuesOf(result.error!), [
      { path: "[1].size", message: "Invalid input: expected number, received string" },
      { path: "[1].colour", message: "unknown key" },
    ]);
    // Two options of its type, or a union that says what it expects: the union's own message.
    const ambiguous = z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.string() })]).safeParse({ c: 1 });
    assert.deepEqual(configIssuesOf(ambiguous.error!), [{ path: "", message: "Invalid input" }]);
    const described = z.union([z.string(), z.strictObject({ name: z.string() })], { error: "a name or { name }" }).safeParse({});
    assert.deepEqual(configIssuesOf(described.error!), [{ path: "", message: "a name or { name }" }]);
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
