// A toy target for engine tests: pages of text, an index listing them, a skip-policy licence,
// and two outputs for error paths (one only the process-wide render registry knows, one
// nothing renders). Its operations live in a plugin package installed in a temp project, as
// `loadRegistry` finds them; its templates in the project.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

import { scoped } from "../../src/codegen/scopes.js";
import type { Target } from "../../src/codegen/target.js";
import { createUserProject, installPackage } from "./user-project.js";

const OPERATIONS = `
import { FileFragment, StaticFile, operation, registry, type BuildContext } from "codegen-kit";
import { z } from "zod";

/** An output only the process-wide render registry knows. */
export class Note {
  constructor(readonly text: string) {}
}
registry.renders(Note, (note) => [new FileFragment({ path: "NOTE.txt", template: "note.njk", context: { text: note.text } })]);

/** An output nothing renders. */
export class Orphan {}

@operation("page", { scope: "page" })
export class PageOp {
  static Options = z.object({ name: z.string(), path: z.string().optional(), words: z.int().positive().default(1) }).loose();
  build(_ctx: BuildContext, page: { name: string; path?: string; words: number }) {
    return [new StaticFile({ path: page.path ?? \`pages/\${page.name}.txt\`, template: "page.njk", context: page })];
  }
}

@operation("index", { scope: "project", afterChildren: true })
export class IndexOp {
  build(ctx: BuildContext) {
    const pages = ctx.config.pages.map((page: { name: string }) => page.name);
    const outputs: unknown[] = [
      new StaticFile({ path: "index.txt", template: "index.njk", context: { pages } }),
      new StaticFile({ path: "LICENSE.txt", template: "license.njk", ifExists: "skip" }),
    ];
    if (ctx.config.note) outputs.push(new Note(ctx.config.note));
    if (ctx.config.orphan) outputs.push(new Orphan());
    return outputs;
  }
}
`;

const TEMPLATES: Record<string, string> = {
  "page.njk": "{{ name }} x{{ words }}\n",
  "index.njk": "{% for page in pages %}{{ page }}\n{% endfor %}",
  "license.njk": "All rights reserved.\n",
  "note.njk": "{{ text }}\n",
};

const Page = z.object({ name: z.string() }).loose();
const Schema = z.object({
  package_prefix: z.string().default(""),
  note: z.string().optional(),
  orphan: z.boolean().optional(),
  pages: scoped("page", z.array(Page)),
});

/**
 * A temp project with the toy target's plugin package installed (`cwd` for discovery) and the
 * target (`toy`). Configs: `{ pages: [{ name, words?, path? }], note?, orphan?, package_prefix? }`.
 */
export async function installToyTarget(): Promise<{ project: string; toy: Target }> {
  const project = await createUserProject({ fixture: false });
  await installPackage(project, "toy-gen", { codegen: { "toy.operations": { page: "./ops.ts#PageOp", index: "./ops.ts#IndexOp" } } }, {
    "ops.ts": OPERATIONS,
  });
  const templateDir = path.join(project, "templates");
  await mkdir(templateDir);
  for (const [name, text] of Object.entries(TEMPLATES)) await writeFile(path.join(templateDir, name), text);
  return { project, toy: { name: "toy", language: "python", schema: Schema, templateDir, operationsEntryPoint: "toy.operations" } };
}
