// fe_root's RootConfig and the package.json built from it: defaults, and every rule
// rejecting a bad value at its exact config path.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RootConfig } from "../../../src/targets/fe_root/config.js";
import { packageJson } from "../../../src/targets/fe_root/operations/scaffold.js";
import { assertIssues, parse } from "../../helpers/schema.js";

describe("fe_root RootConfig", () => {
  test("a name alone gets every default", () => {
    assert.deepEqual(parse(RootConfig, { name: "shop-web" }), {
      name: "shop-web",
      title: "shop-web",
      backend_url: "http://127.0.0.1:8000",
      api_prefix: "/api",
      port: 5173,
      tanstack_query: true,
      node_version: "22",
    });
  });

  test("the name follows npm's rules, scopes included", () => {
    for (const name of ["shop-web", "@acme/shop-web", "shop.web", "web2"]) assert.equal(parse(RootConfig, { name }).name, name);
    const message = 'must be an npm package name like "shop-web" or "@acme/shop-web" (lowercase)';
    for (const name of ["Shop", ".hidden", "_private", "shop web", "@acme", "a/b", ""]) {
      assertIssues(RootConfig, { name }, [{ path: "name", message }]);
    }
    assertIssues(RootConfig, { name: "a".repeat(215) }, [{ path: "name", message: "must be at most 214 characters (npm's limit)" }]);
  });

  test("backend_url is an http(s) origin", () => {
    assert.equal(parse(RootConfig, { name: "w", backend_url: "https://api.example.com:8443" }).backend_url, "https://api.example.com:8443");
    const message = 'must be an http(s) origin without a path or trailing "/", like "http://127.0.0.1:8000"';
    for (const backend_url of ["http://127.0.0.1:8000/", "http://127.0.0.1:8000/api", "ftp://host", "localhost:8000"]) {
      assertIssues(RootConfig, { name: "w", backend_url }, [{ path: "backend_url", message }]);
    }
  });

  test("api_prefix, port, title and node_version are checked with their own messages", () => {
    assertIssues(RootConfig, { name: "w", api_prefix: "/api/" }, [
      { path: "api_prefix", message: 'must be a URL path like "/api": starting with "/", without a trailing "/"' },
    ]);
    assertIssues(RootConfig, { name: "w", api_prefix: "api" }, [
      { path: "api_prefix", message: 'must be a URL path like "/api": starting with "/", without a trailing "/"' },
    ]);
    assertIssues(RootConfig, { name: "w", port: 80 }, [{ path: "port", message: "must be from 1024 to 65535" }]);
    assertIssues(RootConfig, { name: "w", port: 70000 }, [{ path: "port", message: "must be from 1024 to 65535" }]);
    assertIssues(RootConfig, { name: "w", port: 5173.5 }, [{ path: "port", message: "Invalid input: expected int, received number" }]);
    assertIssues(RootConfig, { name: "w", title: "<Shop>" }, [
      { path: "title", message: 'must be non-empty printable text without " \\ < > { } or &' },
    ]);
    assertIssues(RootConfig, { name: "w", node_version: "18" }, [
      { path: "node_version", message: 'must be a Node.js version from 20 on, like "22" or "22.12.0"' },
    ]);
    assert.equal(parse(RootConfig, { name: "w", node_version: "22.12.0" }).node_version, "22.12.0");
  });

  test("unknown keys are reported with every other problem", () => {
    assertIssues(RootConfig, { name: "w", proxy: "/api", port: "5173" }, [
      { path: "port", message: "Invalid input: expected number, received string" },
      { path: "proxy", message: "unknown key" },
    ]);
  });
});

describe("package.json", () => {
  test("has the scripts the README names and pins every dependency exactly", () => {
    const manifest = JSON.parse(packageJson(parse(RootConfig, { name: "@acme/web" })));
    assert.equal(manifest.name, "@acme/web");
    assert.deepEqual(Object.keys(manifest.scripts), ["dev", "build", "preview", "typecheck", "format", "format:check", "openapi-ts"]);
    assert.equal(manifest.scripts.typecheck, "tsc --noEmit");
    assert.ok("@tanstack/react-query" in manifest.dependencies);
    for (const version of [...Object.values(manifest.dependencies), ...Object.values(manifest.devDependencies)]) {
      assert.match(version as string, /^\d+\.\d+\.\d+$/, "an exact version");
    }
  });

  test("leaves TanStack Query and React Router (the pages' router) out when the config does", () => {
    const manifest = JSON.parse(packageJson(parse(RootConfig, { name: "web", tanstack_query: false })));
    assert.deepEqual(Object.keys(manifest.dependencies), ["react", "react-dom"]);
  });
});
