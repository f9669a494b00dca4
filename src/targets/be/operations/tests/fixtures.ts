// The factory fixtures of an app's conftest, one pair per resource that has a `create`
// operation: `{name}_body` makes valid create bodies (creating referenced resources first),
// `make_{name}` posts one and returns the created resource. Tests of other resources use
// them to satisfy `references`, so every creatable resource of an app with tests has its pair.

import { ImportCollector } from "../../../../codegen/index.js";
import { createBodyFields } from "../../config/references.js";
import { type OperationConfig, withArticle } from "../../config/schema.js";
import type { ResourceView } from "../../resource.js";
import { pythonString } from "../../python/literals.js";
import { TestFixture } from "./outputs.js";
import { Needs, type ReferenceKeys, bodyEntries, dictLiteral } from "./samples.js";

/**
 * The `{name}_body` and `make_{name}` fixtures of the resource `view` (served at `path`),
 * whose rows `entry` creates; empty when its body does not parse.
 */
export function factoryFixtures(view: ResourceView, path: string, keys: ReferenceKeys, entry: OperationConfig): TestFixture[] {
  const fields = createBodyFields(view.config, entry);
  if (fields === undefined) return [];
  const needs = new Needs();
  const entries = bodyEntries(fields, "create", "created", keys, needs, view.model);
  const bodyName = `${view.name}_body`;
  const route = `\`\`POST ${path}\`\``;
  const referenced = needs.factories.map((factory) => factory.replace(/^make_/, "").replace(/_/g, " "));
  const body = new TestFixture({
    kind: "body",
    name: bodyName,
    doc: `Makes valid bodies for ${route}.${referenced.length > 0 ? `\n\nEach body refers to a new ${joinWords(referenced)}, created first.` : ""}`,
    fixtures: needs.factories.map((factory) => ({ name: factory, annotation: "Factory" })),
    context: { value: dictLiteral(entries) },
    imports: needs.imports,
  });
  const make = new TestFixture({
    kind: "make",
    name: `make_${view.name}`,
    doc: `Creates ${withArticle(view.label)} through ${route} and returns it.`,
    fixtures: [
      { name: "client", annotation: "AsyncClient" },
      { name: bodyName, annotation: "Factory" },
    ],
    context: { path: pythonString(path), body: bodyName },
    imports: new ImportCollector(),
  });
  return [body, make];
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
