// The generated tests of a `delete` route: 204 and the row is gone, 404 for a key no row has,
// 401 without a token.

import type { Tests } from "../tests/cases.js";

/** The template of its success test, beside this file. */
const TEMPLATE = "operations/delete/test.py.njk";

/** `delete`: 204 and the row is gone, 404, 401. */
export function deleteTests(tests: Tests): void {
  tests.addOnRow(TEMPLATE, `\`\`${tests.route}\`\` answers 204, and the ${tests.label} is gone.`, (_needs, url) => ({
    request: tests.request(url),
    expect: { url, get: tests.target.fetchesRow },
  }));
  tests.notFound();
  tests.unauthorized(tests.missingUrl());
}
