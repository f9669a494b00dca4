import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";

import { evaluateConfigFile, loadConfig } from "../../src/codegen/config.js";
import { CLIError, ConfigError } from "../../src/codegen/errors.js";
import type { Target } from "../../src/codegen/target.js";

let root: string;

const Item = z.strictObject({ name: z.string(), size: z.int().positive().default(1) });
const Schema = z.strictObject({
  title: z.string().min(1),
  items: z.array(Item).default([]),
  mode: z.enum(["fast", "slow"]).default("fast"),
});

function toyTarget(name: string, stdlibDir?: string): Target<z.infer<typeof Schema>> {
  return {
    name,
    language: "python",
    schema: Schema,
    templateDir: path.join(root, "templates"),
    operationsEntryPoint: `${name}.operations`,
    jsonnetStdlibDir: stdlibDir,
  };
}

let toy: Target<z.infer<typeof Schema>>;
let other: Target<z.infer<typeof Schema>>;

/** Writes `text` at `relative` under the temp root and returns its path. */
async function write(relative: string, text: string): Promise<string> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const configError = (check: (error: ConfigError) => void) => (error: unknown) => {
  assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
  check(error);
  return true;
};

before(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "codegen-config-")));
  // Each stdlib directory is named after its target; its parent holds nothing else of note.
  await write("lib/toy/toy/helpers.libsonnet", "{ item(name, size=1):: { name: name, size: size } }\n");
  await write("lib/other/other/extra.libsonnet", '{ title: "from other" }\n');
  toy = toyTarget("toy", path.join(root, "lib/toy/toy"));
  other = toyTarget("other", path.join(root, "lib/other/other"));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("loadConfig: .json", () => {
  it("parses and validates, applying the schema's defaults", async () => {
    const file = await write("ok.json", JSON.stringify({ title: "T", items: [{ name: "a" }, { name: "b", size: 3 }] }));
    assert.deepEqual(await loadConfig(file, toy), {
      title: "T",
      items: [
        { name: "a", size: 1 },
        { name: "b", size: 3 },
      ],
      mode: "fast",
    });
  });

  it("accepts a UTF-8 byte-order mark", async () => {
    const file = await write("bom.json", `\uFEFF${JSON.stringify({ title: "T" })}`);
    assert.equal((await loadConfig(file, toy)).title, "T");
  });

  it("reports a syntax error with the file, line and column", async () => {
    const file = await write("broken.json", '{\n  "title": "T",\n  "items": [1,]\n}\n');
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => {
        assert.equal(error.file, file);
        assert.equal(error.message, `${file}: invalid JSON at line 3, column 15: unexpected "]"`);
      }),
    );
  });

  it("reports an unexpected end of file", async () => {
    const file = await write("short.json", '{\n  "title": "T"');
    await assert.rejects(loadConfig(file, toy), /short\.json: invalid JSON at line 2, column 15: unexpected end of file/);
  });
});

describe("loadConfig: .jsonnet", () => {
  it("evaluates through codegen's jsonnet evaluator", async () => {
    const file = await write(
      "plain.jsonnet",
      'local names = ["a", "b"];\n{\n  title: std.asciiUpper("t"),\n  items: [{ name: n, size: std.length(n) + 1 } for n in names],\n}\n',
    );
    assert.deepEqual(await loadConfig(file, toy), {
      title: "T",
      items: [
        { name: "a", size: 2 },
        { name: "b", size: 2 },
      ],
      mode: "fast",
    });
  });

  it("resolves imports relative to the config file's directory, not the process's", async () => {
    await write("project/config/parts/items.libsonnet", '[{ name: "from-part" }]\n');
    await write("project/config/title.txt", "Imported title");
    const file = await write(
      "project/config/main.jsonnet",
      'local items = import "parts/items.libsonnet";\n{ title: importstr "title.txt", items: items }\n',
    );
    assert.notEqual(process.cwd(), path.dirname(file));
    const config = await loadConfig(file, toy);
    assert.equal(config.title, "Imported title");
    assert.deepEqual(config.items, [{ name: "from-part", size: 1 }]);
  });

  it("makes the target's stdlib importable as <target-name>/...", async () => {
    const file = await write(
      "stdlib.jsonnet",
      'local h = import "toy/helpers.libsonnet";\n{ title: "T", items: [h.item("a"), h.item("b", size=5)] }\n',
    );
    assert.deepEqual((await loadConfig(file, toy)).items, [
      { name: "a", size: 1 },
      { name: "b", size: 5 },
    ]);
  });

  it("makes every given target's stdlib importable, and only those", async () => {
    const file = await write("cross.jsonnet", 'import "other/extra.libsonnet"\n');
    assert.equal((await loadConfig(file, toy, { stdlibTargets: [toy, other] })).title, "from other");
    await assert.rejects(loadConfig(file, toy), configError((error) => assert.match(error.message, /other\/extra\.libsonnet/)));
  });

  it("reports a syntax (static) error with file:line:column", async () => {
    const file = await write("syntax.jsonnet", '{\n  title: "T",\n  items: [,],\n}\n');
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => {
        assert.equal(error.file, file);
        assert.ok(error.message.startsWith(`${file}: jsonnet error: expected`), error.message);
        assert.ok(error.message.includes(`${file}:3:11`), error.message);
        // The report quotes the line, with a caret under the column.
        assert.ok(error.message.includes("3 |   items: [,],"), error.message);
      }),
    );
  });

  it("reports a runtime error with file:line:column", async () => {
    const file = await write("runtime.jsonnet", 'local o = { a: 1 };\n{\n  title: o.missing,\n}\n');
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => {
        assert.ok(error.message.startsWith(`${file}: jsonnet error: unknown field "missing"`), error.message);
        assert.ok(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+`).test(error.message), error.message);
      }),
    );
  });

  it("reports an error() call with its message and location", async () => {
    const file = await write("raise.jsonnet", '{\n  title: error "no title given",\n}\n');
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => {
        assert.match(error.message, /no title given/);
        assert.ok(error.message.includes(`${file}:2:`), error.message);
      }),
    );
  });

  it("reports a failing import with the importing file", async () => {
    const file = await write("bad-import.jsonnet", 'import "nowhere.libsonnet"\n');
    await assert.rejects(loadConfig(file, toy), configError((error) => assert.match(error.message, /bad-import\.jsonnet.*nowhere\.libsonnet/s)));
  });
});

describe("loadConfig: files that cannot be read", () => {
  for (const name of ["missing.json", "missing.jsonnet"]) {
    it(`names a missing ${path.extname(name)} file`, async () => {
      const file = path.join(root, name);
      await assert.rejects(loadConfig(file, toy), configError((error) => assert.equal(error.message, `${file}: file not found`)));
    });
  }

  it("names a directory given as the config", async () => {
    const dir = path.join(root, "dir.json");
    await mkdir(dir, { recursive: true });
    await assert.rejects(loadConfig(dir, toy), /dir\.json: is a directory/);
  });

  it("rejects an unsupported extension, naming the file and the extension", async () => {
    const yaml = await write("config.yaml", "title: T\n");
    await assert.rejects(
      loadConfig(yaml, toy),
      configError((error) => assert.equal(error.message, `${yaml}: unsupported config file type ".yaml"; use .jsonnet or .json`)),
    );
    const bare = await write("config", "{}");
    await assert.rejects(loadConfig(bare, toy), /unsupported config file type "\(none\)"/);
  });
});

describe("loadConfig: schema validation", () => {
  it("names the file and every failing config path with its reason, unknown keys included", async () => {
    const file = await write(
      "invalid.jsonnet",
      '{ title: "", items: [{ name: "ok" }, { name: 3, size: 0, colour: "red" }], mode: "medium", extra: 1 }\n',
    );
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => {
        assert.ok(error instanceof CLIError);
        assert.equal(error.prefix, "Error loading config");
        assert.equal(error.file, file);
        assert.deepEqual(
          error.issues.map((issue) => issue.path).sort(),
          ["extra", "items[1].colour", "items[1].name", "items[1].size", "mode", "title"],
        );
        const lines = error.message.split("\n");
        assert.equal(lines[0], `${file}: invalid configuration for target "toy"`);
        for (const issue of error.issues) assert.ok(lines.includes(`  ${issue.path}: ${issue.message}`), issue.path);
        assert.equal(lines.length, 1 + error.issues.length);
        assert.ok(lines.includes("  extra: unknown key"));
        assert.ok(lines.includes("  items[1].colour: unknown key"));
        assert.match(error.issues.find((issue) => issue.path === "mode")!.message, /fast.*slow/);
        assert.match(error.issues.find((issue) => issue.path === "items[1].name")!.message, /expected string/);
      }),
    );
  });

  it("validates .json configs the same way", async () => {
    const file = await write("invalid.json", JSON.stringify({ items: [] }));
    await assert.rejects(
      loadConfig(file, toy),
      configError((error) => assert.deepEqual(error.issues.map((issue) => issue.path), ["title"])),
    );
  });

  it("marks a problem with the root value as (root)", async () => {
    const file = await write("array.json", "[]");
    await assert.rejects(loadConfig(file, toy), configError((error) => assert.match(error.message, /\n {2}\(root\): /)));
  });
});

describe("evaluateConfigFile", () => {
  it("returns the data before validation", async () => {
    const file = await write("raw.jsonnet", "{ anything: [1, 2], goes: true }\n");
    assert.deepEqual(await evaluateConfigFile(file, []), { anything: [1, 2], goes: true });
  });
});
