// The generated tests of an `action` route: it runs the function, 404 for a key no row has
// (instance actions), 422 for bad params, 401 without a token.

import type { ActionOptions, ScalarField } from "../../config/schema.js";
import { pythonString } from "../../python/literals.js";
import { TYPE_WORDS, type Tests } from "../tests/cases.js";
import type { SetupStep } from "../tests/outputs.js";
import { Needs, bodyEntries, dictLiteral, invalidValue } from "../tests/samples.js";

/** The tests of an `action` entry: it runs the function, 404, 422 for bad params, 401. */
export function actionTests(tests: Tests, options: ActionOptions): void {
  const { target } = tests;
  const instance = options.target === "instance";
  const params = options.params as ScalarField[];
  const suffix = `/${options.slug}`;
  const fn = `\`\`${options.fn}\`\``;
  const collectionUrl = `f"{PATH}${suffix}"`;
  if (!instance || target.canCreate) {
    const needs = new Needs();
    const setup: SetupStep[] = instance ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "created", target.keys, needs);
    if (params.length > 0) setup.push({ kind: "assign", variable: "params", value: dictLiteral(entries) });
    tests.add("action", "", `\`\`${tests.route}\`\` runs ${fn}, answering ${options.status_code}.`, needs, {
      setup,
      request: tests.request(instance ? tests.rowUrl(suffix) : collectionUrl, params.length > 0 ? "params" : undefined),
      expect: { status: options.status_code, response: options.response, instance },
    });
  }
  if (instance) {
    const needs = new Needs();
    const setup: SetupStep[] = params.length > 0 ? [{ kind: "assign", variable: "params", value: dictLiteral(bodyEntries(params, "create", "placeholder", target.keys, needs)) }] : [];
    tests.notFound(params.length > 0 ? "params" : undefined, setup, needs, suffix);
  }
  const bad = params.find((param) => param.required) ?? params[0];
  if (bad) {
    const needs = new Needs();
    const url = instance ? (target.canCreate ? tests.rowUrl(suffix) : tests.missingUrl(suffix)) : collectionUrl;
    const setup: SetupStep[] = instance && target.canCreate ? [tests.makeRow(needs)] : [];
    const entries = bodyEntries(params, "create", "placeholder", target.keys, needs).map((entry) =>
      entry.name === bad.name ? { name: entry.name, value: invalidValue(bad.type) } : entry,
    );
    if (!entries.some((entry) => entry.name === bad.name)) entries.push({ name: bad.name, value: invalidValue(bad.type) });
    setup.push({ kind: "assign", variable: "params", value: dictLiteral(entries) });
    tests.add("invalid", "_rejects_bad_params", `\`\`${tests.route}\`\` answers 422 when \`\`${bad.name}\`\` is not ${TYPE_WORDS[bad.type]}.`, needs, {
      setup,
      request: tests.request(url, "params"),
      expect: { field: pythonString(bad.name) },
    });
  }
  const authNeeds = new Needs();
  const url = instance ? tests.missingUrl(suffix) : collectionUrl;
  const json = params.length > 0 ? dictLiteral(bodyEntries(params, "create", "placeholder", target.keys, authNeeds)) : undefined;
  tests.unauthorized(url, json, authNeeds);
}
