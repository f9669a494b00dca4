// `comms` of a be config: defaults, every mistake reported at the path the user wrote
// (unknown target, duplicate names, bad dotted paths, a template file that is not there),
// template files read relative to the config, and nothing generated without `comms`.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ConfigError, type Target, configIssuesOf, discoverTargets, generate } from "../../../src/codegen/index.js";
import { readTemplateFiles } from "../../../src/targets/be/config/comms.js";
import { type KilnCommsConfig, ProjectConfig } from "../../../src/targets/be/config/schema.js";

const article = {
  model: "blog.models.Article",
  fields: [
    { name: "id", type: "uuid" },
    { name: "title", type: "str" },
  ],
  operations: ["get"],
};

const comms = (overrides: Record<string, unknown> = {}) => ({
  types: [{ name: "welcome", context: "blog.messages.Welcome", subject: "Hi {{ name }}", body: "Welcome, {{ name }}.", targets: ["email"] }],
  targets: [{ name: "email", type: "smtp" }],
  ...overrides,
});

function issues(config: Record<string, unknown>): string[] {
  const result = ProjectConfig.safeParse({ module: "blog", resources: [article], comms: config });
  return result.success ? [] : configIssuesOf(result.error).map((issue) => `${issue.path}: ${issue.message}`);
}

const cleanup: string[] = [];
after(() => Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true }))));

async function be(): Promise<Target> {
  return (await discoverTargets()).find((target) => target.name === "be")!;
}

/** Generates from a config written into a new directory (with `files` beside it); returns the output directory. */
async function generateWith(config: unknown, files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-comms-"));
  cleanup.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await writeFile(join(dir, "project.json"), JSON.stringify(config));
  const out = join(dir, "out");
  await generate({ target: await be(), configFile: join(dir, "project.json"), outDir: out });
  return out;
}

describe("comms config", () => {
  test("fills the defaults: SMTP settings from SMTP_* variables, 5 attempts, 10 s before the first retry", () => {
    const parsed = ProjectConfig.parse({ module: "blog", resources: [article], comms: comms() });
    assert.deepEqual(parsed.comms, {
      types: [{ name: "welcome", context: "blog.messages.Welcome", subject: "Hi {{ name }}", body: "Welcome, {{ name }}.", html: false, targets: ["email"] }],
      targets: [
        {
          name: "email",
          type: "smtp",
          host_env: "SMTP_HOST",
          port_env: "SMTP_PORT",
          from_env: "SMTP_FROM",
          tls_env: "SMTP_TLS",
          username_env: "SMTP_USERNAME",
          password_env: "SMTP_PASSWORD",
        },
      ],
      max_attempts: 5,
      retry_delay: 10,
    });
    assert.equal(ProjectConfig.parse({ module: "blog", resources: [article] }).comms, undefined);
  });

  test("an unknown or duplicate target, a duplicate type and a bad dotted path are reported at their paths", () => {
    const bad = comms({
      types: [
        { name: "welcome", context: "Welcome", subject: "s", body: "b", targets: ["email", "sms"] },
        { name: "welcome", context: "blog.messages.Welcome", subject: "s", body: { path: "x" }, targets: [] },
      ],
      targets: [
        { name: "email", type: "smtp", host_env: "smtp host" },
        { name: "email", type: "webhook", url_env: "HOOK_URL" },
        { name: "pager", type: "pigeon" },
      ],
      retry_delay: 0,
    });
    assert.deepEqual(issues(bad), [
      'comms.types[0].context: must be a dotted import path with a module and a name, like "blog.models.Article"',
      "comms.types[1].body: expected template text, or { file } naming a template file",
      "comms.types[1].targets: must name at least one target",
      'comms.targets[0].host_env: must be an environment variable name like "DATABASE_URL" (letters, digits and underscores)',
      "comms.targets[1].secret_env: Invalid input: expected string, received undefined",
      'comms.targets[2].type: expected a target with type "smtp" or "webhook"',
      "comms.retry_delay: must be a positive number of seconds",
    ]);
    assert.deepEqual(issues(comms({ types: [...comms().types, { ...comms().types[0], targets: ["email", "sms"] }] })), [
      'comms.types[1].name: duplicate message type "welcome" (already used by types[0])',
      'comms.types[1].targets[1]: unknown target "sms"; known targets: "email"',
    ]);
  });

  test("kiln's shape (with message_model) fills kiln's defaults; its mistakes, an unknown database among them, are reported at their paths", () => {
    const kiln = { message_model: "shop.models.CommMessage", recipient_model: "shop.models.CommRecipient" };
    const parsed = ProjectConfig.parse({
      module: "blog",
      resources: [article],
      comms: { ...kiln, types: [{ name: "placed", context_schema: "shop.comms.Placed", body_template: { path: "t.txt" } }] },
    }).comms;
    assert.deepEqual(parsed, {
      ...kiln,
      types: [{ name: "placed", context_schema: "shop.comms.Placed", subject_template: "", body_template: { path: "t.txt" }, default_methods: [] }],
      transports: {},
    });
    assert.deepEqual(
      issues({ ...kiln, transports: { email: "transport" }, renderers: "x", types: [{ name: "placed", context: "shop.comms.Placed" }] }),
      [
        "comms.types[0].context_schema: Invalid input: expected string, received undefined",
        "comms.types[0].body_template: expected template text, or { path } naming a template file",
        "comms.types[0].context: unknown key",
        'comms.transports.email: must be a dotted import path with a module and a name, like "blog.models.Article"',
        "comms.renderers: unknown key",
      ],
    );
    assert.deepEqual(issues({ ...kiln, db_key: "archive" }), ['comms.db_key: unknown database "archive"; known databases: "default"']);
  });

  test("kiln's { path } is read relative to the directory codegen runs in, not the config's; a missing one is an issue at its path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "codegen-kiln-path-"));
    cleanup.push(dir);
    await writeFile(join(dir, "placed.txt"), "Placed: {{ reference }}");
    const type = { name: "placed", context_schema: "shop.comms.Placed", subject_template: "", default_methods: [] };
    const kiln = (path: string): KilnCommsConfig => ({
      message_model: "shop.models.CommMessage",
      recipient_model: "shop.models.CommRecipient",
      transports: {},
      types: [{ ...type, body_template: { path } }],
    });
    const configFile = join(dir, "config", "project.jsonnet");
    const read = readTemplateFiles(kiln("placed.txt"), configFile, dir);
    assert.deepEqual(read.issues, []);
    assert.equal(read.comms.types[0]!.body_template, "Placed: {{ reference }}");
    const missing = readTemplateFiles(kiln("config/placed.txt"), configFile, dir);
    assert.deepEqual(
      missing.issues.map((issue) => `${issue.path}: ${issue.message.replace(/ \(.*\)/, "")}`),
      ['comms.types[0].body_template.path: cannot read template "config/placed.txt": no such file'],
    );
  });

  test("a template file is read relative to the config; a missing one is a ConfigError at its path, and nothing is written", async () => {
    const config = (body: unknown) => ({ module: "blog", resources: [article], comms: comms({ types: [{ ...comms().types[0], body }] }) });
    const out = await generateWith(config({ file: "templates/welcome.txt" }), { "templates/welcome.txt": 'Dear {{ name }},\n"welcome"\n' });
    const module = await readFile(join(out, "comms.py"), "utf8");
    assert.match(module, /body='Dear \{\{ name \}\},\\n"welcome"\\n'/);
    assert.match(module, /from blog\.messages import Welcome/);
    assert.ok(existsSync(join(out, "runtime", "comms.py")));

    let missingOut = "";
    const missing = generateWith(config({ file: "templates/nowhere.txt" })).then((dir) => (missingOut = dir));
    await assert.rejects(missing, (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.deepEqual(
        error.issues.map((issue) => issue.path),
        ["comms.types[0].body.file"],
      );
      assert.match(error.issues[0]!.message, /cannot read template "templates\/nowhere.txt" \(.*nowhere.txt\): no such file/);
      return true;
    });
    assert.equal(missingOut, "");
    assert.equal(existsSync(join(cleanup.at(-1)!, "out")), false, "a file was written");
  });

  test("a project without comms gets no comms code", async () => {
    const out = await generateWith({ module: "blog", resources: [article] });
    assert.equal(existsSync(join(out, "comms.py")), false);
    assert.equal(existsSync(join(out, "runtime", "comms.py")), false);
  });
});
