import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";

import { locateJsonError } from "../../src/codegen/json-location.js";

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("locateJsonError", () => {
  it("finds nothing wrong with valid JSON", () => {
    for (const text of ['{"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"]}', " [ ] ", "0", '""', '{"":{}}\n']) {
      assert.equal(locateJsonError(text), undefined, text);
    }
  });

  const cases: [string, string, number, number, string][] = [
    ["trailing comma in an object", '{\n  "a": 1,\n}', 3, 1, 'unexpected "}"'],
    ["trailing comma in a list", "[1,\n 2,]", 2, 4, 'unexpected "]"'],
    ["unquoted key", "{ a: 1 }", 1, 3, 'unexpected "a"'],
    ["single quotes", "{'a': 1}", 1, 2, `unexpected "'"`],
    ["missing colon", '{"a" 1}', 1, 6, 'unexpected "1"'],
    ["bad literal", "[tru]", 1, 5, 'unexpected "]"'],
    ["leading zero", "[01]", 1, 3, 'unexpected "1"'],
    ["bad escape", '["\\x"]', 1, 4, 'unexpected "x"'],
    ["short unicode escape", '["\\u12"]', 1, 7, `unexpected "\\""`],
    ["raw newline in a string", '["a\nb"]', 1, 4, 'unexpected "\\n"'],
    ["content after the value", "{} {}", 1, 4, 'unexpected "{"'],
    ["a comment", '{\n  // note\n  "a": 1\n}', 2, 3, 'unexpected "/"'],
    ["unterminated string", '{"a": "b', 1, 9, "unexpected end of file"],
    ["empty text", "", 1, 1, "unexpected end of file"],
    ["missing value", '{"a": }', 1, 7, 'unexpected "}"'],
  ];
  for (const [label, text, line, column, reason] of cases) {
    it(`locates ${label} at line ${line}, column ${column}`, () => {
      assert.equal(parses(text), false);
      assert.deepEqual(locateJsonError(text), { line, column, reason });
    });
  }

  it("agrees with JSON.parse on what is valid, for any JSON value and any text", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => locateJsonError(JSON.stringify(value, null, 2)) === undefined));
    const jsonish = fc.stringMatching(/^[\s{}[\]:,"\\a-z0-9.eE+\-u]{0,24}$/);
    fc.assert(
      fc.property(jsonish, (text) => (locateJsonError(text) === undefined) === parses(text)),
      { numRuns: 2000 },
    );
  });
});
