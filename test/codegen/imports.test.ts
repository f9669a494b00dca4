import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { KeyError } from "../../src/codegen/errors.js";
import {
  ImportCollector,
  type ImportFormatOptions,
  formatImports,
  importFormatterFor,
  registerImportFormatter,
} from "../../src/codegen/imports.js";

// A toy formatter: the engine must work with any language, not just the shipped ones.
const LANGUAGE = "toy-imports-test";
const seenOptions: ImportFormatOptions[] = [];
registerImportFormatter(LANGUAGE, (collector, options) => {
  seenOptions.push(options);
  const bare = collector.bareModules.map((module) => `use ${module}`);
  const from = collector.sortedFromImports.map(([module, names]) => `use ${module}::{${names.join(",")}}`);
  return [...bare, ...from].join("\n");
});

describe("ImportCollector", () => {
  it("starts empty", () => {
    const imports = new ImportCollector();
    assert.equal(imports.isEmpty, true);
    assert.deepEqual(imports.bareModules, []);
    assert.deepEqual(imports.sortedFromImports, []);
  });

  it("merges duplicate bare imports and sorts them", () => {
    const imports = new ImportCollector().add("uuid").add("datetime").add("uuid");
    assert.deepEqual(imports.bareModules, ["datetime", "uuid"]);
    assert.equal(imports.isEmpty, false);
  });

  it("merges duplicate from-imports and sorts by module then name", () => {
    const imports = new ImportCollector()
      .addFrom("typing", "Optional", "Any")
      .addFrom("fastapi", "Depends")
      .addFrom("typing", "Any", "Annotated");
    assert.deepEqual(imports.sortedFromImports, [
      ["fastapi", ["Depends"]],
      ["typing", ["Annotated", "Any", "Optional"]],
    ]);
  });

  it("gives its from-imports as a copy: changing it changes nothing", () => {
    const imports = new ImportCollector().addFrom("typing", "Any");
    const view = imports.sortedFromImports;
    assert.deepEqual(view, [["typing", ["Any"]]]);
    view[0]![1].push("Sneaky");
    assert.deepEqual(imports.sortedFromImports, [["typing", ["Any"]]]);
  });

  it("adds nothing for a from-import without names", () => {
    const imports = new ImportCollector().addFrom("typing");
    assert.equal(imports.isEmpty, true);
  });

  it("keeps a bare import and a from-import of the same module apart", () => {
    const imports = new ImportCollector().add("os").addFrom("os", "path");
    assert.deepEqual(imports.bareModules, ["os"]);
    assert.deepEqual(imports.sortedFromImports, [["os", ["path"]]]);
  });

  it("update merges another collector without changing it", () => {
    const target = new ImportCollector().add("uuid").addFrom("typing", "Any");
    const other = new ImportCollector().add("uuid").add("json").addFrom("typing", "Optional");
    target.update(other);
    assert.deepEqual(target.bareModules, ["json", "uuid"]);
    assert.deepEqual(target.sortedFromImports, [["typing", ["Any", "Optional"]]]);
    assert.deepEqual(other.sortedFromImports, [["typing", ["Optional"]]]);
  });

  it("keeps collectors apart after update, whichever of them is added to later", () => {
    // `update` shares the other collector's names of a module it lacks; adding to either must not reach the other.
    const source = new ImportCollector().addFrom("typing", "Any");
    const first = new ImportCollector().update(source);
    const second = new ImportCollector().update(source);
    source.addFrom("typing", "Optional");
    first.addFrom("typing", "Union");
    second.update(new ImportCollector().addFrom("typing", "Literal"));
    assert.deepEqual(source.sortedFromImports, [["typing", ["Any", "Optional"]]]);
    assert.deepEqual(first.sortedFromImports, [["typing", ["Any", "Union"]]]);
    assert.deepEqual(second.sortedFromImports, [["typing", ["Any", "Literal"]]]);
    // A collector updated from one it already shares names with (the same set) keeps them once.
    first.update(first);
    assert.deepEqual(first.sortedFromImports, [["typing", ["Any", "Union"]]]);
  });

  it("keeps each import once through merges that repeat them hundreds of times, in order of name", () => {
    // Past a few hundred repeats the collector drops them as it goes: the reads must not tell.
    const names = Array.from({ length: 300 }, (_, index) => `Name${String(index).padStart(3, "0")}`);
    const part = new ImportCollector().add("os").addFrom("models", ...names.slice(0, 150));
    const whole = new ImportCollector();
    for (let round = 0; round < 40; round++) whole.update(part).addFrom("models", names[150 + round]!).add("json");
    whole.update(whole).addFrom("models", ...names.slice(190));
    assert.deepEqual(whole.bareModules, ["json", "os"]);
    assert.deepEqual(whole.sortedFromImports, [["models", names]]);
  });
});

describe("ImportCollector.format", () => {
  it("uses the formatter registered for the language and passes the options", () => {
    const imports = new ImportCollector().add("b").add("a").addFrom("m", "y", "x");
    assert.equal(imports.format(LANGUAGE, { firstParty: ["a"] }), "use a\nuse b\nuse m::{x,y}");
    assert.deepEqual(seenOptions.at(-1), { firstParty: ["a"] });
    imports.format(LANGUAGE);
    assert.deepEqual(seenOptions.at(-1), {});
  });

  it("raises KeyError naming an unknown language and the registered ones", () => {
    assert.throws(
      () => new ImportCollector().add("os").format("cobol"),
      (error: unknown) => error instanceof KeyError && error.message.includes('"cobol"') && new RegExp(`registered: .*\\b${LANGUAGE}\\b`).test(error.message),
    );
  });
});

describe("formatImports", () => {
  it("returns an empty string for an empty language", () => {
    assert.equal(formatImports(new ImportCollector().add("os"), ""), "");
  });

  it("formats with the language's formatter otherwise", () => {
    assert.equal(formatImports(new ImportCollector().add("os"), LANGUAGE), "use os");
  });

  it("raises KeyError for a non-empty unknown language", () => {
    assert.throws(() => formatImports(new ImportCollector().add("os"), "cobol"), KeyError);
  });
});

describe("formatter registry", () => {
  it("looks formatters up by language", () => {
    assert.equal(typeof importFormatterFor(LANGUAGE), "function");
    assert.equal(importFormatterFor("cobol"), undefined);
  });

  it("replaces an earlier formatter for the same language", () => {
    const language = "toy-replaced";
    registerImportFormatter(language, () => "first");
    registerImportFormatter(language, () => "second");
    assert.equal(new ImportCollector().add("x").format(language), "second");
  });
});
