// be_root's RootConfig: a minimal config gets every default, derived names follow the
// project name, and every rule rejects a bad value at its exact config path.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RootConfig, packageFromName } from "../../../src/targets/be_root/config.js";
import { assertIssues, parse } from "../../helpers/schema.js";

describe("be_root RootConfig", () => {
  test("a name alone gets every default", () => {
    assert.deepEqual(parse(RootConfig, { name: "shop" }), {
      name: "shop",
      package: "shop",
      package_prefix: "shop.api",
      module: "core",
      title: "shop",
      python: "3.11",
      database_url_env: "DATABASE_URL",
      auth: false,
      opa: false,
      files: false,
    });
  });

  test("the package comes from the name in snake_case, and the prefix from the package", () => {
    assert.equal(packageFromName("Shop-Backend"), "shop_backend");
    assert.equal(packageFromName("my.shop__api"), "my_shop_api");
    const root = parse(RootConfig, { name: "Shop-Backend" });
    assert.equal(root.package, "shop_backend");
    assert.equal(root.package_prefix, "shop_backend.api");
    assert.equal(root.title, "Shop-Backend");
  });

  test("explicit values win over derived ones", () => {
    const root = parse(RootConfig, {
      name: "shop",
      package: "store",
      package_prefix: "store.http",
      module: "catalog",
      title: "Store API",
      python: "3.13",
      database_url_env: "STORE_DB",
      auth: true,
      files: true,
    });
    assert.deepEqual(root, {
      name: "shop",
      package: "store",
      package_prefix: "store.http",
      module: "catalog",
      title: "Store API",
      python: "3.13",
      database_url_env: "STORE_DB",
      auth: true,
      opa: false,
      files: true,
    });
  });

  test("opa needs auth", () => {
    assertIssues(RootConfig, { name: "shop", opa: true }, [{ path: "opa", message: "needs auth: true, since OPA decides what a signed-in user may do" }]);
    assert.equal(parse(RootConfig, { name: "shop", auth: true, opa: true }).opa, true);
  });

  test("the name is required and must be a Python project name", () => {
    assertIssues(RootConfig, {}, [{ path: "name", message: "Invalid input: expected string, received undefined" }]);
    assertIssues(RootConfig, { name: "-shop" }, [
      { path: "name", message: 'must be a Python project name like "shop" or "shop-backend" (letters, digits, ".", "_" and "-")' },
    ]);
    assertIssues(RootConfig, { name: "my shop" }, [
      { path: "name", message: 'must be a Python project name like "shop" or "shop-backend" (letters, digits, ".", "_" and "-")' },
    ]);
  });

  test("a name that makes no Python package needs package", () => {
    assertIssues(RootConfig, { name: "3d-prints" }, [
      { path: "package", message: 'required: the name "3d-prints" does not make a Python package name ("3d_prints"); set package' },
    ]);
    assertIssues(RootConfig, { name: "class" }, [
      { path: "package", message: 'required: the name "class" does not make a Python package name ("class"); set package' },
    ]);
    assert.equal(parse(RootConfig, { name: "3d-prints", package: "prints" }).package, "prints");
  });

  test("the package may not be a directory the scaffold fills", () => {
    assertIssues(RootConfig, { name: "migrations" }, [
      { path: "name", message: 'the package "migrations" would share its directory with the scaffold\'s migrations/; set package' },
    ]);
    assertIssues(RootConfig, { name: "shop", package: "config" }, [
      { path: "package", message: 'the package "config" would share its directory with the scaffold\'s config/; pick another name' },
    ]);
  });

  test("names, versions and variables are checked with their own messages", () => {
    assertIssues(RootConfig, { name: "shop", package: "Shop" }, [
      { path: "package", message: "must be lowercase snake_case (a-z, 0-9 and _, not starting with a digit)" },
    ]);
    assertIssues(RootConfig, { name: "shop", module: "import" }, [{ path: "module", message: "is a Python keyword; pick another name" }]);
    assertIssues(RootConfig, { name: "shop", package_prefix: "shop..api" }, [
      { path: "package_prefix", message: 'must be a dotted Python package like "shop.api"' },
    ]);
    assertIssues(RootConfig, { name: "shop", package_prefix: "shop.lambda" }, [
      { path: "package_prefix", message: "has a Python keyword as one of its parts" },
    ]);
    assertIssues(RootConfig, { name: "shop", python: "3.9" }, [
      { path: "python", message: 'must be a Python 3 version from 3.11 on, like "3.12"' },
    ]);
    assertIssues(RootConfig, { name: "shop", database_url_env: "DATABASE-URL" }, [
      { path: "database_url_env", message: 'must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)' },
    ]);
    assertIssues(RootConfig, { name: "shop", title: 'The "best" shop' }, [
      { path: "title", message: 'must be non-empty printable text without " or \\' },
    ]);
    assertIssues(RootConfig, { name: "shop", auth: "yes" }, [{ path: "auth", message: "Invalid input: expected boolean, received string" }]);
  });

  test("unknown keys are reported one by one, with every other problem", () => {
    assertIssues(RootConfig, { name: "shop", packge: "x", auth: 1, secret: "s" }, [
      { path: "auth", message: "Invalid input: expected boolean, received number" },
      { path: "packge", message: "unknown key" },
      { path: "secret", message: "unknown key" },
    ]);
  });
});
