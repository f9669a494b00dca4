// The Python formatter: ruff's WebAssembly build at the version generated projects pin, then
// the prose wrapping ruff leaves to us, checked against the real ruff of the test venv.

import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, it } from "node:test";
import { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-nodejs";

import { findRuff, formatPythonFile, formatPythonFiles } from "../../src/formatters/ruff.js";

import { wrapProse } from "../../src/formatters/prose.js";
import { DEV_REQUIREMENTS, requirementName } from "../../src/targets/be_root/dependencies.js";
import { repoRoot } from "../helpers/user-project.js";
import { ruffCheck, ruffFormat } from "../support/ruff-files.js";
import { ensureVenv } from "../support/venv.js";

/** A `ruff` in a new directory that says it is `version` and writes `# not ruff` over whatever it formats. */
async function fakeRuff(version: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "codegen-fake-ruff-"));
  const script = `#!/bin/sh\n[ "$1" = --version ] && { echo "ruff ${version}"; exit 0; }\nfor last; do :; done\nfor file in "$last"/*.py; do echo "# not ruff" > "$file"; done\n`;
  await writeFile(join(dir, "ruff"), script);
  await chmod(join(dir, "ruff"), 0o755);
  return dir;
}

/** `fn` with `dir` first on PATH. */
async function withPath<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${saved}`;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

describe("the ruff that formats", () => {
  it("is the version generated projects pin, installed at exactly that version", async () => {
    const pin = DEV_REQUIREMENTS.find((requirement) => requirementName(requirement) === "ruff");
    assert.equal(pin, `ruff==${Workspace.version()}`);
    const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8"));
    assert.equal(manifest.dependencies["@astral-sh/ruff-wasm-nodejs"], Workspace.version());
  });

  it("formats as the venv's ruff does", async () => {
    const sources = [
      "x = {'a':1,'b':[1,2,3]}\n",
      "def f(a,*,b=1, c: int=2)->int:\n  return call_something_long(a, b, c, another_argument_name, yet_another_argument_name)\n",
      "with open('a') as first_file_handle, open('b') as second_file_handle, open('c') as third:\n    pass\n",
      'value = f"{mapping[\'key\']} and {other!r:>10}" if condition_is_true else "a fallback string that is long"\n',
    ];
    const expected = await ruffFormat(sources);
    for (const [index, source] of sources.entries()) assert.equal(await formatPythonFile(`case_${index}.py`, source), expected[index]);
  });

  it("formats every golden module as ruff does for any Python a generated project may require, natively with the project venv's ruff as with its WebAssembly build", async () => {
    // Target py311 is the oldest `requires-python` be_root writes; ruff reads the project's own.
    const golden = join(repoRoot, "test", "golden");
    const paths = (await readdir(golden, { recursive: true })).filter((path) => path.endsWith(".py"));
    assert.ok(paths.length > 300, `only ${paths.length} golden modules`);
    const files = await Promise.all(paths.map(async (path) => ({ path, content: await readFile(join(golden, path), "utf8") })));
    const ours = await Promise.all(files.map((file) => formatPythonFile(file.path, file.content)));
    for (const version of ["py312", "py313", "py314", "py315"]) {
      const ruff = new Workspace({ "target-version": version }, PositionEncoding.Utf16);
      for (const [index, file] of files.entries()) assert.equal(ruff.format(file.content), ours[index], `${file.path} for ${version}`);
      ruff.free();
    }
    files.push({ path: "raw.py", content: "def f(a,*,b=1)->int:\n  return {'a':[a,b]}\n" }, { path: "alembic.ini", content: "key =   'value'\n" });
    ours.push("def f(a, *, b=1) -> int:\n    return {\"a\": [a, b]}\n", "key =   'value'\n");
    const project = await mkdtemp(join(tmpdir(), "codegen-native-ruff-"));
    try {
      await mkdir(join(project, ".venv", "bin"), { recursive: true });
      await symlink(join((await ensureVenv()).bin, "ruff"), join(project, ".venv", "bin", "ruff"));
      const native = await formatPythonFiles(files, { outDir: join(project, "backend", "api") });
      assert.equal(native.by, `ruff ${Workspace.version()}, native`);
      for (const [index, file] of files.entries()) assert.equal(native.contents[index], ours[index], file.path);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it("takes no ruff of another version from PATH, and falls back to its WebAssembly build when ruff fails", async () => {
    const files = [{ path: "settings.py", content: "key =   'value'\n" }];
    const [other, pinned] = await Promise.all([fakeRuff("0.17.5"), fakeRuff(Workspace.version())]);
    try {
      assert.equal(findRuff(undefined, `${other}${delimiter}${pinned}`), join(other, "ruff"));
      assert.deepEqual(await withPath(other, () => formatPythonFiles(files, {})), { contents: ['key = "value"\n'], by: "ruff, WebAssembly" });
      // The same script at the pinned version is used: the version check is what kept it out.
      assert.deepEqual(await withPath(pinned, () => formatPythonFiles(files, {})), { contents: ["# not ruff\n"], by: `ruff ${Workspace.version()}, native` });
      await rm(join(pinned, "ruff"));
      await writeFile(join(pinned, "ruff"), "#!/bin/sh\nexit 2\n", { mode: 0o755 });
      assert.deepEqual(await withPath(pinned, () => formatPythonFiles(files, {})), { contents: ['key = "value"\n'], by: "ruff, WebAssembly" });
    } finally {
      await Promise.all([other, pinned].map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });

  it("names the file when ruff cannot parse it", async () => {
    await assert.rejects(formatPythonFile("pkg/broken.py", "x = (\n"), /^Error: ruff format pkg\/broken\.py: /);
  });

  it("formats Python modules only", async () => {
    const text = "key =   'value'\n";
    assert.equal(await formatPythonFile("alembic.ini", text), text);
    assert.equal(await formatPythonFile("settings.py", text), 'key = "value"\n');
  });
});

const LONG = "goes well beyond the eighty-eight column limit of ruff's default line length";

describe("prose ruff leaves too long", () => {
  it("a one-line docstring becomes a paragraph, its closing quotes on their own line", () => {
    assert.equal(
      wrapProse(`class Thing:\n    """A docstring that is quite long and ${LONG}."""\n`),
      `class Thing:\n    """A docstring that is quite long and goes well beyond the eighty-eight column limit\n    of ruff's default line length.\n    """\n`,
    );
  });

  it("a docstring that fits but for its closing quotes takes its last word down with them", () => {
    const source = '"""Database access. ``get_session`` and ``SessionDep`` belong to the default database."""\n';
    assert.equal(wrapProse(source), '"""Database access. ``get_session`` and ``SessionDep`` belong to the default\ndatabase.\n"""\n');
  });

  it("a comment continues on comment lines at its indent", () => {
    assert.equal(
      wrapProse(`def method(self) -> None:\n    # A comment that is quite long and ${LONG}.\n    return None\n`),
      `def method(self) -> None:\n    # A comment that is quite long and goes well beyond the eighty-eight column limit of\n    # ruff's default line length.\n    return None\n`,
    );
  });

  it("wide characters count two columns", () => {
    const wrapped = wrapProse(`# ${"漢字 ".repeat(30).trim()}\n`).split("\n");
    assert.deepEqual(
      wrapped.map((line) => [...line].reduce((width, char) => width + (char.charCodeAt(0) > 0x7f ? 2 : 1), 0)),
      [86, 66, 0],
    );
  });

  it("leaves strings that are values alone: in brackets, after a backslash, inside another string, one word", () => {
    const sources = [
      `message = (\n    """A long string in brackets is a value, not prose: it ${LONG}."""\n)\n`,
      `message = \\\n    """A long string after a continuation is a value, not prose: it ${LONG}."""\n`,
      `text = \'\'\'\n"""A line inside a string is its text: it ${LONG}."""\n\'\'\'\n`,
      // A line end escaped inside a string ends a line too: the lines after it keep their places.
      `text = \'\'\'a \\\nb\'\'\'\nmessage = \\\n    """A long string after a continuation is a value, not prose: it ${LONG}."""\n`,
      `# https://example.com/${"a/".repeat(50)}\n`,
      `items = [\n    # A comment in brackets belongs to the statement: it ${LONG}.\n    1,\n]\n`,
    ];
    for (const source of sources) assert.equal(wrapProse(source), source);
  });

  it("wraps in forms ruff keeps and E501 accepts", async () => {
    const wrapped = [
      `"""Module: ${LONG}."""\n\n\nclass Thing:\n    """Class: ${LONG}."""\n\n    def f(self) -> None:\n        # Comment: ${LONG}.\n        pass\n`,
      `"""Database access. \`\`get_session\`\` and \`\`SessionDep\`\` belong to the default database."""\n`,
    ].map(wrapProse);
    assert.deepEqual(await ruffFormat(wrapped), wrapped);
    assert.equal(await ruffCheck(wrapped, "E501"), "");
  });
});
