// The generated tests of a `list` entry, decided from its final `ListQuery`: pages walked
// (by cursor or offset), bounds and unknown parameters refused, and, as its modifiers
// declare them, each `eq` filter in both forms, each order in both directions, and `?q=`.
// Tests that need rows make them through the resource's factory, as the CRUD tests do.

import { pythonString } from "../../python/literals.js";
import { type Tests, sharedTemplate } from "../tests/cases.js";
import type { TemplatePath } from "../tests/outputs.js";
import { Needs } from "../tests/samples.js";
import { hiddenListTests, showsHiddenRows } from "../tests/visibility.js";
import type { ListHandler } from "./list-handler.js";

/** The template of a list test, in `tests/` beside this file. */
const template = (name: string): TemplatePath => `operations/list/tests/${name}.py.njk`;

/** `("a", "b")`: a Python tuple of names. */
function names(items: readonly string[]): string {
  return `(${items.map(pythonString).join(", ")}${items.length === 1 ? "," : ""})`;
}

/** The tests of a `list` entry, and its visibility case when rows may be hidden (visibility.ts). */
export function listTests(tests: Tests<ListHandler>): void {
  const { target, handler } = tests;
  const { query } = handler;
  const plural = tests.view.labelPlural;
  const max = query.pagination.max_page_size;
  const offset = query.pagination.mode === "offset";
  // Fields the list's items show, so a test can compare them (none known for a builder).
  const readable = new Set(handler.read.fieldNames ?? []);
  const make = (needs: Needs) => needs.factory(`make_${tests.view.name}`);
  if (target.canCreate) {
    const needs = new Needs();
    needs.imports.addFrom("typing", "Any");
    tests.add(template(offset ? "offset" : "page"), "", `\`\`${tests.route}\`\` pages with \`\`limit\`\` and \`\`${offset ? "offset" : "cursor"}\`\`, each ${tests.label} once.`, needs, {
      expect: { make: make(needs), repeated: pythonString(`a page repeated one of the ${plural}`) },
    });
  } else {
    tests.add(template("list"), "", `\`\`${tests.route}\`\` answers 200 with a page of at most \`\`limit\`\` ${plural}.`, new Needs(), {});
  }
  tests.add(template("invalid"), "_rejects_a_bad_limit", `\`\`${tests.route}\`\` answers 422 for a \`\`limit\`\` outside 1..${max}.`, new Needs(), {
    expect: { limits: `(0, ${max + 1})` },
  });
  tests.add(template("unknown"), "_rejects_an_unknown_parameter", `\`\`${tests.route}\`\` answers 422 for a query parameter it does not know.`, new Needs(), {});
  const searchRoute = `POST ${target.path}${handler.searchPath}`;
  const filters = query.filters;
  if (filters !== undefined) {
    const eq = filters.filter((field) => field.operators.includes("eq") && readable.has(field.name)).map((field) => field.name);
    if (target.canCreate && eq.length > 0) {
      const needs = new Needs();
      tests.add(template("filter"), "_filters_by_each_field", `\`\`${tests.route}\`\` with \`\`field=value\`\` answers the ${plural} with that value.`, needs, {
        expect: { make: make(needs), fields: names(eq), max },
      });
      const bodyNeeds = new Needs();
      tests.add(template("search"), "_search_filters_by_each_field", `\`\`${searchRoute}\`\` with an \`\`eq\`\` condition answers the ${plural} with that value.`, bodyNeeds, {
        expect: { make: make(bodyNeeds), fields: names(eq), max, path: pythonString(handler.searchPath) },
      });
    }
    tests.add(template("search_invalid"), "_search_rejects_an_unknown_field", `\`\`${searchRoute}\`\` answers 422 for a condition on a field it does not filter.`, new Needs(), {
      expect: { path: pythonString(handler.searchPath) },
    });
  }
  const order = query.order;
  const sortable = order?.fields.filter((field) => readable.has(field.name)) ?? [];
  if (sortable.length > 0 && target.canCreate) {
    const needs = new Needs();
    tests.add(template("order"), "_orders_by_each_field", `\`\`${tests.route}\`\` sorts by each \`\`order_by\`\` field, both ways, and refuses others.`, needs, {
      expect: { make: make(needs), fields: names(sortable.map((field) => field.name)), max },
    });
  }
  const search = query.search;
  if (search !== undefined && target.canCreate && search.fields.length > 0 && readable.has(target.view.pk)) {
    const needs = new Needs();
    tests.add(template("q"), "_searches", `\`\`${tests.route}\`\` with \`\`q\`\` finds the ${tests.label} it names.`, needs, {
      expect: { make: make(needs), field: pythonString(search.fields[0]), max },
    });
  }
  tests.unauthorized("PATH");
  if (filters !== undefined && handler.user !== undefined) {
    tests.add(sharedTemplate("unauthorized"), "_search_requires_a_user", `\`\`${searchRoute}\`\` answers 401 without a token.`, new Needs(), {
      request: { client: "anonymous_client", method: "post", url: `f"{PATH}${handler.searchPath}"`, json: "{}" },
    });
  }
  if (showsHiddenRows(tests.view.project, target)) hiddenListTests(tests);
}
