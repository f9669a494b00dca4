// OPA authorization (`auth.opa`, cascading `opa: true`) through the real pipeline: which
// handlers ask the policy and how, the project-level module and its router, and the config
// errors, each at the path the user wrote. The e2e test (test/e2e/opa.test.ts) runs it.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ConfigError, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";

let dir: string;
let be: Target;
let configs = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-opa-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

const opa = { decision: "shop/authz/allow" };
const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials", opa };
const article = (extra: object = {}) => ({
  model: "shop.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
  ],
  operations: ["get", "list", "create", "update", "delete", { name: "publish", type: "action", fn: "shop.actions.publish", target: "instance" }],
  ...extra,
});

async function plan(config: object): Promise<Map<string, string> | ConfigError> {
  const configFile = join(dir, `config-${(configs += 1)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  try {
    const result = await planGeneration({ target: be, configFile, outDir: join(dir, "out") });
    return new Map(result.files.map((file) => [file.path, file.content]));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

async function files(config: object): Promise<Map<string, string>> {
  const result = await plan(config);
  assert.ok(result instanceof Map, `expected files, got ${String(result)}`);
  return result;
}

async function issues(config: object): Promise<string[]> {
  const result = await plan(config);
  assert.ok(result instanceof ConfigError, "expected a ConfigError");
  return result.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

test("a resource's opa: true makes each route ask the policy about the row or without one, and OPA's rows its model's rule", async () => {
  const generated = await files({ module: "store", auth, resources: [article({ opa: true })] });
  const routes = generated.get("store/routes/article.py")!;
  // Which rows exist is the model's rule, applied by the ORM to every read: get and lists ask nothing of their own.
  assert.match(generated.get("policy.py")!, /^ARTICLE_ROWS = OPA\.rows\(RowPolicy\("article", "get", Article\)\)$/m);
  assert.match(generated.get("visibility.py")!, /^\s+Article: visible_rows\(ARTICLE_ROWS\),$/m);
  assert.match(generated.get("db/default_session.py")!, /^ {4}from visibility import ROW_VISIBILITY$/m);
  assert.doesNotMatch(routes, /_POLICY_ROWS|policy\.visible|policy\.require\("get"/);
  assert.match(routes, /await policy\.require\("create", "article"\)\n/);
  assert.match(routes, /await policy\.require\("update", "article", article\)\n/);
  assert.match(routes, /await policy\.require\("delete", "article", article\)\n\s+await session\.execute\(delete/);
  assert.match(routes, /await policy\.require\("publish", "article", article\)/);
  assert.ok(generated.has("policy.py") && generated.has("runtime/opa.py") && generated.has("runtime/opa_filter.py") && generated.has("auth/groups.py"));
  assert.match(generated.get("store/routes/__init__.py")!, /^router\.include_router\(policy_router\)$/m);
  assert.match(generated.get("policy.py")!, /decision="shop\/authz\/allow",\n\s+timeout_seconds=1\.0,\n\s+fail_open=False,/);
  // The policy's input carries the user's groups: the token endpoint writes the claim groups.py reads.
  assert.match(generated.get("auth/dependencies.py")!, /^GROUP_CLAIM = "groups"$/m);
  assert.match(generated.get("auth/groups.py")!, /^from auth\.dependencies import GROUP_CLAIM, AuthenticatedUser$/m);
});

test("OPA's rows are asked under the entry that reads one row, or else the first that reads the collection", async () => {
  const named = await files({ module: "store", auth, resources: [article({ opa: true, operations: [{ name: "list_recent", type: "list" }, { name: "read_one", type: "get" }] })] });
  assert.match(named.get("policy.py")!, /^ARTICLE_ROWS = OPA\.rows\(RowPolicy\("article", "read_one", Article\)\)$/m);
  const listOnly = await files({ module: "store", auth, resources: [article({ opa: true, operations: [{ name: "list_recent", type: "list" }, "create"] })] });
  assert.match(listOnly.get("policy.py")!, /^ARTICLE_ROWS = OPA\.rows\(RowPolicy\("article", "list_recent", Article\)\)$/m);
});

test("an entry's opa: false wins over its resource's, and routes without a user ask nothing", async () => {
  const generated = await files({
    module: "store",
    auth,
    resources: [article({ opa: true, operations: ["get", { name: "list", opa: false }, { name: "create", require_auth: false }] })],
  });
  const routes = generated.get("store/routes/article.py")!;
  // The get asks OPA, so OPA's rows are the rule of every read, the list's too.
  assert.match(generated.get("visibility.py")!, /Article: visible_rows\(ARTICLE_ROWS\)/);
  assert.doesNotMatch(routes, /_POLICY_ROWS|policy\.visible|policy\.require\("(get|list|create)"/);
  // No read asks OPA: no rows rule, no visibility module.
  const unread = await files({ module: "store", auth, resources: [article({ opa: true, operations: [{ name: "get", opa: false }, { name: "list", opa: false }, "update"] })] });
  assert.ok(!unread.has("visibility.py") && !/ROWS|visible_rows/.test(unread.get("policy.py")!));
  assert.match(unread.get("store/routes/article.py")!, /policy\.require\("update", "article", article\)/);
  // A public read of a model with OPA's rows takes the optional user: a signed-in user sees the rows the policy gives them.
  const publicList = await files({ module: "store", auth, resources: [article({ opa: true, operations: ["get", { name: "list", require_auth: false }] })] });
  assert.match(publicList.get("store/routes/article.py")!, /current_user: OptionalUser/);
  // Reads that exclude_paths makes public have no user to ask about: no rows rule either.
  const excluded = await files({ module: "store", auth: { ...auth, exclude_paths: ["/articles*"] }, resources: [article({ opa: true, operations: ["get", "list"] })] });
  assert.ok(!excluded.has("visibility.py") && !/ROWS|visible_rows/.test(excluded.get("policy.py")!));
});

test("a resource with visible and opa: true has both as its model's rule", async () => {
  const generated = await files({ module: "store", auth, resources: [article({ opa: true, visible: "shop.authz.visible_articles" })] });
  assert.match(generated.get("visibility.py")!, /^\s+Article: all_of\(shop\.authz\.visible_articles, visible_rows\(ARTICLE_ROWS\)\),$/m);
  assert.doesNotMatch(generated.get("store/routes/article.py")!, /policy\.visible|policy\.require\("get"/);
});

test("a project without opa gets no OPA line", async () => {
  const { opa: _, ...plain } = auth;
  const generated = await files({ module: "store", auth: plain, resources: [article()] });
  assert.ok(![...generated.keys()].some((path) => /opa|policy/.test(path)));
  for (const [path, content] of generated) assert.doesNotMatch(content, /\bopa\b|RequestPolicy|policy: Policy|policy\.(require|visible)/i, path);
});

test("config errors name their paths", async () => {
  const { opa: _, ...plain } = auth;
  assert.ok((await issues({ module: "store", auth: plain, resources: [article({ opa: true })] })).some((issue) => issue.startsWith("resources[0].opa: needs auth.opa")));
  assert.ok((await issues({ module: "store", auth: { ...auth, opa: { decision: "allow" } }, resources: [article()] })).some((issue) => issue.startsWith('auth.opa.decision: must be a rule path like "blog/authz/allow"')));
  assert.ok((await issues({ module: "store", auth: { ...auth, opa: { ...opa, fail: "sometimes" } }, resources: [article()] })).some((issue) => issue.startsWith("auth.opa.fail:")));
  const custom = { type: "jwt", get_current_user_fn: "shop.auth.current_user", opa };
  assert.ok((await issues({ module: "store", auth: custom, resources: [article()] })).some((issue) => issue.startsWith("auth.opa: needs the generated JWT flow")));
  const open = { module: "store", auth, resources: [article({ operations: ["get", { name: "list", opa: true, require_auth: false }] })] };
  assert.deepEqual(await issues(open), ["resources[0].operations[1].opa: asks the OPA policy, but this endpoint is not authenticated: this operation sets require_auth: false"]);
});
