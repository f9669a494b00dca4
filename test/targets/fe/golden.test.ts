// Golden trees of the fe target: the `openapi-ts.config.ts` of a front end, and with
// `pages` the blog's pages, compared byte for byte with test/golden/fe/. Regenerate with
// `npm run golden:update`.

import { join } from "node:path";
import { test } from "node:test";
import { assertGolden } from "../../helpers/golden.js";
import { repoRoot } from "../../helpers/user-project.js";

const configs = join(repoRoot, "test", "targets", "fe", "configs");

for (const name of ["minimal", "query", "pages"]) {
  test(`fe: the ${name} config matches its golden files byte for byte`, async (t) => {
    await assertGolden(t, "fe", name, join(configs, `${name}.jsonnet`));
  });
}
