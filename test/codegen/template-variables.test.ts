// The variable analysis that documents every template and checks user template overrides
// (the overrides themselves: test/targets/be/user-templates.test.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { templateVariables } from "../../src/codegen/index.js";

describe("templateVariables", () => {
  it("lists the context names a template reads, with their attributes, not the names it binds", () => {
    const source = [
      "{% set local = 1 %}{% from 'x.njk' import helper %}",
      "{% for item in items %}{{ item.name }}{{ loop.index }}{{ helper(local) }}{% endfor %}",
      "{{ model.module.dotted | default('q') | replace(old, 'n') }}{% if flag is defined %}{{ model.name }}{% endif %}",
      "{% macro m(arg, kw=fallback) %}{{ arg }}{% endmacro %}{{ { key: value } }}",
    ].join("\n");
    const found = templateVariables(source).map((variable) => [variable.name, variable.attributes, variable.line]);
    assert.deepEqual(found, [
      ["items", [], 2],
      ["model", ["module.dotted", "name"], 3],
      ["old", [], 3],
      ["flag", [], 3],
      ["fallback", [], 4],
      ["value", [], 4],
    ]);
  });
});
