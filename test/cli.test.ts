import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { evaluateConfigFile } from "../src/codegen/config.js";
import { discoverTargets } from "../src/codegen/target.js";
import { runCodegen as codegen } from "./helpers/codegen-cli.js";
import {
  FIXTURE_PACKAGE,
  createUserProject,
  installPackage,
  makeTempDir,
  removeTempDirs,
  repoRoot,
  snapshot,
} from "./helpers/user-project.js";

// The `codegen` command as users run it, from the TypeScript sources, in temp projects
// with the fixture plugin (targets greeter and shouter) installed.

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

let project: string;
let installedNames: string[];
const config = (name: string) => path.join(project, "node_modules", FIXTURE_PACKAGE, "examples", name);

before(async () => {
  project = await createUserProject();
  installedNames = (await discoverTargets({ cwd: project })).map((target) => target.name);
});

after(removeTempDirs);

/** A fresh fixture project with `files` (relative path → text) written into it. */
async function freshProject(files: Record<string, string> = {}): Promise<string> {
  const dir = await createUserProject();
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  return dir;
}

/** A fresh fixture project holding a copy of `seed`'s output directory `out` and `files`: one generate run serves many tests. */
async function projectWithOut(seed: string, files: Record<string, string> = {}): Promise<string> {
  const dir = await freshProject(files);
  await cp(path.join(seed, "out"), path.join(dir, "out"), { recursive: true });
  return dir;
}

describe("codegen --help / --version", () => {
  it("--help prints usage with both commands and exits 0", async () => {
    const run = await codegen(project, ["--help"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Usage: codegen /);
    assert.match(run.stdout, /^\s+generate \[options\]/m);
    assert.match(run.stdout, /^\s+targets\b/m);
    assert.match(run.stdout, /^\s+validate \[options\]/m);
    assert.match(run.stdout, /^\s+clean \[options\]/m);
    assert.equal(run.stderr, "");
  });

  it("generate --help lists every generate option", async () => {
    const run = await codegen(project, ["generate", "--help"]);
    assert.equal(run.code, 0, run.stderr);
    for (const option of ["-t, --target <name>", "-c, --config <file>", "-o, --out <dir>", "--force", "--force-paths <glob...>"]) {
      assert.ok(run.stdout.includes(option), option);
    }
    assert.match(run.stdout, /--check\s+write nothing; exit 1 listing/);
    assert.match(run.stdout, /--dry-run\s+write nothing; print what each file/);
  });

  it("--version prints the package version and exits 0", async () => {
    const { version } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
    const run = await codegen(project, ["--version"]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `${version}\n`);
  });

  it("exits 2 for an unknown command", async () => {
    const run = await codegen(project, ["frobnicate"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown command 'frobnicate'/);
  });
});

describe("codegen targets", () => {
  it("lists every installed target with its config class, one per line", async () => {
    const run = await codegen(project, ["targets"]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.equal(lines.length, installedNames.length);
    assert.deepEqual(
      lines.map((line) => line.split("\t")[0]),
      installedNames,
    );
    assert.ok(lines.includes("greeter\tgreeter.config.GreeterConfig"), run.stdout);
    assert.ok(lines.includes("shouter\tshouter.config.ShouterConfig"), run.stdout);
  });
});

describe("codegen generate", () => {
  it("writes the target's files and prints one summary line", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "--target", "greeter", "--config", config("greeter.jsonnet"), "--out", "out"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(run.stdout, `codegen: 5 files written, 0 unchanged, 0 skipped, 0 deleted, in ${path.join(dir, "out")}\n`);
    assert.deepEqual(
      Object.keys(await snapshot(path.join(dir, "out"))).sort(),
      [".codegen-manifest.json", "CHANGELOG.md", "README.md", "greetings", "greetings/ada.ts", "greetings/grace_hopper.ts", "index.ts"],
    );
    const again = await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out"]);
    assert.equal(again.stdout, `codegen: 0 files written, 3 unchanged, 2 skipped, 0 deleted, in ${path.join(dir, "out")}\n`);
  });

  it("names each config key accepted without effect in a warning on stderr, and still writes", async () => {
    const kiln = {
      telemetry: { service_name: "blog" },
      module: "blog",
      resources: [{ model: "blog.models.Tag", operations: [{ name: "get", fields: [{ name: "id", type: "uuid" }], filters: [] }] }],
    };
    const dir = await freshProject({ "kiln.json": JSON.stringify(kiln) });
    const run = await codegen(dir, ["generate", "-t", "be", "-c", "kiln.json", "-o", "out"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stderr,
      "codegen: warning: kiln.json: resources[0].operations[0].filters: ignored (a kiln key): kiln's early list key, which kiln ignores too; " +
        'a { type: "filter" } modifier does it (list.searchable\'s filter argument)\n',

    );
    assert.match(run.stdout, /^codegen: \d+ files written/);
  });

  it("writes under the config's package prefix when --out is omitted", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-t", "shouter", "-c", config("shouter.jsonnet")]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(await snapshot(dir)).sort(), [
      "shouts",
      "shouts/.codegen-manifest.json",
      "shouts/__init__.py",
      "shouts/hey.py",
      "shouts/ho.py",
    ]);
  });

  it("requires --target when several targets are installed: exit 2, naming them, nothing written", async () => {
    assert.ok(installedNames.length > 1);
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-c", config("greeter.jsonnet"), "-o", "out"]);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, `Error: --target is required when several targets are installed (installed: ${installedNames.join(", ")})\n`);
    assert.equal(run.stdout, "");
    assert.deepEqual(await snapshot(dir), {});
  });

  it("exits 2 for an unknown target, naming the installed ones", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-t", "nope", "-c", config("greeter.jsonnet"), "-o", "out"]);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, `Error: unknown target "nope" (installed: ${installedNames.join(", ")})\n`);
    assert.deepEqual(await snapshot(dir), {});
  });

  it("exits 2 for an empty --out instead of writing into the current directory", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", ""]);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'Error: --out: the output directory is empty; use "-o ." for the current directory\n');
    assert.deepEqual(await snapshot(dir), {});
  });

  it("--timings prints each phase's milliseconds on stderr", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out", "--timings"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /^codegen: timings: start-up \d+ ms, load config \d+ ms, validate \d+ ms, build \d+ ms, render \d+ ms, write \d+ ms; total \d+ ms\n$/,
    );
  });

  it("exits 2 without --config", async () => {
    const dir = await freshProject();
    const run = await codegen(dir, ["generate", "-t", "greeter", "-o", "out"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /required option '-c, --config <file>' not specified/);
    assert.deepEqual(await snapshot(dir), {});
  });
});

describe("codegen generate with a single installed target", () => {
  // An engine copy whose own manifest declares no target, and a plugin declaring only
  // greeter: whatever this repository's manifest declares, exactly one target is installed.
  let dir: string;
  let cli: string;

  before(async () => {
    const root = await makeTempDir("codegen-single-");
    const engine = path.join(root, "engine");
    await mkdir(engine);
    const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8"));
    pkg.codegen = { "codegen.import_formatters": pkg.codegen["codegen.import_formatters"] };
    await writeFile(path.join(engine, "package.json"), JSON.stringify(pkg, null, 2));
    const cliModules = (await readdir(path.join(repoRoot, "src"))).filter((name) => /^cli.*\.ts$/.test(name));
    for (const part of [...cliModules, "codegen", "formatters"]) {
      await cp(path.join(repoRoot, "src", part), path.join(engine, "src", part), { recursive: true });
    }
    await symlink(path.join(repoRoot, "node_modules"), path.join(engine, "node_modules"), "dir");
    cli = path.join(engine, "src", "cli.ts");

    dir = path.join(root, "project");
    const modules = path.join(dir, "node_modules");
    await mkdir(modules, { recursive: true });
    await symlink(engine, path.join(modules, "codegen-kit"), "dir");
    await symlink(path.join(repoRoot, "node_modules", "zod"), path.join(modules, "zod"), "dir");
    const plugin = path.join(modules, FIXTURE_PACKAGE);
    await cp(path.join(repoRoot, "test", "fixtures", "plugin"), plugin, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(plugin, "package.json"), "utf8"));
    delete manifest.codegen["codegen.targets"].shouter;
    await writeFile(path.join(plugin, "package.json"), JSON.stringify(manifest, null, 2));
  });

  it("lists the one target", async () => {
    const run = await codegen(dir, ["targets"], cli);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "greeter\tgreeter.config.GreeterConfig\n");
  });

  it("runs it when --target is omitted", async () => {
    const run = await codegen(dir, ["generate", "-c", path.join(dir, "node_modules", FIXTURE_PACKAGE, "examples", "greeter.jsonnet")], cli);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `codegen: 5 files written, 0 unchanged, 0 skipped, 0 deleted, in ${path.join(dir, "hello", "web")}\n`);
    assert.match(await readFile(path.join(dir, "hello", "web", "index.ts"), "utf8"), /export const greetings = \[greetAda, greetGraceHopper\];/);
  });
});

describe("codegen schema", () => {
  it("prints a third-party target's config as JSON Schema, draft 2020-12, from its zod schema", async () => {
    const run = await codegen(project, ["schema", "--target", "greeter"]);
    assert.equal(run.code, 0, run.stderr);
    const schema = JSON.parse(run.stdout);
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(schema.title, "codegen greeter config");
    assert.equal(schema.type, "object");
    assert.equal(schema.properties.$schema.type, "string", "a .json config may name its schema");
  });

  it("prints the config reference with --markdown", async () => {
    const run = await codegen(project, ["schema", "-t", "greeter", "--markdown"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# `greeter` config reference$/m);
  });

  it("exits 2 for an unknown target, naming the installed ones", async () => {
    const run = await codegen(project, ["schema", "-t", "nope"]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^Error: unknown target "nope" \(installed: /);
  });

  it("lets generate read a .json config that names its schema in $schema", async () => {
    const dir = await freshProject();
    const written = (await evaluateConfigFile(config("greeter.jsonnet"), await discoverTargets({ cwd: project }))) as object;
    await writeFile(path.join(dir, "greeter.json"), JSON.stringify({ $schema: "./greeter.schema.json", ...written }));
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", "greeter.json", "-o", "out"]);
    assert.equal(run.code, 0, run.stderr);
  });
});

describe("codegen generate: errors", () => {
  const BAD_CONFIG = JSON.stringify({ greeting: "", people: [{ name: "ada", colour: "red" }] });

  it("prints a ConfigError as `Error loading config: <file>: …` with config paths, exit 1, no stack", async () => {
    const dir = await freshProject({ "bad.json": BAD_CONFIG });
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", "bad.json", "-o", "out"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines[0], 'Error loading config: bad.json: invalid configuration for target "greeter"');
    assert.ok(lines.some((line) => /^ {2}greeting: /.test(line)), run.stderr);
    assert.ok(lines.includes("  people[0].colour: unknown key"), run.stderr);
    assert.doesNotMatch(run.stderr, STACK_LINE);
    assert.deepEqual(await snapshot(dir), { "bad.json": BAD_CONFIG });
  });

  it("adds the stack trace with --verbose", async () => {
    const dir = await freshProject({ "bad.json": BAD_CONFIG });
    const run = await codegen(dir, ["--verbose", "generate", "-t", "greeter", "-c", "bad.json", "-o", "out"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Error loading config: bad\.json: /);
    assert.match(run.stderr, STACK_LINE);
  });

  it("reports a jsonnet error with file:line:column", async () => {
    const dir = await freshProject({ "broken.jsonnet": "{\n  people: [,\n}\n" });
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", "broken.jsonnet", "-o", "out"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Error loading config: broken\.jsonnet: jsonnet error: .*\n --> broken\.jsonnet:2:\d+\n/);
    assert.doesNotMatch(run.stderr, STACK_LINE);
  });

  it("prints a GenerationError as `Error: …`, exit 1, leaving the out dir untouched", async () => {
    const conflict = JSON.stringify({ people: [{ name: "ada" }, { name: "ada", greeting: "Hi" }] });
    const dir = await freshProject({ "conflict.json": conflict, "escape.json": JSON.stringify({ people: [{ name: "ada", file: "../../x.ts" }] }) });
    assert.equal((await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out"])).code, 0);
    const before = await snapshot(dir);

    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", "conflict.json", "-o", "out"]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      'Error: conflict.json: greetings/ada.ts: fragments of template "greeting.ts.njk" disagree on context key "lines" ' +
        "(generated for people[0] and people[1])\n",
    );
    const escape = await codegen(dir, ["generate", "-t", "greeter", "-c", "escape.json", "-o", "out"]);
    assert.equal(escape.code, 1);
    assert.equal(escape.stderr, 'Error: escape.json: output path "../../x.ts" escapes the output directory (generated for people[0])\n');
    assert.deepEqual(await snapshot(dir), before);
  });

  it("reports an internal bug as such: exit 1, no stack unless --verbose, nothing written", async () => {
    const dir = await freshProject();
    await installPackage(dir, "buggy-plugin", { codegen: { "greeter.operations": { boom: "./boom.ts#BoomOp" } } }, {
      "boom.ts": [
        'import { operation } from "codegen-kit";',
        "",
        '@operation("boom", { scope: "project" })',
        "export class BoomOp {",
        "  build(): unknown[] {",
        '    throw new Error("kaboom in a plugin");',
        "  }",
        "}",
        "",
      ].join("\n"),
    });
    const run = await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Error: internal error in codegen: kaboom in a plugin\n/);
    assert.doesNotMatch(run.stderr, STACK_LINE);
    const verbose = await codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out", "--verbose"]);
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /internal error in codegen: kaboom in a plugin/);
    assert.match(verbose.stderr, /at BoomOp\.build .*boom\.js/);
    assert.deepEqual(await snapshot(dir), {});
  });
});

describe("codegen generate: --force and --force-paths", () => {
  // greeter writes README.md and CHANGELOG.md with the skip policy, the rest with overwrite.
  let seed: string;
  before(async () => {
    seed = await freshProject();
    assert.equal((await codegen(seed, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out"])).code, 0);
  });
  async function edited(): Promise<string> {
    const dir = await projectWithOut(seed);
    for (const file of ["README.md", "CHANGELOG.md", "index.ts"]) await writeFile(path.join(dir, "out", file), `edited ${file}\n`);
    return dir;
  }
  const read = (dir: string, file: string) => readFile(path.join(dir, "out", file), "utf8");
  const generateWith = (dir: string, ...extra: string[]) =>
    codegen(dir, ["generate", "-t", "greeter", "-c", config("greeter.jsonnet"), "-o", "out", ...extra]);

  it("keeps edited skip-policy files and overwrites the rest by default", async () => {
    const dir = await edited();
    const run = await generateWith(dir);
    assert.match(run.stdout, /^codegen: 1 file written, 2 unchanged, 2 skipped, 0 deleted, in /);
    assert.equal(await read(dir, "README.md"), "edited README.md\n");
    assert.equal(await read(dir, "CHANGELOG.md"), "edited CHANGELOG.md\n");
    assert.match(await read(dir, "index.ts"), /^\/\/ Generated by codegen/);
  });

  it("--force overwrites every skip-policy file", async () => {
    const dir = await edited();
    const run = await generateWith(dir, "--force");
    assert.match(run.stdout, /^codegen: 3 files written, 2 unchanged, 0 skipped, 0 deleted, in /);
    assert.match(await read(dir, "README.md"), /^# Greetings/);
    assert.equal(await read(dir, "CHANGELOG.md"), "");
  });

  it("--force-paths overwrites only the skip-policy files matching its globs", async () => {
    const dir = await edited();
    const run = await generateWith(dir, "--force-paths", "README.*");
    assert.match(run.stdout, /^codegen: 2 files written, 2 unchanged, 1 skipped, 0 deleted, in /);
    assert.match(await read(dir, "README.md"), /^# Greetings/);
    assert.equal(await read(dir, "CHANGELOG.md"), "edited CHANGELOG.md\n");
  });

  it("--force-paths takes several globs; a name without a wildcard matches exactly", async () => {
    const dir = await edited();
    const run = await generateWith(dir, "--force-paths", "CHANGELOG.md", "README", "--out", "out");
    assert.match(run.stdout, /^codegen: 2 files written, 2 unchanged, 1 skipped, 0 deleted, in /);
    assert.equal(await read(dir, "CHANGELOG.md"), "");
    assert.equal(await read(dir, "README.md"), "edited README.md\n");
  });
});

const TWO = JSON.stringify({ people: [{ name: "ada" }, { name: "bob" }] });
let twoGenerated: Promise<string> | undefined;
/** A project with greeter's two.json generated into out/, made once for the tests that copy it. */
function generatedTwo(): Promise<string> {
  twoGenerated ??= (async () => {
    const seed = await freshProject({ "two.json": TWO });
    const run = await codegen(seed, ["generate", "-t", "greeter", "-c", "two.json", "-o", "out"]);
    assert.equal(run.code, 0, run.stderr);
    return seed;
  })();
  return twoGenerated;
}

describe("codegen generate --check and --dry-run", () => {
  const ONE_NEW = JSON.stringify({ people: [{ name: "ada", greeting: "Hi" }, { name: "cy" }] });
  const run = (dir: string, config: string, ...extra: string[]) =>
    codegen(dir, ["generate", "-t", "greeter", "-c", config, "-o", "out", ...extra]);
  let seed: string;
  before(async () => {
    seed = await generatedTwo();
  });

  it("--check on an empty directory lists every file to create, exits 1 and writes nothing", async () => {
    const dir = await freshProject({ "two.json": TWO });
    const check = await run(dir, "two.json", "--check");
    assert.equal(check.code, 1);
    assert.equal(
      check.stdout,
      ["CHANGELOG.md", "README.md", "greetings/ada.ts", "greetings/bob.ts", "index.ts"].map((file) => `create ${file}\n`).join(""),
    );
    assert.equal(check.stderr, `codegen: 5 files out of date in ${path.join(dir, "out")}; run codegen generate without --check\n`);
    assert.deepEqual(await snapshot(dir), { "two.json": TWO });
  });

  it("--check exits 0 with one line when up to date; existing skip-policy files are not drift", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO });
    await writeFile(path.join(dir, "out", "README.md"), "my own readme\n");
    const before = await snapshot(dir);
    const check = await run(dir, "two.json", "--check");
    assert.equal(check.code, 0, check.stderr);
    assert.equal(check.stdout, `codegen: up to date, 5 files checked, in ${path.join(dir, "out")}\n`);
    assert.equal(check.stderr, "");
    assert.deepEqual(await snapshot(dir), before);
  });

  it("--check lists overwrites and deletions, sorted by path, after a config change", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO, "new.json": ONE_NEW });
    const before = await snapshot(dir);
    const check = await run(dir, "new.json", "--check");
    assert.equal(check.code, 1);
    assert.equal(check.stdout, "overwrite greetings/ada.ts\ndelete greetings/bob.ts\ncreate greetings/cy.ts\noverwrite index.ts\n");
    assert.deepEqual(await snapshot(dir), before);
  });

  it("--dry-run prints every file's action and a summary saying nothing was written", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO, "new.json": ONE_NEW });
    const before = await snapshot(dir);
    const dry = await run(dir, "new.json", "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(
      dry.stdout,
      [
        "skip CHANGELOG.md",
        "skip README.md",
        "overwrite greetings/ada.ts",
        "delete greetings/bob.ts",
        "create greetings/cy.ts",
        "overwrite index.ts",
        `codegen: dry run, nothing written: 3 files to write, 0 unchanged, 2 skipped, 1 to delete, in ${path.join(dir, "out")}`,
        "",
      ].join("\n"),
    );
    assert.deepEqual(await snapshot(dir), before);
    // The real run does what the dry run said.
    const real = await run(dir, "new.json");
    assert.equal(real.stdout, `codegen: 3 files written, 0 unchanged, 2 skipped, 1 deleted, in ${path.join(dir, "out")}\n`);
    assert.equal((await snapshot(dir))["out/greetings/bob.ts"], undefined);
  });

  it("warns on stderr about a stale file it keeps because the user edited it", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO, "new.json": ONE_NEW });
    await writeFile(path.join(dir, "out", "greetings", "bob.ts"), "// mine now\n");
    const real = await run(dir, "new.json");
    assert.equal(real.code, 0);
    assert.equal(
      real.stderr,
      "codegen: warning: kept greetings/bob.ts: no longer generated, but it changed since codegen generated it; delete it yourself if unneeded\n",
    );
    assert.match(real.stdout, /, 0 deleted, in /);
    assert.equal(await readFile(path.join(dir, "out", "greetings", "bob.ts"), "utf8"), "// mine now\n");
  });

  it("refuses --check with --dry-run: usage error, exit 2, nothing written", async () => {
    const dir = await freshProject({ "two.json": TWO });
    const both = await run(dir, "two.json", "--check", "--dry-run");
    assert.equal(both.code, 2);
    assert.equal(both.stderr, "error: option '--check' cannot be used with option '--dry-run'\n");
    assert.deepEqual(await snapshot(dir), { "two.json": TWO });
  });
});

describe("codegen validate", () => {
  it("checks a config as generate does and writes nothing: exit 0, one line naming the target and the file count", async () => {
    const dir = await freshProject({ "two.json": TWO });
    const run = await codegen(dir, ["validate", "-t", "greeter", "-c", "two.json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'codegen: two.json is valid for target "greeter" (5 files to generate)\n');
    assert.equal(run.stderr, "");
    assert.deepEqual(await snapshot(dir), { "two.json": TWO });
  });

  it("reports every bad config path, exit 1, nothing written", async () => {
    const bad = JSON.stringify({ greeting: "", people: [{ name: "ada", colour: "red" }] });
    const dir = await freshProject({ "bad.json": bad });
    const run = await codegen(dir, ["validate", "-t", "greeter", "-c", "bad.json"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines[0], 'Error loading config: bad.json: invalid configuration for target "greeter"');
    assert.ok(lines.includes("  people[0].colour: unknown key"), run.stderr);
    assert.deepEqual(await snapshot(dir), { "bad.json": bad });
  });

  it("refuses what only building the files shows: an output path leaving the output directory", async () => {
    const escape = JSON.stringify({ people: [{ name: "ada", file: "../../x.ts" }] });
    const dir = await freshProject({ "escape.json": escape });
    const run = await codegen(dir, ["validate", "-t", "greeter", "-c", "escape.json"]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'Error: escape.json: output path "../../x.ts" escapes the output directory (generated for people[0])\n');
    assert.deepEqual(await snapshot(dir), { "escape.json": escape });
  });

  it("refuses an output path that is the manifest's, as generate does", async () => {
    const clash = JSON.stringify({ people: [{ name: "ada", file: ".codegen-manifest.json" }] });
    const dir = await freshProject({ "clash.json": clash });
    const run = await codegen(dir, ["validate", "-t", "greeter", "-c", "clash.json"]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'Error: clash.json: output path ".codegen-manifest.json" is reserved for codegen\'s manifest (generated for people[0])\n');
    assert.deepEqual(await snapshot(dir), { "clash.json": clash });
  });
});

describe("codegen clean", () => {
  let seed: string;
  before(async () => {
    seed = await generatedTwo();
  });

  it("deletes exactly the unchanged files the target recorded, keeps every other, and forgets them", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO });
    const out = path.join(dir, "out");
    // The user's files, a generated file the user edited, one another target recorded too,
    // and one recorded where a link now leads out of the output directory.
    await writeFile(path.join(out, "mine.txt"), "mine\n");
    await writeFile(path.join(out, "greetings", "notes.md"), "notes\n");
    await writeFile(path.join(out, "greetings", "bob.ts"), "// mine now\n");
    const outside = await makeTempDir("codegen-outside-");
    await writeFile(path.join(outside, "x.ts"), "x\n");
    await symlink(outside, path.join(out, "elsewhere"), "dir");
    const manifestFile = path.join(out, ".codegen-manifest.json");
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    const index = manifest.targets.greeter.find((file: { path: string }) => file.path === "index.ts");
    manifest.targets.greeter.push({ path: "elsewhere/x.ts", sha256: createHash("sha256").update("x\n").digest("hex") });
    manifest.targets.shouter = [index];
    await writeFile(manifestFile, JSON.stringify(manifest));

    const run = await codegen(dir, ["clean", "-t", "greeter", "-c", "two.json", "-o", "out"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `codegen: 1 file deleted, 2 kept, 2 skipped, in ${out}\n`);
    assert.equal(
      run.stderr,
      "codegen: warning: kept elsewhere/x.ts: it now lies outside the output directory " +
        `(${outside}); delete it yourself if unneeded\n` +
        "codegen: warning: kept greetings/bob.ts: it changed since codegen generated it; delete it yourself if unneeded\n",
    );
    const after = await snapshot(out);
    assert.deepEqual(Object.keys(after).sort(), [
      ".codegen-manifest.json",
      "CHANGELOG.md",
      "README.md",
      "elsewhere",
      "greetings",
      "greetings/bob.ts",
      "greetings/notes.md",
      "index.ts",
      "mine.txt",
    ]);
    assert.equal(await readFile(path.join(outside, "x.ts"), "utf8"), "x\n");
    const left = JSON.parse(after[".codegen-manifest.json"]!);
    assert.deepEqual(left.targets, { shouter: [index] }, "greeter's part is gone, the other target's stays");
    assert.equal(left.runs, undefined);
  });

  it("removes the manifest with the last target's files, leaving the output directory and the user's files", async () => {
    const dir = await projectWithOut(seed, { "two.json": TWO });
    await writeFile(path.join(dir, "out", "mine.txt"), "mine\n");
    const run = await codegen(dir, ["clean", "-t", "greeter", "-c", "two.json", "-o", "out"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `codegen: 3 files deleted, 0 kept, 2 skipped, in ${path.join(dir, "out")}\n`);
    assert.deepEqual(Object.keys(await snapshot(path.join(dir, "out"))).sort(), ["CHANGELOG.md", "README.md", "mine.txt"]);
  });

  it("deletes nothing for a bad config: exit 1 with its config paths", async () => {
    const bad = JSON.stringify({ people: [{ name: "ada", colour: "red" }] });
    const dir = await projectWithOut(seed, { "bad.json": bad });
    const before = await snapshot(dir);
    const run = await codegen(dir, ["clean", "-t", "greeter", "-c", "bad.json", "-o", "out"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Error loading config: bad\.json: invalid configuration for target "greeter"\n {2}people\[0\]\.colour: unknown key\n$/);
    assert.deepEqual(await snapshot(dir), before);
  });
});
