// Config errors of authorization: each names the path the user wrote.
import assert from "node:assert/strict";
import { test } from "node:test";
import { configIssuesOf } from "../../../src/codegen/index.js";
import { ProjectConfig } from "../../../src/targets/be/config/schema.js";

const resource = { model: "blog.models.Tag", fields: [{ name: "id", type: "uuid" }], operations: ["get", { name: "create", groups: ["editor"] }] };

function issues(config: unknown): string[] {
  const result = ProjectConfig.safeParse(config);
  assert.equal(result.success, false);
  return configIssuesOf(result.error!).map((issue) => `${issue.path}: ${issue.message}`);
}

test("groups, can and visible need the project's auth, each at its path", () => {
  const found = issues({ module: "blog", resources: [{ ...resource, visible: "blog.authz.visible", groups: ["staff"] }] });
  assert.ok(found.some((issue) => issue.startsWith("resources[0].groups: needs the project's auth")), found.join("\n"));
  assert.ok(found.some((issue) => issue.startsWith("resources[0].visible: needs the project's auth")), found.join("\n"));
  assert.ok(found.some((issue) => issue.startsWith("resources[0].operations[1].groups: needs the project's auth")), found.join("\n"));
});

test("groups with get_current_user_fn need auth.groups.fn; a claim is refused there", () => {
  const custom = { type: "jwt", get_current_user_fn: "blog.auth.current_user" };
  assert.ok(issues({ auth: custom, module: "blog", resources: [resource] }).some((issue) => issue.startsWith("auth.groups: required when routes set groups")));
  assert.ok(issues({ auth: { ...custom, groups: { claim: "roles" } }, module: "blog", resources: [resource] }).some((issue) => issue.startsWith("auth.groups.claim: groups from a token claim need the generated JWT flow")));
});

test("an empty groups list is refused at its path", () => {
  const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify" };
  assert.ok(issues({ auth, module: "blog", resources: [{ ...resource, groups: [] }] }).some((issue) => issue.startsWith("resources[0].groups: must name at least one group")));
});

test("two resources of one model with different visible rules are refused at the second", () => {
  const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify" };
  const apps = [
    { name: "public", prefix: "/public", config: { module: "pub", resources: [{ ...resource, visible: "blog.authz.visible_tags" }] } },
    { name: "admin", prefix: "/admin", config: { module: "adm", resources: [{ ...resource, visible: "blog.authz.all_tags" }] } },
  ];
  const found = issues({ auth, apps });
  assert.ok(
    found.some((issue) => issue === "apps[1].config.resources[0].visible: another resource of blog.models.Tag names blog.authz.visible_tags: a model has one visibility rule, applied to every read of it"),
    found.join("\n"),
  );
});
