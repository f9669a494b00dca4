// The generated tests of a `create` route: 201 with the new row (and its `Location` when the
// resource has a `get`), 422 for a bad body, 401 without a token.

import { createBodyFields } from "../../config/references.js";
import { creatingEntry } from "../../modules/endpoint.js";
import { pythonString } from "../../python/literals.js";
import type { Tests } from "../tests/cases.js";
import { Needs, bodyEntries, invalidValue } from "../tests/samples.js";

/** The template of its success test, beside this file. */
const TEMPLATE = "operations/create/test.py.njk";

/** `create`: 201 with the new row (and its `Location`), 422 for a bad body, 401. */
export function createTests(tests: Tests): void {
  const { view } = tests;
  // The factories make bodies for the resource's first entry that creates rows; this one's tests use them.
  const fields = createBodyFields(view.config, creatingEntry(view.store, view.id)?.entry) ?? [];
  const bodyFactory = `${view.name}_body`;
  const sent = bodyEntries(fields, "create", "created", tests.target.keys, new Needs()).map((entry) => entry.name);
  const read = tests.readNames;
  const located = tests.target.fetchesRow;
  const needs = new Needs();
  needs.factory(bodyFactory);
  const compared = sent.filter((name) => read.has(name));
  tests.add(TEMPLATE, "", `\`\`${tests.route}\`\` answers 201 with the new ${tests.label}${located ? " and its ``Location``" : ""}.`, needs, {
    expect: {
      body_factory: bodyFactory,
      compare_all: compared.length === sent.length && sent.length > 0,
      compared: compared.length > 0 && compared.length < sent.length ? `${compared.map(pythonString).join(", ")}${compared.length === 1 ? "," : ""}` : "",
      located,
    },
  });
  const bad = fields.find((field) => field.required) ?? fields[0];
  const invalidNeeds = new Needs();
  if (bad) invalidNeeds.factory(bodyFactory);
  tests.invalid(
    "_rejects_a_bad_body",
    bad,
    invalidNeeds,
    bad
      ? {
          setup: [{ kind: "assign", variable: "body", value: `{**await ${bodyFactory}(), ${pythonString(bad.name)}: ${invalidValue(bad.type)}}` }],
          request: tests.request("PATH", "body"),
        }
      : { request: tests.request("PATH", "[]") },
  );
  tests.unauthorized("PATH", "{}");
}
