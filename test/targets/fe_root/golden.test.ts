// Golden trees of the fe_root target: the scaffold a new front end starts with,
// compared byte for byte with test/golden/fe_root/. Regenerate with `npm run golden:update`.

import { join } from "node:path";
import { test } from "node:test";
import { assertGolden } from "../../helpers/golden.js";
import { repoRoot } from "../../helpers/user-project.js";

const configs = join(repoRoot, "test", "targets", "fe_root", "configs");

for (const name of ["shop-web", "admin"]) {
  test(`fe_root: the ${name} scaffold matches its golden files byte for byte`, async (t) => {
    await assertGolden(t, "fe_root", name, join(configs, `${name}.jsonnet`));
  });
}
