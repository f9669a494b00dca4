import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { FileFragment, SnippetFragment } from "../../src/codegen/fragments.js";
import { ImportCollector } from "../../src/codegen/imports.js";

describe("FileFragment", () => {
  it("defaults to an empty context and imports, overwrite, not executable, with a banner", () => {
    const fragment = new FileFragment({ path: "a.py", template: "a.py.njk" });
    assert.deepEqual(fragment.context, {});
    assert.ok(fragment.imports instanceof ImportCollector);
    assert.equal(fragment.imports.isEmpty, true);
    assert.equal(fragment.ifExists, "overwrite");
    assert.equal(fragment.executable, false);
    assert.equal(fragment.banner, true);
  });

  it("keeps every field it is given", () => {
    const imports = new ImportCollector().add("os");
    const fragment = new FileFragment({
      path: "run.sh",
      template: "",
      context: { a: 1 },
      imports,
      ifExists: "skip",
      executable: true,
      banner: false,
    });
    assert.deepEqual(
      { ...fragment },
      { path: "run.sh", template: "", context: { a: 1 }, imports, ifExists: "skip", executable: true, banner: false },
    );
  });
});

describe("SnippetFragment", () => {
  it("accepts a template alone", () => {
    const snippet = new SnippetFragment({ path: "a.py", slot: "items", template: "item.njk", context: { x: 1 } });
    assert.equal(snippet.template, "item.njk");
    assert.equal(snippet.value, undefined);
    assert.deepEqual(snippet.context, { x: 1 });
    assert.equal(snippet.imports.isEmpty, true);
  });

  it("accepts a value alone, including falsy values other than undefined", () => {
    for (const value of ["text", 0, "", false, null, { nested: [1] }]) {
      const snippet = new SnippetFragment({ path: "a.py", slot: "items", value });
      assert.equal(snippet.value, value);
      assert.equal(snippet.template, undefined);
    }
  });

  it("is a TypeError with both a template and a value, naming the path and slot", () => {
    assert.throws(
      () => new SnippetFragment({ path: "pkg/a.py", slot: "routes", template: "r.njk", value: "x" }),
      (error: unknown) =>
        error instanceof TypeError && error.message.includes("pkg/a.py") && error.message.includes('"routes"') && /exactly one/.test(error.message),
    );
  });

  it("is a TypeError with neither a template nor a value", () => {
    assert.throws(() => new SnippetFragment({ path: "a.py", slot: "items" }), TypeError);
    assert.throws(() => new SnippetFragment({ path: "a.py", slot: "items", value: undefined }), TypeError);
  });
});
