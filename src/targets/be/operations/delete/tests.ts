// The generated tests of a `delete` route: 204 and the row is gone, 404 for a key no row has,
// 401 without a token.

import type { Tests } from "../tests/cases.js";
import { Needs } from "../tests/samples.js";

/** `delete`: 204 and the row is gone, 404, 401. */
export function deleteTests(tests: Tests): void {
  if (tests.target.canCreate) {
    const needs = new Needs();
    const hasGet = tests.target.fetchesRow;
    tests.add("delete", "", `\`\`${tests.route}\`\` answers 204, and the ${tests.label} is gone.`, needs, {
      setup: [tests.makeRow(needs)],
      request: tests.request(tests.rowUrl()),
      expect: { url: tests.rowUrl(), get: hasGet },
    });
  }
  tests.notFound();
  tests.unauthorized(tests.missingUrl());
}
