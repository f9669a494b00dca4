// TestCase → `{module}/tests/test_{name}.py` (module header, one snippet per test) and
// TestFixture → a factory in `{module}/tests/conftest.py`. Both declare the app's conftest
// from their `TestSuite`, so an app with tests always gets one. A 401 test is dropped when
// its handler ended up without the `current_user` dependency (the `auth` augmenter, which
// runs after the operations, decides that).

import { FileFragment, type Fragment, ImportCollector, type RenderCtx, SnippetFragment, renderTemplate } from "../../../codegen/index.js";
import type { RouteParam, TestCase, TestFixture, TestSuite } from "../operations/types.js";
import { wrapCall } from "../python/wrap.js";

const LINE_LENGTH = 88;

export function renderTestCase(test: TestCase, ctx: RenderCtx): Fragment[] {
  if (test.kind === "unauthorized" && !requiresUser(test)) return [];
  const body = renderTemplate(ctx.env, `tests/${test.kind}.py.njk`, test.context).replace(/\s+$/, "");
  return [
    conftest(test.suite),
    new FileFragment({ path: test.file, template: "tests/module.py.njk", context: test.module }),
    new SnippetFragment({
      path: test.file,
      slot: "tests",
      template: "tests/case.py.njk",
      context: { signature: signature(`async def ${test.name}`, test.fixtures, " -> None:"), doc: docstring(test.doc), body },
      imports: new ImportCollector().update(test.imports),
    }),
  ];
}

export function renderTestFixture(fixture: TestFixture, ctx: RenderCtx): Fragment[] {
  const body = renderTemplate(ctx.env, `tests/fixture_${fixture.kind}.py.njk`, fixture.context).replace(/\s+$/, "");
  return [
    conftest(fixture.suite),
    new SnippetFragment({
      path: fixture.suite.file,
      slot: "fixtures",
      template: "tests/fixture.py.njk",
      context: { signature: signature(`def ${fixture.name}`, fixture.fixtures, " -> Factory:"), doc: docstring(fixture.doc), body },
      imports: new ImportCollector().update(fixture.imports),
    }),
  ];
}

function conftest(suite: TestSuite): FileFragment {
  return new FileFragment({ path: suite.file, template: "tests/conftest.py.njk", context: suite.context, imports: new ImportCollector().update(suite.imports) });
}

/** Whether the handler under test got the `current_user` dependency. */
function requiresUser(test: TestCase): boolean {
  return test.handler.dependencies.some((dependency) => dependency.name === "current_user");
}

function signature(head: string, params: readonly RouteParam[], tail: string): string {
  return wrapCall(head, params.map((param) => `${param.name}: ${param.annotation}`), tail);
}

/**
 * The docstring of a function body: one line when `text` is one paragraph that fits,
 * else the paragraphs (separated by blank lines in `text`) wrapped to the line length,
 * the closing quotes on a line of their own.
 */
function docstring(text: string): string {
  const indent = "    ";
  if (!text.includes("\n") && indent.length + text.length + 6 <= LINE_LENGTH) return `"""${text}"""`;
  const lines: string[] = [];
  text.split("\n\n").forEach((paragraph, index) => {
    if (index > 0) lines.push("");
    let line = "";
    for (const word of paragraph.split(" ")) {
      const width = indent.length + (lines.length === 0 ? 3 : 0) + line.length + 1 + word.length;
      if (line !== "" && width > LINE_LENGTH) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  });
  return `"""${lines.map((line, index) => (index === 0 || line === "" ? line : `${indent}${line}`)).join("\n")}\n${indent}"""`;
}
