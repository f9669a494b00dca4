import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";

import { GenerationError } from "../../src/codegen/errors.js";
import { fnmatch } from "../../src/codegen/globs.js";
import { planDeletions, sha256 } from "../../src/codegen/prune.js";
import { GeneratedFile, applyPlan, planWrites, writeFiles } from "../../src/codegen/writer.js";
import { snapshot } from "../helpers/user-project.js";

let root: string;
let out: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "codegen-writer-"));
  out = join(root, "out");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const file = (path: string, content = `content of ${path}\n`, extra: Partial<GeneratedFile> = {}) =>
  new GeneratedFile({ path, content, ...extra });

async function actionsOf(files: GeneratedFile[], options = {}): Promise<Record<string, string>> {
  const plan = await planWrites(files, out, options);
  return Object.fromEntries(plan.map((entry) => [entry.file.path, entry.action]));
}

const generationError = (fragment: string) => (error: unknown) =>
  error instanceof GenerationError && error.message.includes(fragment);

describe("GeneratedFile", () => {
  it("defaults to overwrite and not executable", () => {
    const generated = new GeneratedFile({ path: "a.py", content: "x" });
    assert.deepEqual(
      { ...generated },
      { path: "a.py", content: "x", ifExists: "overwrite", executable: false },
    );
    const custom = new GeneratedFile({ path: "b.sh", content: "", ifExists: "skip", executable: true });
    assert.equal(custom.ifExists, "skip");
    assert.equal(custom.executable, true);
  });
});

describe("fnmatch", () => {
  it("matches a name without wildcards exactly", () => {
    assert.equal(fnmatch("README.md", "README.md"), true);
    assert.equal(fnmatch("docs/README.md", "README.md"), false);
    assert.equal(fnmatch("READMEXmd", "README.md"), false);
  });

  it("lets * match any run of characters, slashes included", () => {
    assert.equal(fnmatch("src/app/main.tsx", "src/*.tsx"), true);
    assert.equal(fnmatch("src/main.tsx", "src/*"), true);
    assert.equal(fnmatch("src/main.ts", "src/*.tsx"), false);
    assert.equal(fnmatch("anything/at/all", "*"), true);
  });

  it("lets ? match exactly one character", () => {
    assert.equal(fnmatch("a1.py", "a?.py"), true);
    assert.equal(fnmatch("a/.py", "a?.py"), true);
    assert.equal(fnmatch("a12.py", "a?.py"), false);
  });

  it("supports [seq], ranges and [!seq]", () => {
    assert.equal(fnmatch("v2.txt", "v[0-9].txt"), true);
    assert.equal(fnmatch("vx.txt", "v[0-9].txt"), false);
    assert.equal(fnmatch("vx.txt", "v[!0-9].txt"), true);
    assert.equal(fnmatch("v2.txt", "v[!0-9].txt"), false);
    assert.equal(fnmatch("b", "[abc]"), true);
    assert.equal(fnmatch("]", "[]]"), true);
    assert.equal(fnmatch("^", "[^]"), true);
    assert.equal(fnmatch("x", "[^]"), false);
  });

  it("treats an unclosed [ and regex characters literally", () => {
    assert.equal(fnmatch("[abc", "[abc"), true);
    assert.equal(fnmatch("a+b(c)$", "a+b(c)$"), true);
    assert.equal(fnmatch("aab", "a+b"), false);
  });

  it("rejects a reversed range, naming it", () => {
    assert.throws(() => fnmatch("x", "[z-a]"), generationError('invalid glob pattern "[z-a]": the character range "z-a" is reversed (write "a-z")'));
    assert.throws(() => fnmatch("x", "[!0-9z-a]"), generationError('"z-a" is reversed'));
  });

  it("names --force-paths when one of its globs is invalid", async () => {
    await assert.rejects(planWrites([file("a.md")], out, { forcePaths: ["ok", "[z-a]"] }), generationError('--force-paths: invalid glob pattern "[z-a]"'));
  });
});

describe("planWrites actions", () => {
  it("creates missing files, overwrites different ones, leaves identical ones unchanged", async () => {
    await mkdir(out);
    await writeFile(join(out, "same.py"), "same\n");
    await writeFile(join(out, "different.py"), "old\n");
    const plan = await planWrites([file("new/a.py"), file("same.py", "same\n"), file("different.py", "new\n")], out);
    assert.deepEqual(
      plan.map((entry) => [entry.file.path, entry.absolutePath, entry.action]),
      [
        ["new/a.py", join(out, "new/a.py"), "create"],
        ["same.py", join(out, "same.py"), "unchanged"],
        ["different.py", join(out, "different.py"), "overwrite"],
      ],
    );
    assert.deepEqual(await snapshot(out), { "same.py": "same\n", "different.py": "old\n" }, "planning writes nothing");
  });

  it("skips an existing skip file, even an identical one, and creates a missing one", async () => {
    await mkdir(out);
    await writeFile(join(out, "kept.md"), "mine\n");
    await writeFile(join(out, "identical.md"), "same\n");
    const skip = { ifExists: "skip" as const };
    assert.deepEqual(
      await actionsOf([file("kept.md", "x", skip), file("identical.md", "same\n", skip), file("fresh.md", "x", skip)]),
      { "kept.md": "skip", "identical.md": "skip", "fresh.md": "create" },
    );
  });

  it("force turns every skip into overwrite and ignores forcePaths", async () => {
    await mkdir(out);
    await writeFile(join(out, "a.md"), "mine\n");
    await writeFile(join(out, "b.md"), "mine\n");
    const files = [file("a.md", "x", { ifExists: "skip" }), file("b.md", "x", { ifExists: "skip" })];
    assert.deepEqual(await actionsOf(files, { force: true }), { "a.md": "overwrite", "b.md": "overwrite" });
    assert.deepEqual(await actionsOf(files, { force: true, forcePaths: ["a.md"] }), { "a.md": "overwrite", "b.md": "overwrite" });
  });

  it("forcePaths overwrites skip files matching a glob or an exact name", async () => {
    await mkdir(join(out, "src/app"), { recursive: true });
    const paths = ["README.md", "src/app/main.tsx", "src/index.css", "docs.md"];
    for (const path of paths) await writeFile(join(out, path), "mine\n");
    const files = paths.map((path) => file(path, "x", { ifExists: "skip" }));
    assert.deepEqual(await actionsOf(files, { forcePaths: ["src/*.tsx", "./README.md"] }), {
      "README.md": "overwrite",
      "src/app/main.tsx": "overwrite",
      "src/index.css": "skip",
      "docs.md": "skip",
    });
    assert.deepEqual(await actionsOf(files, { forcePaths: new Set(["docs.md"]) }), {
      "README.md": "skip",
      "src/app/main.tsx": "skip",
      "src/index.css": "skip",
      "docs.md": "overwrite",
    });
  });

  it("matches forcePaths against the normalised path", async () => {
    await mkdir(join(out, "a"), { recursive: true });
    await writeFile(join(out, "a/b.md"), "mine\n");
    assert.deepEqual(await actionsOf([file("a/./b.md", "x", { ifExists: "skip" })], { forcePaths: ["a/b.md"] }), {
      "a/./b.md": "overwrite",
    });
  });
});

describe("planWrites rejects bad paths, writing nothing", () => {
  const cases: [label: string, paths: string[], fragment: string][] = [
    ["an absolute path", ["/etc/passwd"], '"/etc/passwd" is absolute'],
    ["a Windows absolute path", ["C:/x.py"], '"C:/x.py" is absolute'],
    ["a .. escape", ["../x.py"], '"../x.py" escapes'],
    ["a .. escape after normalisation", ["a/b/../../../x.py"], '"a/b/../../../x.py" escapes'],
    ["an empty path", [""], '"" is empty'],
    ["a NUL byte", ["a\0.py"], "NUL"],
    ["a backslash", ["a\\..\\..\\x.py"], "backslash"],
    ["the output directory itself", ["a/.."], '"a/.." names a directory'],
    ["a trailing slash", ["a/"], '"a/" names a directory'],
    ["a duplicate", ["ok.py", "a.py", "a.py"], 'duplicate output path "a.py"'],
    ["a duplicate after normalisation", ["a.py", "./a.py"], '"./a.py" (same file as "a.py")'],
    ["a file that is another file's directory", ["a/b.py", "a"], '"a" is a file, but "a/b.py"'],
  ];
  for (const [label, paths, fragment] of cases) {
    it(`rejects ${label}`, async () => {
      const files = paths.map((path) => file(path));
      await assert.rejects(writeFiles([file("first.py"), ...files], out), generationError(fragment));
      await assert.rejects(stat(out), { code: "ENOENT" });
    });
  }

  it("rejects a path through a symlinked directory leading outside", async () => {
    const outside = join(root, "outside");
    await mkdir(outside);
    await mkdir(out);
    await symlink(outside, join(out, "link"));
    await assert.rejects(
      writeFiles([file("first.py"), file("link/evil.py")], out),
      generationError('"link/evil.py" resolves to'),
    );
    assert.deepEqual(await readdir(outside), []);
    assert.deepEqual(await snapshot(out), { link: "<link>" });
  });

  it("rejects an existing file that is a symlink leading outside", async () => {
    const secret = join(root, "secret.txt");
    await writeFile(secret, "secret\n");
    await mkdir(out);
    await symlink(secret, join(out, "a.txt"));
    await assert.rejects(writeFiles([file("a.txt")], out), generationError('"a.txt" resolves to'));
    assert.equal(await readFile(secret, "utf8"), "secret\n");
  });

  it("rejects a path through a broken symlink", async () => {
    await mkdir(out);
    await symlink(join(root, "missing"), join(out, "gone"));
    await assert.rejects(writeFiles([file("gone/x.py")], out), generationError('"gone/x.py" goes through a broken symbolic link'));
    await assert.rejects(stat(join(root, "missing")), { code: "ENOENT" });
  });

  it("rejects a path whose parent is an existing regular file", async () => {
    await mkdir(out);
    await writeFile(join(out, "taken"), "mine\n");
    await assert.rejects(
      writeFiles([file("first.py"), file("taken/x.py")], out),
      generationError('"taken/x.py" goes through a file that is not a directory'),
    );
    assert.deepEqual(await snapshot(out), { taken: "mine\n" });
  });

  it("rejects a path taken by a directory", async () => {
    await mkdir(join(out, "pkg"), { recursive: true });
    await assert.rejects(writeFiles([file("pkg")], out), generationError('"pkg" exists and is not a regular file'));
  });

  it("allows symlinks that stay inside the output directory, and a symlinked output directory", async () => {
    const real = join(root, "real");
    await mkdir(join(real, "inner"), { recursive: true });
    await symlink(real, out);
    await symlink(join(real, "inner"), join(real, "alias"));
    assert.equal(await writeFiles([file("alias/x.py", "x\n")], out), 1);
    assert.equal(await readFile(join(real, "inner/x.py"), "utf8"), "x\n");
  });
});

describe("writeFiles", () => {
  it("creates parent directories and writes the contents", async () => {
    const count = await writeFiles([file("a/b/c.py", "c\n"), file("top.txt", "")], out);
    assert.equal(count, 2);
    assert.deepEqual(await snapshot(out), { a: "<dir>", "a/b": "<dir>", "a/b/c.py": "c\n", "top.txt": "" });
  });

  it("counts created, overwritten and unchanged files but not skipped ones", async () => {
    await mkdir(out);
    await writeFile(join(out, "same.py"), "same\n");
    await writeFile(join(out, "old.py"), "old\n");
    await writeFile(join(out, "kept.md"), "mine\n");
    const count = await writeFiles(
      [file("new.py", "new\n"), file("same.py", "same\n"), file("old.py", "fresh\n"), file("kept.md", "theirs\n", { ifExists: "skip" })],
      out,
    );
    assert.equal(count, 3);
    assert.deepEqual(await snapshot(out), { "new.py": "new\n", "same.py": "same\n", "old.py": "fresh\n", "kept.md": "mine\n" });
  });

  it("overwrites skip files when forced, by flag or by glob", async () => {
    await mkdir(out);
    await writeFile(join(out, "a.md"), "mine\n");
    await writeFile(join(out, "b.md"), "mine\n");
    const files = [file("a.md", "new\n", { ifExists: "skip" }), file("b.md", "new\n", { ifExists: "skip" })];
    assert.equal(await writeFiles(files, out, { forcePaths: ["a.*"] }), 1);
    assert.deepEqual(await snapshot(out), { "a.md": "new\n", "b.md": "mine\n" });
    assert.equal(await writeFiles(files, out, { force: true }), 2);
    assert.deepEqual(await snapshot(out), { "a.md": "new\n", "b.md": "new\n" });
  });

  it("does not rewrite an unchanged file", async () => {
    await mkdir(out);
    const path = join(out, "same.py");
    await writeFile(path, "same\n");
    const past = new Date("2001-02-03T04:05:06Z");
    await utimes(path, past, past);
    assert.equal(await writeFiles([file("same.py", "same\n")], out), 1);
    assert.equal((await stat(path)).mtime.getTime(), past.getTime());
  });

  it("gives executable files +x for user, group and other", async () => {
    await writeFiles([file("run.sh", "#!/bin/sh\n", { executable: true }), file("plain.txt")], out);
    assert.equal((await stat(join(out, "run.sh"))).mode & 0o777, 0o755);
    assert.equal((await stat(join(out, "plain.txt"))).mode & 0o111, 0);
  });

  it("fixes the +x bits of an unchanged executable file", async () => {
    await mkdir(out);
    await writeFile(join(out, "run.sh"), "#!/bin/sh\n");
    await chmod(join(out, "run.sh"), 0o640);
    await writeFiles([file("run.sh", "#!/bin/sh\n", { executable: true })], out);
    assert.equal((await stat(join(out, "run.sh"))).mode & 0o777, 0o751);
  });

  it("keeps the permissions of an overwritten file, adding +x when executable", async () => {
    await mkdir(out);
    await writeFile(join(out, "private.txt"), "old\n");
    await chmod(join(out, "private.txt"), 0o600);
    await writeFile(join(out, "tool.sh"), "old\n");
    await chmod(join(out, "tool.sh"), 0o600);
    await writeFiles([file("private.txt", "new\n"), file("tool.sh", "new\n", { executable: true })], out);
    assert.equal((await stat(join(out, "private.txt"))).mode & 0o777, 0o600);
    assert.equal((await stat(join(out, "tool.sh"))).mode & 0o777, 0o711);
  });

  it("leaves no temp files behind", async () => {
    await writeFiles([file("a/x.py"), file("a/y.py"), file("z.py")], out);
    assert.deepEqual(Object.keys(await snapshot(out)).sort(), ["a", "a/x.py", "a/y.py", "z.py"]);
  });
});

describe("applyPlan", () => {
  it("writes a plan made earlier and returns the count", async () => {
    const plan = await planWrites([file("a.py", "a\n"), file("b/c.py", "c\n")], out);
    await assert.rejects(stat(out), { code: "ENOENT" });
    assert.equal(await applyPlan(plan), 2);
    assert.deepEqual(await snapshot(out), { "a.py": "a\n", b: "<dir>", "b/c.py": "c\n" });
  });

  it("leaves the tree unchanged when a write fails", async () => {
    await mkdir(join(out, "existing"), { recursive: true });
    await writeFile(join(out, "existing/keep.py"), "keep\n");
    await writeFile(join(out, "old.py"), "old\n");
    const plan = await planWrites(
      [file("old.py", "new\n"), file("fresh/deep/a.py"), file("existing/b.py"), file("blocked/c.py"), file("z.py")],
      out,
    );
    // The disk changes between planning and writing: a file now sits where a directory must go.
    await writeFile(join(out, "blocked"), "in the way\n");
    const before = await snapshot(out);
    await assert.rejects(applyPlan(plan), (error: unknown) => ["EEXIST", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? ""));
    assert.deepEqual(await snapshot(out), before);
  });
});

describe("planDeletions", () => {
  const recorded = (path: string, content: string) => ({ path, sha256: sha256(content) });

  it("deletes a recorded file still as generated, keeps an edited one, and ignores a missing one", async () => {
    await mkdir(join(out, "a/b"), { recursive: true });
    await writeFile(join(out, "a/b/same.py"), "gen\n");
    await writeFile(join(out, "edited.py"), "mine\n");
    const { deletions, kept } = await planDeletions(
      [recorded("a/b/same.py", "gen\n"), recorded("edited.py", "gen\n"), recorded("gone.py", "gen\n")],
      out,
    );
    assert.deepEqual(deletions, [
      {
        action: "delete",
        path: "a/b/same.py",
        absolutePath: join(out, "a/b/same.py"),
        dirs: [join(out, "a/b"), join(out, "a")],
        sha256: sha256("gen\n"),
      },
    ]);
    assert.deepEqual(kept, [{ path: "edited.py", absolutePath: join(out, "edited.py"), reason: "it changed since codegen generated it" }]);
    assert.deepEqual(await snapshot(out), { a: "<dir>", "a/b": "<dir>", "a/b/same.py": "gen\n", "edited.py": "mine\n" }, "planning deletes nothing");
  });

  it("keeps a symlink, and a file reached through a symlinked directory leading outside", async () => {
    const outside = join(root, "outside");
    await mkdir(outside);
    await writeFile(join(outside, "x.py"), "gen\n");
    await mkdir(out);
    await symlink(outside, join(out, "link"));
    await symlink(join(outside, "x.py"), join(out, "alias.py"));
    const { deletions, kept } = await planDeletions([recorded("link/x.py", "gen\n"), recorded("alias.py", "gen\n")], out);
    assert.deepEqual(deletions, []);
    assert.deepEqual(kept.map((file) => [file.path, file.reason]), [
      ["link/x.py", `it now lies outside the output directory (${outside})`],
      ["alias.py", "it is no longer a regular file"],
    ]);
  });

  it("refuses a recorded path that escapes the output directory", async () => {
    await assert.rejects(planDeletions([recorded("../x.py", "")], out), generationError('"../x.py" escapes'));
  });
});

describe("applyPlan with deletions", () => {
  it("deletes after writing, removes only the directories a deletion emptied, and writes the manifest last", async () => {
    await mkdir(join(out, "old/deep"), { recursive: true });
    await mkdir(join(out, "shared"), { recursive: true });
    await mkdir(join(out, "empty"), { recursive: true });
    await writeFile(join(out, "old/deep/x.py"), "gen\n");
    await writeFile(join(out, "shared/y.py"), "gen\n");
    await writeFile(join(out, "shared/user.txt"), "mine\n");
    const writes = await planWrites([file("new/z.py", "z\n")], out);
    const { deletions } = await planDeletions(
      [{ path: "old/deep/x.py", sha256: sha256("gen\n") }, { path: "shared/y.py", sha256: sha256("gen\n") }],
      out,
    );
    const manifest = { absolutePath: join(out, "manifest.json"), content: "{}\n" };
    assert.equal(await applyPlan([...writes, ...deletions], { manifest }), 1);
    assert.deepEqual(await snapshot(out), {
      empty: "<dir>",
      "manifest.json": "{}\n",
      new: "<dir>",
      "new/z.py": "z\n",
      shared: "<dir>",
      "shared/user.txt": "mine\n",
    });
  });

  it("deletes nothing and writes no manifest when a write fails", async () => {
    await mkdir(out);
    await writeFile(join(out, "stale.py"), "gen\n");
    const writes = await planWrites([file("blocked/a.py")], out);
    const { deletions } = await planDeletions([{ path: "stale.py", sha256: sha256("gen\n") }], out);
    await writeFile(join(out, "blocked"), "in the way\n");
    const before = await snapshot(out);
    await assert.rejects(applyPlan([...writes, ...deletions], { manifest: { absolutePath: join(out, "m.json"), content: "{}\n" } }));
    assert.deepEqual(await snapshot(out), before);
  });
});
