import assert from "node:assert/strict";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { createTemplateEnv, precompileTemplates, renderTemplate } from "../../src/codegen/templating.js";

let root: string;
let userDir: string;
let targetDir: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-templating-"));
  userDir = join(root, "user");
  targetDir = join(root, "target");
  await mkdir(userDir);
  await mkdir(join(targetDir, "nested"), { recursive: true });
  await writeFile(join(userDir, "shared.txt"), "from user dir");
  await writeFile(join(targetDir, "shared.txt"), "from target dir");
  await writeFile(join(targetDir, "only-target.txt"), "target only {{ name }}");
  await writeFile(join(targetDir, "nested", "leaf.txt"), "leaf");
  await writeFile(join(targetDir, "blocks.txt"), "start\n    {% for item in items %}\n  - {{ item }}\n    {% endfor %}\nend\n");
  await writeFile(join(targetDir, "escape.txt"), "{{ code }}");
  await writeFile(join(targetDir, "padded.txt"), "\n\n  {{ name }}  \n\n");
  await writeFile(join(targetDir, "undefined.txt"), "line one\n[{{ nmae }}]");
  await writeFile(join(targetDir, "conditional.txt"), "{% if missing %}yes{% else %}no{% endif %}");
  await writeFile(join(targetDir, "broken.txt"), "{{ name | nosuchfilter }}");
  await writeFile(join(targetDir, "bad-syntax.txt"), "{% if %}");
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createTemplateEnv", () => {
  it("prefers earlier directories and falls back to later ones", () => {
    const env = createTemplateEnv(userDir, targetDir);
    assert.equal(renderTemplate(env, "shared.txt", {}), "from user dir");
    assert.equal(renderTemplate(env, "only-target.txt", { name: "x" }), "target only x");
    assert.equal(renderTemplate(env, "nested/leaf.txt", {}), "leaf");
    assert.equal(renderTemplate(createTemplateEnv(targetDir, userDir), "shared.txt", {}), "from target dir");
  });

  it("trims the newline after a block tag and strips the indentation before it", () => {
    const env = createTemplateEnv(targetDir);
    assert.equal(renderTemplate(env, "blocks.txt", { items: ["a", "b"] }), "start\n  - a\n  - b\nend\n");
  });

  it("does not escape HTML characters", () => {
    const env = createTemplateEnv(targetDir);
    assert.equal(renderTemplate(env, "escape.txt", { code: "a < b && c > \"d\" 'e'" }), "a < b && c > \"d\" 'e'");
  });

  it("refuses to print a misspelt (undefined) variable, naming the template and line", () => {
    assert.throws(
      () => renderTemplate(createTemplateEnv(targetDir), "undefined.txt", { name: "x" }),
      (error: unknown) => error instanceof Error && /cannot render template "undefined\.txt"/.test(error.message) && /Line 2/.test(error.message),
    );
    assert.equal(renderTemplate(createTemplateEnv(targetDir), "undefined.txt", { nmae: "x" }), "line one\n[x]");
  });

  it("still tests an undefined variable in a condition as false", () => {
    assert.equal(renderTemplate(createTemplateEnv(targetDir), "conditional.txt", {}), "no");
  });
});

describe("renderTemplate", () => {
  it("returns the raw output without trimming", () => {
    assert.equal(renderTemplate(createTemplateEnv(targetDir), "padded.txt", { name: "x" }), "\n\n  x  \n\n");
  });

  for (const name of ["broken.txt", "bad-syntax.txt", "does-not-exist.txt"]) {
    it(`raises an error naming the template for ${name}`, () => {
      assert.throws(
        () => renderTemplate(createTemplateEnv(targetDir), name, { name: "x" }),
        (error: unknown) => error instanceof Error && error.message.includes(`"${name}"`) && error.cause !== undefined,
      );
    });
  }
});

describe("precompileTemplates", () => {
  // A directory compiled ahead of time, whose table is then doctored: an answer carrying the
  // doctored text proves the compiled code ran, not the template's text.
  async function compiledDir(): Promise<string> {
    const dir = await mkdtemp(join(root, "compiled-"));
    await mkdir(join(dir, "parts"));
    await writeFile(join(dir, "page.njk"), 'page {{ name }}: {% include "parts/line.njk" %}|{% include "./parts/line.njk" %}\n');
    await writeFile(join(dir, "parts", "line.njk"), "line {{ name }}");
    await writeFile(join(dir, "notes.txt"), "not a template");
    assert.equal(precompileTemplates(dir), 2, "every .njk file, nothing else");
    const tableFile = `${dir}.compiled.json`;
    const table = JSON.parse(await readFile(tableFile, "utf8"));
    assert.deepEqual(Object.keys(table.templates), ["page.njk", "parts/line.njk"]);
    for (const entry of Object.values(table.templates) as { code: string }[]) entry.code = entry.code.replaceAll("line ", "LINE ").replaceAll("page ", "PAGE ");
    await writeFile(tableFile, JSON.stringify(table));
    return dir;
  }

  it("renders a template from its compiled code while its text is unchanged, relative includes too", async () => {
    const dir = await compiledDir();
    assert.equal(renderTemplate(createTemplateEnv(dir), "page.njk", { name: "a" }), "PAGE a: LINE a|LINE a");
  });

  it("compiles a template whose text changed from its text, and a directory listed before it from its own", async () => {
    const dir = await compiledDir();
    await writeFile(join(dir, "parts", "line.njk"), "edited {{ name }}");
    assert.equal(renderTemplate(createTemplateEnv(dir), "page.njk", { name: "a" }), "PAGE a: edited a|edited a");
    const overrides = await mkdtemp(join(root, "overrides-"));
    await writeFile(join(overrides, "page.njk"), "mine {{ name }}\n");
    assert.equal(renderTemplate(createTemplateEnv(overrides, dir), "page.njk", { name: "b" }), "mine b\n");
  });

  it("ignores a table another nunjucks version compiled", async () => {
    const dir = await compiledDir();
    const tableFile = `${dir}.compiled.json`;
    const table = JSON.parse(await readFile(tableFile, "utf8"));
    await writeFile(tableFile, JSON.stringify({ ...table, nunjucks: "0.0.1" }));
    assert.equal(renderTemplate(createTemplateEnv(dir), "page.njk", { name: "a" }), "page a: line a|line a");
  });
});
