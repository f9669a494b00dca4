// Saved views (docs/be.md#saved-views): the preset in kiln's call and ours, kiln's arguments
// named in warnings, and the config errors of entries that cannot serve a user's views, each
// at its path. test/e2e/kiln.test.ts drives the routes against PostgreSQL.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { ConfigError, type Target, discoverTargets, planGeneration } from "../../../src/codegen/index.js";
import { kilnWarnings } from "../../../src/targets/be/config/kiln.js";
import { jsonnetSnippetValue } from "../../support/jsonnet.js";

const stdlibParent = fileURLToPath(new URL("../../../src/targets/be/jsonnet", import.meta.url));
const jwt = { type: "jwt", secret_env: "JWT_SECRET", verify_credentials_fn: "shop.auth.verify_credentials" };

let dir: string;
let be: Target;
let views: Record<string, unknown>[];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "codegen-be-views-"));
  be = (await discoverTargets()).find((target) => target.name === "be")!;
  views = await jsonnetSnippetValue("(import 'be/resources/presets.libsonnet').saved_views()", [stdlibParent]);
});
after(() => rm(dir, { recursive: true, force: true }));

const article = (operations: unknown[], pkType = "uuid") => ({
  model: "shop.models.Article",
  pk_type: pkType,
  fields: [
    { name: "id", type: pkType },
    { name: "title", type: "str" },
  ],
  operations,
});

async function configError(config: object): Promise<ConfigError> {
  const configFile = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const error = await planGeneration({ target: be, configFile, outDir: join(dir, "out") }).catch((caught: unknown) => caught);
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  return error;
}

describe("resource.saved_views()", () => {
  test("writes the five routes' entries; kiln's arguments stay on the first, where a warning names each", async () => {
    assert.deepEqual(
      views.map((entry) => entry.type),
      ["view_list", "view_create", "view_get", "view_update", "view_delete"],
    );
    const kiln = await jsonnetSnippetValue(
      "(import 'kiln/resources/presets.libsonnet').saved_views('shop.serializers.dump_view', 'shop.guards.is_view_owner')",
      [stdlibParent],
    );
    assert.deepEqual(kiln[0], { name: "list_views", type: "view_list", serializer: "shop.serializers.dump_view", owner_guard: "shop.guards.is_view_owner" });
    const warnings = kilnWarnings({ module: "shop", resources: [article(["list", ...kiln])] });
    assert.deepEqual(
      warnings.map((warning) => warning.path),
      ["resources[0].operations[1].serializer", "resources[0].operations[1].owner_guard"],
    );
  });

  test("entries that cannot serve a signed-in user's views of a list are errors at their paths", async () => {
    // No auth: a view has nobody to belong to.
    const noAuth = await configError({ module: "shop", resources: [article(["list", views[0]])] });
    assert.deepEqual(noAuth.issues, [
      { path: "resources[0].operations[1].require_auth", message: "a saved view belongs to the signed-in user who saved it, but this endpoint is not authenticated: the project sets no auth" },
    ]);
    // No list entry of that name; a text key whose routes would take /views for a row.
    const noList = await configError({ module: "shop", auth: jwt, resources: [article(["get", { ...views[1], list: "list_recent" }], "str")] });
    assert.deepEqual(noList.issues, [
      { path: "resources[0].operations[1].list", message: 'names the list whose views these are, but article has no list entry "list_recent"' },
      { path: "resources[0].operations[1].type", message: "saved views live at /articles/views, which a text key's routes would take for a row: they need a uuid or int key" },
    ]);
  });
});
