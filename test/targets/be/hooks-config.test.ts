// Hooks and serializers in the config and in the generated routes: each key is refused, at
// its path, on an operation it cannot apply to or with a malformed dotted path; hooks get
// `current_user=` in projects with auth (None on a public route that does not see the user); a tree without hooks gets no
// runtime/hooks.py.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ConfigError, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";

let dir: string;
let be: Target;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-hooks-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
});
after(() => rm(dir, { recursive: true, force: true }));

async function plan(config: object) {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  return planGeneration({ target: be, configFile, outDir: join(dir, "out") });
}

const fields = [
  { name: "id", type: "uuid" },
  { name: "title", type: "str" },
];

function project(operations: unknown[], extra: object = {}) {
  return { module: "blog", resources: [{ model: "blog.models.Article", fields, operations }], ...extra };
}

async function issues(config: object): Promise<string[]> {
  const error = await plan(config).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

function assertIssue(found: string[], expected: string): void {
  assert.ok(
    found.some((issue) => issue.startsWith(expected)),
    `expected an issue starting with\n  ${expected}\ngot\n  ${found.join("\n  ")}`,
  );
}

describe("hook options", () => {
  test("pre only on create and update", async () => {
    assertIssue(await issues(project([{ name: "get", pre: "blog.hooks.p" }])), "resources[0].operations[0].pre: pre changes what a route stores from its request body; get writes nothing");
    assertIssue(await issues(project([{ name: "delete", pre: "blog.hooks.p" }])), "resources[0].operations[0].pre: pre changes what a route stores from its request body; delete has no body to change");
    assertIssue(await issues(project([{ name: "list", pre: "blog.hooks.p" }])), "resources[0].operations[0].pre: pre changes what a route stores from its request body; list writes nothing");
  });

  test("post only on create, update and delete", async () => {
    assertIssue(await issues(project([{ name: "get", post: "blog.hooks.p" }])), "resources[0].operations[0].post: post runs after a write commits; get writes nothing");
  });

  test("serializer only on routes that answer with a row, and not beside a representation", async () => {
    assertIssue(await issues(project([{ name: "delete", serializer: "blog.hooks.card" }])), "resources[0].operations[0].serializer: delete answers with no row");
    assertIssue(await issues(project([{ name: "get", serializer: "blog.hooks.card", representation: "read" }])), "resources[0].operations[0].serializer: the response is the serializer's or the representation's");
  });

  test("convention only beside a hook or a serializer, the signatures it chooses", async () => {
    assertIssue(await issues(project([{ name: "create", convention: "kiln" }])), "resources[0].operations[0].convention: says whose signatures pre, post, can and serializer have, but this entry has none of them");
    assertIssue(await issues(project([{ name: "list", convention: "codegen" }])), "resources[0].operations[0].convention: says whose signatures pre, post, can and serializer have, but this entry has none of them");
    await plan(project([{ name: "delete", convention: "kiln", post: "blog.hooks.p" }]));
    await plan(project([{ name: "get", convention: "kiln", serializer: "blog.hooks.card" }]));
  });

  test("keys unknown to actions are refused there", async () => {
    assertIssue(await issues(project([{ name: "publish", type: "action", fn: "blog.actions.publish", pre: "blog.hooks.p" }])), "resources[0].operations[0].pre: unknown key");
  });

  test("a malformed dotted path is refused at its path", async () => {
    assertIssue(await issues(project([{ name: "create", pre: "count_words" }])), 'resources[0].operations[0].pre: must be a dotted import path with a module and a name, like "blog.models.Article"');
    assertIssue(await issues(project([{ name: "update", post: "blog.class.record" }])), "resources[0].operations[0].post: has a Python keyword as one of its parts");
    assertIssue(await issues(project([{ name: "get", serializer: { fn: "blog.hooks.card", schema: "Card" } }])), "resources[0].operations[0].serializer.schema: must be a dotted import path");
    assertIssue(await issues(project([{ name: "get", serializer: { fn: "blog.hooks.card", model: "blog.hooks.Card" } }])), "resources[0].operations[0].serializer.model: unknown key");
  });

});

describe("generated hook calls", () => {
  async function files(config: object): Promise<Map<string, string>> {
    const result = await plan(config);
    return new Map(result.files.map((file) => [file.path, file.content]));
  }

  test("with auth, hooks get current_user=: the user on a protected route, None on a public one", async () => {
    const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify" };
    const tree = await files({
      ...project([
        { name: "create", pre: "blog.hooks.stamp", post: "blog.hooks.notify" },
        { name: "update", pre: "blog.hooks.stamp", require_auth: false },
        { name: "delete", post: "blog.hooks.notify" },
      ]),
      auth,
    });
    const routes = tree.get("blog/routes/article.py")!.replace(/\s+/g, " ");
    assert.match(routes, /values = await before_write\( blog\.hooks\.stamp, body\.model_dump\(\), session=session, current_user=current_user \)/);
    assert.match(routes, /await after_commit\( blog\.hooks\.notify, article, session=session, current_user=current_user \)/);
    assert.match(routes, /row=article, session=session, current_user=None,? \)/);
    assert.match(routes, / import blog\.hooks /);
    assert.ok(tree.has("runtime/hooks.py"));
  });

  test("a public route that sees the signed-in user (a resource with visible) passes it on, not None", async () => {
    const auth = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "blog.auth.verify" };
    const operations = [{ name: "update", pre: "blog.hooks.stamp", post: "blog.hooks.notify", require_auth: false }];
    const config = { module: "blog", auth, resources: [{ model: "blog.models.Article", fields, visible: "blog.authz.visible", operations }] };
    const routes = (await files(config)).get("blog/routes/article.py")!.replace(/\s+/g, " ");
    assert.match(routes, /current_user: OptionalUser/);
    assert.match(routes, /row=article, session=session, current_user=current_user,? \)/);
    assert.match(routes, /await after_commit\( blog\.hooks\.notify, article, session=session, current_user=current_user \)/);
    assert.doesNotMatch(routes, /current_user=None/);
  });

  test("without hooks there is no runtime/hooks.py and no hook call", async () => {
    const tree = await files(project(["get", "list", "create", "update", "delete"]));
    assert.ok(!tree.has("runtime/hooks.py"));
    assert.ok(![...tree.values()].some((content) => /before_write|after_commit/.test(content)));
  });
});
