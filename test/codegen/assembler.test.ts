import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type nunjucks from "nunjucks";

import { IMPORTS_KEY, assemble } from "../../src/codegen/assembler.js";
import { bannerFor } from "../../src/codegen/banner.js";
import { GenerationError, KeyError } from "../../src/codegen/errors.js";
import { FileFragment, SnippetFragment, type Fragment } from "../../src/codegen/fragments.js";
import { ImportCollector, registerImportFormatter } from "../../src/codegen/imports.js";
import { createTemplateEnv } from "../../src/codegen/templating.js";
import type { GeneratedFile } from "../../src/codegen/writer.js";

// A language only this file uses, with a formatter whose output shows exactly what it got.
const LANGUAGE = "assembler-test-lang";
registerImportFormatter(LANGUAGE, (collector, options) =>
  [
    ...collector.bareModules.map((module) => `use ${module}`),
    ...collector.sortedFromImports.map(([module, names]) => `from ${module} use ${names.join(",")}`),
    ...(options.firstParty ?? []).map((name) => `first-party ${name}`),
  ].join("\n"),
);

let dir: string;
let env: nunjucks.Environment;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "codegen-assembler-"));
  const templates: Record<string, string> = {
    "module.njk": "{{ imports }}\n---\n{% for item in items %}{{ item }};{% endfor %}\n",
    "pair.njk": "{{ a }}-{{ b }}\n\n\n",
    "other.njk": "other\n",
    "item.njk": "\n   <{{ name }}>  \n\n",
    "value.njk": "{% for item in items %}{{ item.label }}={{ item.n }} {% endfor %}\n",
    "plain.njk": "plain {{ x }}",
  };
  for (const [name, text] of Object.entries(templates)) await writeFile(path.join(dir, name), text);
  env = createTemplateEnv(dir);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (fragments: Fragment[], language = LANGUAGE, firstParty?: string[]): GeneratedFile[] =>
  assemble(fragments, { env, language, targetName: "toy", importOptions: firstParty ? { firstParty } : undefined });

const only = (files: GeneratedFile[]): GeneratedFile => {
  assert.equal(files.length, 1);
  return files[0];
};

/** The content of a file without its banner line. */
const body = (file: GeneratedFile): string => file.content.slice(file.content.indexOf("\n") + 1);

const generationError = (...parts: string[]) => (error: unknown) =>
  error instanceof GenerationError && parts.every((part) => error.message.includes(part));

describe("assemble: merge rule 1, fragments agree on the template", () => {
  it("merges fragments of one path that name the same template", () => {
    const file = only(run([new FileFragment({ path: "a.txt", template: "other.njk" }), new FileFragment({ path: "a.txt", template: "other.njk" })]));
    assert.equal(body(file), "other\n");
  });

  it("raises GenerationError naming the file and both templates when they differ", () => {
    assert.throws(
      () => run([new FileFragment({ path: "pkg/a.txt", template: "other.njk" }), new FileFragment({ path: "pkg/a.txt", template: "plain.njk" })]),
      generationError("pkg/a.txt", '"other.njk"', '"plain.njk"', "template"),
    );
  });
});

describe("assemble: merge rule 2, contexts unify", () => {
  it("unites the keys of every fragment of a path", () => {
    const file = only(
      run([
        new FileFragment({ path: "p.txt", template: "pair.njk", context: { a: "A" } }),
        new FileFragment({ path: "p.txt", template: "pair.njk", context: { b: "B" } }),
      ]),
    );
    assert.equal(body(file), "A-B\n");
  });

  it("accepts a shared key whose values are deeply equal", () => {
    const file = only(
      run([
        new FileFragment({ path: "p.txt", template: "pair.njk", context: { a: { x: [1] }, b: 2 } }),
        new FileFragment({ path: "p.txt", template: "pair.njk", context: { a: { x: [1] } } }),
      ]),
    );
    assert.equal(body(file), "[object Object]-2\n");
  });

  it("raises GenerationError naming the file, the template and the key on a conflict", () => {
    assert.throws(
      () =>
        run([
          new FileFragment({ path: "p.txt", template: "pair.njk", context: { a: 1, b: 2 } }),
          new FileFragment({ path: "p.txt", template: "pair.njk", context: { b: 3 } }),
        ]),
      generationError("p.txt", '"pair.njk"', 'context key "b"'),
    );
  });

  it("does not change the fragments' own contexts or imports", () => {
    const first = new FileFragment({
      path: "p.txt",
      template: "pair.njk",
      context: { a: 1 },
      imports: new ImportCollector().add("first"),
    });
    const second = new FileFragment({ path: "p.txt", template: "pair.njk", context: { b: 2 }, imports: new ImportCollector().add("second") });
    run([first, second]);
    assert.deepEqual(first.context, { a: 1 });
    assert.deepEqual(first.imports.bareModules, ["first"]);
  });
});

describe("assemble: merge rules 3-5, policies", () => {
  const pair = (a: Partial<ConstructorParameters<typeof FileFragment>[0]>, b: typeof a) =>
    only(
      run([
        new FileFragment({ path: "f.txt", template: "other.njk", ...a }),
        new FileFragment({ path: "f.txt", template: "other.njk", ...b }),
      ]),
    );

  it("rule 3: overwrite wins over skip, in either order; skip stays skip", () => {
    assert.equal(pair({ ifExists: "skip" }, { ifExists: "overwrite" }).ifExists, "overwrite");
    assert.equal(pair({ ifExists: "overwrite" }, { ifExists: "skip" }).ifExists, "overwrite");
    assert.equal(pair({ ifExists: "skip" }, { ifExists: "skip" }).ifExists, "skip");
  });

  it("rule 4: executable true wins, in either order", () => {
    assert.equal(pair({ executable: true }, { executable: false }).executable, true);
    assert.equal(pair({ executable: false }, { executable: true }).executable, true);
    assert.equal(pair({}, {}).executable, false);
  });

  it("rule 5: banner false wins, in either order", () => {
    const banner = bannerFor("f.txt", "toy", LANGUAGE);
    assert.notEqual(banner, "");
    assert.equal(pair({}, {}).content, `${banner}\nother\n`);
    assert.equal(pair({ banner: false }, { banner: true }).content, "other\n");
    assert.equal(pair({ banner: true }, { banner: false }).content, "other\n");
  });
});

describe("assemble: snippets", () => {
  it("appends a rendered template with its surrounding whitespace stripped", () => {
    const file = only(
      run([
        new FileFragment({ path: "m.txt", template: "module.njk", banner: false }),
        new SnippetFragment({ path: "m.txt", slot: "items", template: "item.njk", context: { name: "one" } }),
        new SnippetFragment({ path: "m.txt", slot: "items", template: "item.njk", context: { name: "two" } }),
      ]),
    );
    assert.equal(file.content, "\n---\n<one>;<two>;\n");
  });

  it("passes a value through as is, after items the file fragment declared", () => {
    const file = only(
      run([
        new SnippetFragment({ path: "v.txt", slot: "items", value: { label: "b", n: 2 } }),
        new FileFragment({ path: "v.txt", template: "value.njk", context: { items: [{ label: "a", n: 1 }] }, banner: false }),
        new SnippetFragment({ path: "v.txt", slot: "items", value: { label: "c", n: 3 } }),
      ]),
    );
    assert.equal(file.content, "a=1 b=2 c=3\n");
  });

  it("raises GenerationError naming the file and slot for a snippet without a file fragment", () => {
    assert.throws(
      () => run([new FileFragment({ path: "a.txt", template: "other.njk" }), new SnippetFragment({ path: "missing.txt", slot: "routes", value: 1 })]),
      generationError("missing.txt", '"routes"', "no file fragment"),
    );
  });

  it("raises GenerationError when the slot already holds something other than a list", () => {
    assert.throws(
      () =>
        run([
          new FileFragment({ path: "m.txt", template: "module.njk", context: { items: "text" } }),
          new SnippetFragment({ path: "m.txt", slot: "items", value: 1 }),
        ]),
      generationError("m.txt", '"items"', "not a list"),
    );
  });
});

describe("assemble: content", () => {
  it("writes an empty file without a banner for a blank template", () => {
    for (const template of ["", "   "]) {
      const file = only(run([new FileFragment({ path: "pkg/__init__.py", template, context: { ignored: 1 } })]));
      assert.equal(file.content, "");
    }
  });

  it("prepends the banner naming the target unless banner is false", () => {
    const withBanner = only(run([new FileFragment({ path: "x.py", template: "plain.njk", context: { x: 1 } })]));
    assert.equal(withBanner.content, "# Generated by codegen. Do not edit: run `codegen generate --target toy` to regenerate.\nplain 1\n");
    const without = only(run([new FileFragment({ path: "x.py", template: "plain.njk", context: { x: 1 }, banner: false })]));
    assert.equal(without.content, "plain 1\n");
  });

  it("ends every non-empty file with exactly one newline", () => {
    const file = only(run([new FileFragment({ path: "p.txt", template: "pair.njk", context: { a: 1, b: 2 }, banner: false })]));
    assert.equal(file.content, "1-2\n");
  });

  it("carries the merged policy and executable bit to the generated file", () => {
    const file = only(run([new FileFragment({ path: "run.sh", template: "other.njk", ifExists: "skip", executable: true })]));
    assert.deepEqual([file.path, file.ifExists, file.executable], ["run.sh", "skip", true]);
  });

  it("formats imports of file and snippet fragments into the imports context key", () => {
    assert.equal(IMPORTS_KEY, "imports");
    const file = only(
      run(
        [
          new FileFragment({ path: "m.txt", template: "module.njk", imports: new ImportCollector().add("zeta").addFrom("pkg", "B"), banner: false }),
          new SnippetFragment({ path: "m.txt", slot: "items", value: "x", imports: new ImportCollector().add("alpha").addFrom("pkg", "A") }),
          new FileFragment({ path: "m.txt", template: "module.njk", imports: new ImportCollector().add("alpha") }),
        ],
        LANGUAGE,
        ["acme"],
      ),
    );
    assert.equal(file.content, "use alpha\nuse zeta\nfrom pkg use A,B\nfirst-party acme\n---\nx;\n");
  });

  it("gives an empty imports value when there are none, even for a language without a formatter", () => {
    const file = only(run([new FileFragment({ path: "m.txt", template: "module.njk", banner: false })], "no-such-language"));
    assert.equal(file.content, "\n---\n");
  });

  it("raises KeyError for imports in a language without a formatter", () => {
    assert.throws(
      () => run([new FileFragment({ path: "m.txt", template: "module.njk", imports: new ImportCollector().add("os") })], "no-such-language"),
      KeyError,
    );
  });

  it("reserves the imports key", () => {
    assert.throws(
      () => run([new FileFragment({ path: "m.txt", template: "module.njk", context: { imports: "mine" } })]),
      generationError("m.txt", '"imports"', "reserved"),
    );
  });

  it("returns files sorted by path whatever the fragment order", () => {
    const fragments = () => [
      new FileFragment({ path: "b/z.txt", template: "other.njk" }),
      new FileFragment({ path: "a.txt", template: "other.njk" }),
      new FileFragment({ path: "b/a.txt", template: "plain.njk", context: { x: 1 } }),
      new FileFragment({ path: "B.txt", template: "other.njk" }),
    ];
    const forward = run(fragments());
    const backward = run(fragments().reverse());
    assert.deepEqual(
      forward.map((file) => file.path),
      ["B.txt", "a.txt", "b/a.txt", "b/z.txt"],
    );
    assert.deepEqual(backward, forward);
  });
});
