// fe's ProjectConfig and the openapi-ts config built from it: defaults, the plugin list,
// and every rule rejecting a bad value at its exact config path.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProjectConfig } from "../../../src/targets/fe/config.js";
import { pluginEntries } from "../../../src/targets/fe/operations/openapi-ts-config.js";
import { assertIssues, parse } from "../../helpers/schema.js";

describe("fe ProjectConfig", () => {
  test("an input alone gets every default; base_url stays unset", () => {
    assert.deepEqual(parse(ProjectConfig, { input: "openapi.json" }), {
      input: "openapi.json",
      output: "src/client",
      client: "@hey-api/client-fetch",
      tanstack_query: false,
      pages_model: undefined,
    });
  });

  test("input is a file path or an http(s) URL", () => {
    for (const input of ["openapi.json", "../backend/openapi.yaml", "/srv/spec.json", "http://127.0.0.1:8000/openapi.json", "https://api.example.com/openapi.json"]) {
      assert.equal(parse(ProjectConfig, { input }).input, input);
    }
    assertIssues(ProjectConfig, { input: "ftp://example.com/openapi.json" }, [
      { path: "input", message: 'must be an http:// or https:// URL, or a file path like "openapi.json"' },
    ]);
    assertIssues(ProjectConfig, { input: "http://" }, [
      { path: "input", message: 'must be an http:// or https:// URL, or a file path like "openapi.json"' },
    ]);
    assertIssues(ProjectConfig, { input: "" }, [{ path: "input", message: "must be a URL or a file path (non-empty, printable)" }]);
    assertIssues(ProjectConfig, {}, [{ path: "input", message: "Invalid input: expected string, received undefined" }]);
  });

  test("output must be a directory of its own inside the project", () => {
    assert.equal(parse(ProjectConfig, { input: "a.json", output: "src/api/generated" }).output, "src/api/generated");
    const cases: [string, string][] = [
      [".", "must name a directory of its own: openapi-ts empties it on every run"],
      ["./", "must name a directory of its own: openapi-ts empties it on every run"],
      ["", "must be a non-empty relative path"],
      ["/tmp/client", 'must be a relative path with "/" separators, like "src/client"'],
      ["C:/client", 'must be a relative path with "/" separators, like "src/client"'],
      ["src\\client", 'must be a relative path with "/" separators, like "src/client"'],
      ["../shared/client", 'must stay inside the project (no ".." segments)'],
      ["src/../../client", 'must stay inside the project (no ".." segments)'],
    ];
    for (const [output, message] of cases) assertIssues(ProjectConfig, { input: "a.json", output }, [{ path: "output", message }]);
  });

  test("client is one of openapi-ts's client plugins", () => {
    assert.equal(parse(ProjectConfig, { input: "a.json", client: "@hey-api/client-axios" }).client, "@hey-api/client-axios");
    const [issue] = ProjectConfig.safeParse({ input: "a.json", client: "fetch" }).error!.issues;
    assert.deepEqual(issue!.path, ["client"]);
    assert.match(issue!.message, /"@hey-api\/client-fetch"\|"@hey-api\/client-axios"/);
  });

  test("base_url is a path, an http(s) URL, or false", () => {
    for (const base_url of ["/api", "/", "http://127.0.0.1:8000", "https://api.example.com/v1", false] as const) {
      assert.equal(parse(ProjectConfig, { input: "a.json", base_url }).base_url, base_url);
    }
    const message = 'must be a path like "/api", an http(s):// URL, or false';
    for (const base_url of ["api", "", "ws://example.com", "/a b", true, 3]) {
      assertIssues(ProjectConfig, { input: "a.json", base_url }, [{ path: "base_url", message }]);
    }
  });

  test("unknown keys are reported with their path", () => {
    assertIssues(ProjectConfig, { input: "a.json", tanstack: true, plugins: [] }, [
      { path: "tanstack", message: "unknown key" },
      { path: "plugins", message: "unknown key" },
    ]);
  });
});

describe("openapi-ts plugins", () => {
  const config = (extra: Record<string, unknown>) => parse(ProjectConfig, { input: "a.json", ...extra });

  test("the client plugin comes first; types and SDK always follow", () => {
    assert.deepEqual(pluginEntries(config({})), ['"@hey-api/client-fetch"', '"@hey-api/typescript"', '"@hey-api/sdk"']);
  });

  test("a base URL turns the client entry into an object; false disables the spec's server", () => {
    assert.equal(pluginEntries(config({ base_url: "/api" }))[0], '{ name: "@hey-api/client-fetch", baseUrl: "/api" }');
    assert.equal(pluginEntries(config({ base_url: false, client: "@hey-api/client-ky" }))[0], '{ name: "@hey-api/client-ky", baseUrl: false }');
  });

  test("tanstack_query adds the TanStack Query plugin last", () => {
    assert.deepEqual(pluginEntries(config({ tanstack_query: true })).at(-1), '"@tanstack/react-query"');
    assert.equal(pluginEntries(config({ tanstack_query: true })).length, 4);
  });
});
