// The Python formatter: ruff's WebAssembly build at the version generated projects pin, then
// the prose wrapping ruff leaves to us, checked against the real ruff of the test venv.

import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-nodejs";

import { formatPython, formatPythonFile } from "../../src/formatters/ruff.js";
import { wrapProse } from "../../src/formatters/prose.js";
import { DEV_REQUIREMENTS, requirementName } from "../../src/targets/be_root/dependencies.js";
import { repoRoot } from "../helpers/user-project.js";
import { ruffCheck, ruffFormat } from "../support/ruff-files.js";

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
    for (const [index, source] of sources.entries()) assert.equal(await formatPython(`case_${index}.py`, source), expected[index]);
  });

  it("formats every golden module as ruff does for any Python a generated project may require", async () => {
    // Target py311 is the oldest `requires-python` be_root writes; ruff reads the project's own.
    const golden = join(repoRoot, "test", "golden");
    const paths = (await readdir(golden, { recursive: true })).filter((path) => path.endsWith(".py"));
    assert.ok(paths.length > 300, `only ${paths.length} golden modules`);
    const sources = await Promise.all(paths.map((path) => readFile(join(golden, path), "utf8")));
    for (const version of ["py312", "py313", "py314", "py315"]) {
      const ruff = new Workspace({ "target-version": version }, PositionEncoding.Utf16);
      for (const [index, source] of sources.entries()) {
        assert.equal(ruff.format(source), await formatPython(paths[index]!, source), `${paths[index]} for ${version}`);
      }
      ruff.free();
    }
  });

  it("names the file when ruff cannot parse it", async () => {
    await assert.rejects(formatPython("pkg/broken.py", "x = (\n"), /^Error: ruff format pkg\/broken\.py: /);
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
