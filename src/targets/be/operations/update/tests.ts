// The generated tests of an `update` route: a change is kept, 404 for a key no row has, 422
// for a bad body, 401 without a token.

import type { CrudOptions } from "../../config/schema.js";
import { writeFields } from "../../modules/bodies.js";
import { columnRuled } from "../../python/annotations.js";
import { pythonString } from "../../python/literals.js";
import { TYPE_WORDS, type Tests } from "../tests/cases.js";
import type { SetupStep } from "../tests/outputs.js";
import { Needs, invalidValue, sampleValue } from "../tests/samples.js";

/** `update`: the change is kept, 404, 422 for a bad body, 401. */
export function updateTests(tests: Tests, options: CrudOptions): void {
  const { view, target } = tests;
  const fields = writeFields(view, options.fields);
  const read = tests.readNames;
  const changeable = fields.filter((field) => field.name !== tests.pk && field.references === undefined && field.type !== "uuid" && read.has(field.name));
  const hasGet = target.fetchesRow;
  if (target.canCreate) {
    const needs = new Needs();
    const field = changeable[0];
    const setup: SetupStep[] = [tests.makeRow(needs)];
    if (field) setup.push({ kind: "assign", variable: "value", value: sampleValue(field.type, field.name, "update", needs, columnRuled(field.type) ? { model: view.model, attribute: field.name } : undefined) });
    tests.add(
      "update",
      "",
      field ? `\`\`${tests.route}\`\` changes \`\`${field.name}\`\`, and the change is kept.` : `\`\`${tests.route}\`\` answers 200 for an empty change.`,
      needs,
      {
        setup,
        request: tests.request(tests.rowUrl(), field ? `{${pythonString(field.name)}: value}` : "{}"),
        expect: { field: field ? pythonString(field.name) : "", fetch: hasGet && field !== undefined ? tests.rowUrl() : "" },
      },
    );
  }
  tests.notFound("{}");
  const needs = new Needs();
  const url = target.canCreate ? tests.rowUrl() : tests.missingUrl();
  const setup = target.canCreate ? [tests.makeRow(needs)] : [];
  const nonNull = fields.find((field) => !field.nullable && field.name !== tests.pk) ?? fields.find((field) => !field.nullable);
  const bad = nonNull ?? fields[0];
  const value = nonNull ? "None" : bad ? invalidValue(bad.type) : undefined;
  tests.add(
    "invalid",
    "_rejects_a_bad_body",
    bad
      ? `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is ${nonNull ? "null" : `not ${TYPE_WORDS[bad.type]}`}.`
      : `\`\`${tests.route}\`\` answers 422 for a body that is not an object.`,
    needs,
    { setup, request: tests.request(url, bad ? `{${pythonString(bad.name)}: ${value}}` : "[]"), expect: { field: bad ? pythonString(bad.name) : "" } },
  );
  tests.unauthorized(tests.missingUrl(), "{}");
}
