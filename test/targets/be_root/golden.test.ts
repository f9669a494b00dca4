// Golden trees of the be_root target: the scaffold a new backend project starts with,
// compared byte for byte with test/golden/be_root/. Regenerate with `npm run golden:update`.

import { join } from "node:path";
import { test } from "node:test";
import { assertGolden } from "../../helpers/golden.js";
import { repoRoot } from "../../helpers/user-project.js";

const configs = join(repoRoot, "test", "targets", "be_root", "configs");

for (const name of ["shop", "shop-auth", "shop-opa"]) {
  test(`be_root: the ${name} scaffold matches its golden files byte for byte`, async (t) => {
    await assertGolden(t, "be_root", name, join(configs, `${name}.jsonnet`));
  });
}
