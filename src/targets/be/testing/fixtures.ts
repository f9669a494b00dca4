// The factory fixtures of an app's conftest, one pair per resource that has a `create`
// operation: `{name}_body` makes valid create bodies (creating referenced resources first),
// `make_{name}` posts one and returns the created resource. Tests of other resources use
// them to satisfy `references`, so every resource of an app with tests gets its pair.

import type { BuildContext } from "../../../codegen/index.js";
import type { CrudOptions, ProjectConfig, ResolvedApp } from "../config/schema.js";
import { createBodyFields, createEntry } from "../config/references.js";
import { RouteParam, TestFixture } from "../operations/types.js";
import { wrapBrackets, wrapCall } from "../python/wrap.js";
import { Needs, bodyEntries, dictItems } from "./samples.js";
import { withArticle } from "../config/schema.js";
import { appHasTests, testScope } from "./suite.js";

/** The `{name}_body` and `make_{name}` fixtures, from the resource's first create entry; empty unless the app has tests. */
export function factoryFixtures(ctx: BuildContext<ProjectConfig>, options: CrudOptions): TestFixture[] {
  const app = ctx.store.ancestorOf(ctx.instanceId, "app") as ResolvedApp;
  if (!appHasTests(app)) return [];
  const scope = testScope(ctx);
  const { view } = scope;
  if (createEntry(view.config)?.name !== options.name) return [];
  const fields = createBodyFields(view.config);
  if (fields === undefined) return [];
  const needs = new Needs();
  const entries = bodyEntries(fields, "create", "created", scope.keys, needs);
  const bodyName = `${view.name}_body`;
  const route = `\`\`POST ${scope.path}\`\``;
  const referenced = needs.factories.map((factory) => factory.replace(/^make_/, "").replace(/_/g, " "));
  const body = new TestFixture({
    kind: "body",
    name: bodyName,
    doc: `Makes valid bodies for ${route}.${referenced.length > 0 ? `\n\nEach body refers to a new ${joinWords(referenced)}, created first.` : ""}`,
    fixtures: needs.factories.map((factory) => new RouteParam({ name: factory, annotation: "Factory" })),
    context: { value: wrapBrackets("return ", "{", "}", dictItems(entries), "", "        ") },
    imports: needs.imports,
    suite: scope.suite,
  });
  const make = new TestFixture({
    kind: "make",
    name: `make_${view.name}`,
    doc: `Creates ${withArticle(view.label)} through ${route} and returns it.`,
    fixtures: [new RouteParam({ name: "client", annotation: "AsyncClient" }), new RouteParam({ name: bodyName, annotation: "Factory" })],
    context: { request: wrapCall("response = await client.post", [JSON.stringify(scope.path), `json=await ${bodyName}()`], "", "        ") },
    imports: new Needs().imports,
    suite: scope.suite,
  });
  return [body, make];
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
