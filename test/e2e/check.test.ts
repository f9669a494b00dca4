/**
 * End-to-end: `codegen check` in a `be_root` project, in the project's Python (the tests'
 * venv): the starter config passes; a model path with a typo, a field the model lacks (and an
 * order naming it), a nested field without its relationship and a list filter on an attribute
 * the model lacks each give one line with the config path, status 1.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, it } from "node:test";
import { builtCli } from "../helpers/codegen-cli.js";
import { ensureVenv } from "../support/venv.js";

const cli = await builtCli();
let root: string;
let project: string;
let env: NodeJS.ProcessEnv;

/** `codegen <args>` in the project; its status and stderr, within `timeoutMs`. */
function codegen(timeoutMs: number, ...args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: project, env, timeout: timeoutMs }, (error, _stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === "number" ? error.code : 128) : 0, stderr });
    });
  });
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-check-"));
  project = join(root, "shop");
  await mkdir(project);
  const venv = await ensureVenv();
  env = { ...process.env, VIRTUAL_ENV: dirname(dirname(venv.python)), NODE_OPTIONS: "", NO_COLOR: "1" };
  await writeFile(join(root, "be_root.jsonnet"), "{ name: 'shop' }\n");
  const scaffold = await codegen(60_000, "generate", "-t", "be_root", "-c", "../be_root.jsonnet", "-o", ".");
  assert.equal(scaffold.status, 0, scaffold.stderr);
});

after(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

it("codegen check names each config reference the models do not have, with its config path", { timeout: 180_000 }, async () => {
  const passing = await codegen(60_000, "check");
  assert.equal(passing.status, 0, passing.stderr);
  assert.match(passing.stderr, /every model, field and relationship .* names exists/);

  const configFile = join(project, "config", "project.jsonnet");
  const config = await readFile(configFile, "utf8");
  const broken = config
    .replace("f.str('body'), f.bool('pinned')", "f.str('bodi'), f.bool('pinned')")
    .replace("order={ fields: ['created_at', 'title']", "order={ fields: ['created_at', 'bodi']")
    .replace(
      /\n {2}\],\n\}\n$/,
      `
    { model: 'shop.modelz.Tag', pk_type: 'int', fields: [f.int('id')], operations: ['get'] },
    {
      model: 'shop.models.Note',
      name: 'nested_note',
      route_prefix: '/nested-notes',
      fields: [f.uuid('id'), { name: 'author', type: 'nested', model: 'shop.models.Note', fields: [f.str('title')] }],
      operations: ['get', { name: 'list', modifiers: [{ type: 'filter', fields: ['id', { name: 'rank', values: 'literal', type: 'int' }] }] }],
    },
  ],
}
`,
    );
  assert.notEqual(broken, config);
  await writeFile(configFile, broken);
  const failing = await codegen(60_000, "check");
  assert.equal(failing.status, 1, failing.stderr);
  const lines = failing.stderr.trim().split("\n");
  assert.deepEqual(lines, [
    `codegen check: ${configFile}: resources[0].fields[2].name: shop.models.Note has no column or attribute bodi`,
    `codegen check: ${configFile}: resources[0].operations[1].modifiers[0].fields[1]: shop.models.Note has no column or attribute bodi`,
    `codegen check: ${configFile}: resources[1].model: shop.modelz.Tag: no module shop.modelz`,
    `codegen check: ${configFile}: resources[2].fields[1].name: shop.models.Note has no relationship author`,
    `codegen check: ${configFile}: resources[2].operations[1].modifiers[0].fields[1].name: shop.models.Note has no column or attribute rank`,
  ]);
});
