// The generated tests of an `action` route: it runs the function, 404 for a key no row has
// (instance actions), 422 for bad params, 401 without a token; with a body model of the
// user's (kiln's convention), only the 401.

import type { ScalarField } from "../../config/schema.js";
import type { ActionOptions } from "./options.js";
import type { Tests } from "../tests/cases.js";
import type { SetupStep } from "../tests/outputs.js";
import { Needs, bodyEntries, dictLiteral, invalidValue } from "../tests/samples.js";

/** The template of its success test, beside this file. */
const TEMPLATE = "operations/action/test.py.njk";

/** The tests of an `action` entry: it runs the function, 404, 422 for bad params, 401. */
export function actionTests(tests: Tests, options: ActionOptions): void {
  const { target } = tests;
  const instance = options.target === "instance";
  const params = options.params as ScalarField[];
  const suffix = `/${options.slug}`;
  const collectionUrl = `f"{PATH}${suffix}"`;
  const json = params.length > 0 ? "params" : undefined;
  /** `params = {...}`, valid params (`created`: their references made first; `placeholder`: any key). */
  const paramsSetup = (needs: Needs, references: "created" | "placeholder"): SetupStep[] =>
    json ? [{ kind: "assign", variable: "params", value: dictLiteral(bodyEntries(params, "create", references, target.keys, needs)) }] : [];
  const doc = `\`\`${tests.route}\`\` runs \`\`${options.fn}\`\`, answering ${options.status_code}.`;
  // A body model of yours (kiln's convention, named or read off the function): codegen knows
  // none of its fields, so it can write no valid body, nor a request that reaches the row
  // lookup; the 401 comes first.
  if (options.body !== undefined || options.reads_signature) {
    const url = instance ? tests.missingUrl(suffix) : collectionUrl;
    tests.unauthorized(url);
    return;
  }
  const runs = (needs: Needs, url: string) => ({ setup: paramsSetup(needs, "created"), request: tests.request(url, json), expect: { status: options.status_code, response: options.response, instance } });
  if (instance) tests.addOnRow(TEMPLATE, doc, runs, suffix);
  else {
    const needs = new Needs();
    tests.add(TEMPLATE, "", doc, needs, runs(needs, collectionUrl));
  }
  if (instance) {
    const needs = new Needs();
    tests.notFound({ url: tests.missingUrl(suffix), json, setup: paramsSetup(needs, "placeholder"), needs });
  }
  const bad = params.find((param) => param.required) ?? params[0];
  if (bad) {
    const needs = new Needs();
    const { url, setup } = instance ? tests.anyRow(needs, suffix) : { url: collectionUrl, setup: [] };
    const entries = bodyEntries(params, "create", "placeholder", target.keys, needs).map((entry) =>
      entry.name === bad.name ? { name: entry.name, value: invalidValue(bad.type) } : entry,
    );
    if (!entries.some((entry) => entry.name === bad.name)) entries.push({ name: bad.name, value: invalidValue(bad.type) });
    setup.push({ kind: "assign", variable: "params", value: dictLiteral(entries) });
    tests.invalid("_rejects_bad_params", bad, needs, { setup, request: tests.request(url, "params") });
  }
  const authNeeds = new Needs();
  const url = instance ? tests.missingUrl(suffix) : collectionUrl;
  tests.unauthorized(url, json && dictLiteral(bodyEntries(params, "create", "placeholder", target.keys, authNeeds)), authNeeds);
}
