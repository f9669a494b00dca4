import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";

import { GenerationError } from "../../src/codegen/errors.js";
import { MANIFEST_FILE, formatManifest, isEmptyManifest, readManifest, updateManifest } from "../../src/codegen/manifest.js";
import { sha256 } from "../../src/codegen/prune.js";
import { GeneratedFile, type PlannedWrite } from "../../src/codegen/writer.js";

let out: string;

beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), "codegen-manifest-"));
});

afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

const hash = (char: string) => char.repeat(64);

/** A planned write of `path` with `content`, as planWrites would return it. */
function write(path: string, content = path, ifExists: "overwrite" | "skip" = "overwrite", action: PlannedWrite["action"] = "create"): PlannedWrite {
  return { file: new GeneratedFile({ path, content, ifExists }), path, absolutePath: join(out, path), action };
}

describe("formatManifest", () => {
  it("sorts targets and paths, one file per line, with a trailing newline; empty targets are left out", () => {
    const text = formatManifest(
      new Map([
        ["zeta", [{ path: "b.py", sha256: hash("b") }, { path: "a.py", sha256: hash("a") }]],
        ["alpha", [{ path: "x/y.py", sha256: hash("c") }]],
        ["empty", []],
      ]),
    );
    const lines = text.split("\n");
    assert.equal(lines.at(-1), "");
    assert.deepEqual(
      lines.filter((line) => line.includes('"path"')).map((line) => line.trim()),
      [
        `{ "path": "x/y.py", "sha256": "${hash("c")}" }`,
        `{ "path": "a.py", "sha256": "${hash("a")}" },`,
        `{ "path": "b.py", "sha256": "${hash("b")}" }`,
      ],
    );
    const parsed = JSON.parse(text);
    assert.deepEqual(Object.keys(parsed.targets), ["alpha", "zeta"]);
    assert.equal(parsed.version, 1);
  });

  it("writes an empty targets object for an empty manifest", () => {
    assert.deepEqual(JSON.parse(formatManifest(new Map())).targets, {});
    assert.ok(isEmptyManifest(new Map([["be", []]])));
    assert.ok(!isEmptyManifest(new Map([["be", [{ path: "a", sha256: hash("a") }]]])));
  });
});

describe("readManifest", () => {
  it("is empty, with no text, when there is no manifest or no output directory", async () => {
    assert.deepEqual(await readManifest(out), { recorded: new Map(), runs: new Map(), text: undefined });
    assert.deepEqual(await readManifest(join(out, "missing")), { recorded: new Map(), runs: new Map(), text: undefined });
  });

  it("reads back what formatManifest wrote", async () => {
    const manifest = new Map([["be", [{ path: "a.py", sha256: hash("a") }]], ["fe", [{ path: "src/b.ts", sha256: hash("b") }]]]);
    const text = formatManifest(manifest);
    await writeFile(join(out, MANIFEST_FILE), text);
    assert.deepEqual(await readManifest(out), { recorded: manifest, runs: new Map(), text });
  });

  it("reads back the assembled texts' hashes and the runs' records", async () => {
    const manifest = new Map([["be", [{ path: "a.py", sha256: hash("a"), assembled: hash("c") }, { path: "b.py", sha256: hash("b") }]]]);
    const runs = new Map([["be", { inputs: hash("d"), code: hash("e"), skip: ["README.md"] }]]);
    const text = formatManifest(manifest, runs);
    await writeFile(join(out, MANIFEST_FILE), text);
    assert.deepEqual(await readManifest(out), { recorded: manifest, runs, text });
  });

  it("calls a directory in its place corrupt", async () => {
    await mkdir(join(out, MANIFEST_FILE));
    await assert.rejects(
      readManifest(out),
      (error: unknown) => error instanceof GenerationError && error.message.startsWith(`corrupt manifest ${join(out, MANIFEST_FILE)}: it is a directory`),
    );
  });

  it("refuses paths that are not normalised, absolute, or the manifest itself", async () => {
    for (const path of ["a/./b.py", "/etc/passwd", "a\\b", MANIFEST_FILE, ""]) {
      await writeFile(join(out, MANIFEST_FILE), JSON.stringify({ version: 1, targets: { be: [{ path, sha256: hash("a") }] } }));
      await assert.rejects(readManifest(out), /targets\.be\[0\]\.path: must be a normalised path/, path);
    }
  });
});

describe("updateManifest", () => {
  it("records this run's overwrite-policy files, whatever their action, and keeps other targets' sections", () => {
    const previous = new Map([["other", [{ path: "theirs.py", sha256: hash("t") }]]]);
    const { next, stale } = updateManifest(previous, "be", [
      write("a.py", "a", "overwrite", "unchanged"),
      write("b.py", "b", "overwrite", "overwrite"),
      write("README.md", "r", "skip", "create"),
    ]);
    assert.deepEqual(next.get("be"), [{ path: "a.py", sha256: sha256("a") }, { path: "b.py", sha256: sha256("b") }]);
    assert.deepEqual(next.get("other"), previous.get("other"));
    assert.deepEqual(stale, []);
  });

  it("finds stale files: recorded by this target, not produced now, not recorded by another target", () => {
    const previous = new Map([
      ["be", [{ path: "gone.py", sha256: hash("g") }, { path: "kept.py", sha256: hash("k") }, { path: "shared.py", sha256: hash("s") }, { path: "README.md", sha256: hash("r") }]],
      ["other", [{ path: "shared.py", sha256: hash("s") }]],
    ]);
    const { stale } = updateManifest(previous, "be", [write("kept.py"), write("README.md", "r", "skip")]);
    assert.deepEqual(stale, [{ path: "gone.py", sha256: hash("g") }]);
  });

  it("refuses a generated file at the manifest's path", () => {
    assert.throws(() => updateManifest(new Map(), "be", [write(MANIFEST_FILE)]), (error: unknown) =>
      error instanceof GenerationError && error.outputPaths[0] === MANIFEST_FILE && /reserved for codegen's manifest/.test(error.message),
    );
  });
});
