// The generated tests of an `update` route: a change is kept, 404 for a key no row has, 422
// for a bad body and for a related row's key no row has, 401 without a token.

import { type CrudOptions, isScalar } from "../../config/schema.js";
import { type RelationField, isRelation, relatedResource, writeFields } from "../../modules/bodies.js";
import { modelRef, resourceLabel } from "../../resource.js";
import { columnRuled, valueType } from "../../python/annotations.js";
import { pythonString } from "../../python/literals.js";
import { type Tests, sharedTemplate } from "../tests/cases.js";
import { Needs, invalidValue, sampleValue } from "../tests/samples.js";

/** The template of its success test, beside this file. */
const TEMPLATE = "operations/update/test.py.njk";

/** `update`: the change is kept, 404, 422 for a bad body, 401. */
export function updateTests(tests: Tests, options: CrudOptions): void {
  const { view, target } = tests;
  const written = writeFields(view, options.fields);
  // Scalar fields only: a relation's keys name rows the tests would have to create first.
  const fields = written.filter(isScalar);
  const read = tests.readNames;
  const field = fields.find((field) => field.name !== tests.pk && field.references === undefined && field.type !== "uuid" && read.has(field.name));
  tests.addOnRow(
    TEMPLATE,
    field ? `\`\`${tests.route}\`\` changes \`\`${field.name}\`\`, and the change is kept.` : `\`\`${tests.route}\`\` answers 200 for an empty change.`,
    (needs, url) => ({
      setup: field ? [{ kind: "assign", variable: "value", value: sampleValue(valueType(field), field.name, "update", needs, columnRuled(valueType(field)) ? { model: view.model, attribute: field.name } : undefined) }] : [],
      request: tests.request(url, field ? `{${pythonString(field.name)}: value}` : "{}"),
      expect: { field: field ? pythonString(field.name) : "", fetch: target.fetchesRow && field !== undefined ? url : "" },
    }),
  );
  tests.notFound({ json: "{}" });
  const needs = new Needs();
  const { url, setup } = tests.anyRow(needs);
  const nonNull = fields.find((field) => !field.nullable && field.name !== tests.pk) ?? fields.find((field) => !field.nullable);
  const bad = nonNull ?? fields[0];
  const value = nonNull ? "None" : bad ? invalidValue(bad.type) : undefined;
  tests.invalid("_rejects_a_bad_body", bad, needs, { setup, request: tests.request(url, bad ? `{${pythonString(bad.name)}: ${value}}` : "[]") }, nonNull !== undefined);
  relationTest(tests, written.find(isRelation));
  tests.unauthorized(tests.missingUrl(), "{}");
}

/** A relation's list holding a key no related row has: 422 at that key's place. */
function relationTest(tests: Tests, relation: RelationField | undefined): void {
  if (relation === undefined) return;
  const target = relatedResource(tests.view, relation);
  const needs = new Needs();
  const { url, setup } = tests.anyRow(needs);
  let key = "0"; // serial keys start at 1
  if (target.pk_type === "uuid") {
    needs.imports.add("uuid");
    key = "str(uuid.uuid4())";
  } else if (target.pk_type === "str") {
    needs.unique = true;
    key = `unique("missing", ${needs.column({ model: modelRef(target.model), attribute: target.pk })})`;
  }
  const field = pythonString(relation.name);
  tests.add(sharedTemplate("invalid"), "_rejects_an_unknown_related_key", `\`\`${tests.route}\`\` answers 422 for a key in \`\`${relation.name}\`\` no ${resourceLabel(target)} has.`, needs, {
    setup,
    request: tests.request(url, `{${field}: [${key}]}`),
    expect: { field: `${field}, 0` },
  });
}
