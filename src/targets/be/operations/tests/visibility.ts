// Row visibility in the generated tests. With a `visible` rule anywhere, the conftest's
// sessions are built as the app's are (`ROW_VISIBILITY.session_class`, the request in
// `session.info`), so every test meets the rules. With the JWT flow it adds `other_client`,
// a second user in the same groups, and `hide_from_others`, which replaces one model's
// rule for a test by one hiding a single row from everyone but the tests' user. Each
// route of a model with a rule that takes the user then gets a case by its kind: a row
// route (read or write) answers 404 for the hidden row and leaves it as it was, a list
// leaves it out. The project's own rule says which rows are hidden; these cases show the
// routes apply the model's rule, whatever it says.

import { type BuildStore, ImportCollector, prefixImport } from "../../../../codegen/index.js";
import { type ProjectConfig, withArticle } from "../../config/schema.js";
import type { RouteHandler } from "../../modules/handler.js";
import { pythonString } from "../../python/literals.js";
import { mayBeHidden, visibilityRules } from "../../row-visibility.js";
import type { ListHandler } from "../list/list-handler.js";
import { OTHER_SUBJECT } from "./auth.js";
import { Tests, type TestTarget, sharedTemplate } from "./cases.js";
import type { FixtureParam, TestCase, TestRequest } from "./outputs.js";
import { Needs } from "./samples.js";

/** Whether `project` lets the generated tests show a row hidden from another user: a rule to replace, and tokens for two users. */
function twoUsers(project: ProjectConfig): boolean {
  return project.auth !== undefined && project.auth.get_current_user_fn === undefined;
}

/** The conftest's visibility context (undefined without rules); adds the imports it needs to `imports`. */
export function visibilitySuite(project: ProjectConfig, store: BuildStore, packagePrefix: string, imports: ImportCollector): Record<string, unknown> | undefined {
  if (visibilityRules(project, store).length === 0) return undefined;
  imports
    .addFrom("fastapi", "Request")
    .addFrom(prefixImport(packagePrefix, "visibility"), "ROW_VISIBILITY")
    .addFrom(prefixImport(packagePrefix, "runtime", "visibility"), "REQUEST");
  if (!twoUsers(project)) return { other: false };
  imports
    .addFrom("collections.abc", "Callable")
    .addFrom("typing", "Any")
    .addFrom("sqlalchemy", "ColumnElement", "String", "cast")
    .addFrom("sqlalchemy.orm", "InstrumentedAttribute");
  return { other: { subject: OTHER_SUBJECT, subject_literal: pythonString(OTHER_SUBJECT) } };
}

/** Whether the routes of `target` get visibility cases: its model has a rule, the tests have two users, and rows can be made. */
export function showsHiddenRows(project: ProjectConfig, target: TestTarget): boolean {
  return twoUsers(project) && target.canCreate && mayBeHidden(project, target.view.store, target.view.config.model);
}

/** What every visibility case takes: the row, made by the tests' user and hidden from the other. */
function hiddenRow(tests: Tests): Needs {
  const needs = new Needs();
  needs.factory(`make_${tests.view.name}`);
  needs.imports.addFrom("collections.abc", "Callable").addFrom("typing", "Any");
  return needs;
}

/** The template's names of the row's factory and key column. */
function rowNames(tests: Tests, needs: Needs): { make: string; column: string } {
  return { make: `make_${tests.view.name}`, column: needs.column({ model: tests.view.model, attribute: tests.pk }) };
}

/** The fixtures a case takes besides its request's client and the factory. */
function fixtures(others: readonly ("client" | "other_client")[]): FixtureParam[] {
  return [...others.map((name) => ({ name, annotation: "AsyncClient" })), { name: "hide_from_others", annotation: "Callable[[Any, Any], None]" }];
}

/**
 * The case of a row route (its path holds `{pk}`, a read or a write; actions take parameters of
 * their own and are left out): `other_client` gets a 404 for the hidden row, and the tests'
 * user still gets it as it was made, when the resource has a `get`.
 */
export function hiddenRowTests(target: TestTarget, handler: RouteHandler): TestCase[] {
  const tests = new Tests(target, handler, handler.entry);
  if (handler.target !== "row" || handler.kind === "action" || handler.currentUser === "None") return [];
  const needs = hiddenRow(tests);
  const hasGet = target.fetchesRow;
  const sendsBody = handler.method === "PATCH" || handler.method === "POST";
  tests.add(sharedTemplate("hidden"), "_hides_a_row_from_another_user", `\`\`${tests.route}\`\` answers 404 to another user for ${withArticle(tests.label)} the rule hides from them.`, needs, {
    request: { client: "other_client", method: handler.method.toLowerCase() as TestRequest["method"], url: tests.rowUrl(handler.path.replace(/^\/\{pk\}/, "")), ...(sendsBody && { json: "{}" }) },
    expect: { ...rowNames(tests, needs), fetch: hasGet ? tests.rowUrl() : "" },
    fixtures: fixtures(hasGet ? ["client"] : []),
  });
  return tests.cases;
}

/** The case of a list: the hidden row is on no page `other_client` gets, and on one the tests' user gets. */
export function hiddenListTests(tests: Tests<ListHandler>): void {
  const { target, handler } = tests;
  if (handler.currentUser === "None" || !new Set(handler.read.fieldNames ?? []).has(target.view.pk)) return;
  const needs = hiddenRow(tests);
  const offset = handler.query.pagination.mode === "offset";
  tests.add(sharedTemplate("list_hidden"), "_hides_a_row_from_another_user", `\`\`${tests.route}\`\` leaves out, for another user, ${withArticle(tests.label)} the rule hides from them.`, needs, {
    fixtures: fixtures(["other_client"]),
    expect: { ...rowNames(tests, needs), max: handler.query.pagination.max_page_size, next: pythonString(offset ? "next_offset" : "next_cursor"), param: pythonString(offset ? "offset" : "cursor") },
  });
}
