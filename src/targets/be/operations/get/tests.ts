// The generated tests of a `get` route: 200 with the row (when the test can make one), 404 for a
// key no row has, 401 without a token.

import type { Tests } from "../tests/cases.js";

/** The template of its success test, beside this file. */
const TEMPLATE = "operations/get/test.py.njk";

/** `get`: 200 with the row, 404, 401. */
export function getTests(tests: Tests): void {
  tests.addOnRow(TEMPLATE, `\`\`${tests.route}\`\` answers 200 with the ${tests.label}.`, (_needs, url) => ({ request: tests.request(url) }));
  tests.notFound();
  tests.unauthorized(tests.missingUrl());
}
