// Golden trees: the blog example's generated backend (single-app, multi-app, with each
// auth flow: JWT, and a get_current_user_fn of its own; with rate limits; with
// telemetry; with hooks and serializers; written as a kiln config) and the lending
// library's, compared byte for byte with the files under test/golden/be/. A template change shows up here as a diff to read like a user would.
// Regenerate with `npm run golden:update`.

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { assertGolden, assertSameTree, generateInto } from "../../helpers/golden.js";
import { repoRoot } from "../../helpers/user-project.js";

const example = join(repoRoot, "examples/blog/config");

const TREES = [
  ["blog-single", join(example, "project.jsonnet")],
  ["blog-multi", join(example, "multi.jsonnet")],
  ["blog-auth", join(example, "auth.jsonnet")],
  ["blog-auth-custom", join(example, "auth_custom.jsonnet")],
  ["blog-authz", join(example, "authz.jsonnet")],
  ["blog-sessions", join(example, "sessions.jsonnet")],
  ["blog-opa", join(example, "opa.jsonnet")],
  ["blog-rate-limited", join(example, "rate_limited.jsonnet")],
  ["blog-telemetry", join(example, "telemetry.jsonnet")],
  ["blog-comms", join(example, "comms.jsonnet")],
  ["blog-hooks", join(example, "hooks.jsonnet")],
  ["blog-kiln", join(example, "kiln.jsonnet")],
  ["library", join(repoRoot, "examples/library/config/library.jsonnet")],
] as const;

for (const [name, config] of TREES) {
  test(`the ${name} tree matches its golden files byte for byte`, async (t) => {
    await assertGolden(t, "be", name, config);
  });
}

test("generating twice gives byte-identical trees", async () => {
  const config = join(example, "project.jsonnet");
  const [first, second] = [await generateInto("be", config), await generateInto("be", config)];
  try {
    await assertSameTree(second, first, "the first run's tree");
  } finally {
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  }
});
