import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

// Boundaries you can see (STYLE.md): the engine knows no target, no formatter and no
// framework; a target reaches the engine only through its public index and never reaches
// into another target; and no module of src/ imports itself through others (no import cycle,
// dynamic imports included; type-only imports, erased from the JavaScript, do not count).

const root = fileURLToPath(new URL("../", import.meta.url));
const SRC = path.join(root, "src");
const ENGINE = path.join(SRC, "codegen");
const TARGETS = path.join(SRC, "targets");
/** Language helpers every target may share (import and code formatters): they know no target. */
const FORMATTERS = path.join(SRC, "formatters");
const ENGINE_INDEX = path.join(ENGINE, "index.ts");
const FRAMEWORKS = /\b(?:FastAPI|SQLAlchemy|Pydantic|Alembic|Starlette|uvicorn|React|Vite)\b/i;
/** Every source file the engine runs: TypeScript, and JavaScript modules such as the jsonnet evaluator's host. */
const SOURCES = /\.[cm]?[jt]s$/;

/** The source without comments (good enough for finding imports; `://` in strings survives). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** Every module specifier a TypeScript source imports or re-exports, static or dynamic. */
export function specifiersOf(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^"'`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The specifiers of the imports and re-exports that remain in the JavaScript: those of types only are erased. */
export function runtimeSpecifiersOf(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  const statement = /\b(import|export)\s+(type\s+)?([^"'`;]*?)\bfrom\s*["']([^"']+)["']/g;
  for (const [, , typeOnly, clause, specifier] of code.matchAll(statement)) {
    const names = /\{([^}]*)\}/.exec(clause!)?.[1]?.split(",").map((name) => name.trim()).filter(Boolean);
    const onlyTypes = typeOnly !== undefined || (names !== undefined && names.length > 0 && names.every((name) => name.startsWith("type ")) && !/^\s*\w+\s*,/.test(clause!));
    if (!onlyTypes) found.push(specifier!);
  }
  for (const pattern of [/\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g]) for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` under NodeNext); undefined for packages. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  return target.replace(/\.js$/, ".ts");
}

async function sourceFiles(dir: string, name = /\.ts$/): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && name.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name)).sort();
}

/**
 * The import cycles of a graph (module → the modules it imports), each once: the modules of
 * every strongly connected component of more than one module, or of one importing itself.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, index.size);
    low.set(start, index.get(start)!);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to)!);
          stack.push(to);
          onStack.add(to);
          frames.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      frames.pop();
      if (frames.length > 0) low.set(frames.at(-1)!.node, Math.min(low.get(frames.at(-1)!.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop(); ; member = stack.pop()) {
        onStack.delete(member!);
        component.push(member!);
        if (member === frame.node) break;
      }
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

const inside = (dir: string, file: string) => file === dir || file.startsWith(`${dir}${path.sep}`);

/** Problems with one engine file: imports leaving src/codegen, or a framework named. */
export function engineViolations(file: string, source: string): string[] {
  const problems: string[] = [];
  for (const specifier of specifiersOf(source)) {
    const resolved = resolveRelative(file, specifier);
    if (resolved !== undefined && !inside(ENGINE, resolved)) problems.push(`imports ${specifier} (outside src/codegen)`);
    if (/^codegen-kit(?:\/|$)/.test(specifier)) problems.push(`imports the package itself (${specifier})`);
  }
  const framework = FRAMEWORKS.exec(source);
  if (framework) problems.push(`mentions ${framework[0]}`);
  return problems;
}

/** Problems with one file of target `name`: deep engine imports, or imports of another target. */
export function targetViolations(file: string, source: string, name: string): string[] {
  const own = path.join(TARGETS, name);
  const problems: string[] = [];
  for (const specifier of specifiersOf(source)) {
    if (/^codegen-kit(?:\/|$)/.test(specifier)) {
      problems.push(`imports "${specifier}"; use the engine through src/codegen/index.js`);
      continue;
    }
    const resolved = resolveRelative(file, specifier);
    if (resolved === undefined || inside(own, resolved)) continue;
    if (inside(ENGINE, resolved)) {
      if (resolved !== ENGINE_INDEX) problems.push(`imports ${specifier}, a deep engine path; use src/codegen/index.js`);
    } else if (inside(TARGETS, resolved)) {
      problems.push(`imports ${specifier}, another target's directory`);
    } else if (!inside(FORMATTERS, resolved)) {
      problems.push(`imports ${specifier}, outside its own directory and the engine's index`);
    }
  }
  return problems;
}

describe("the boundary checks themselves", () => {
  it("find every kind of import", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export { c } from "./c.js";',
      'export * from "./d.js";',
      'import "./side.js";',
      'const e = await import("./e.js");',
      "import {\n  f,\n  g,\n} from 'zod';",
      '// see `import { x } from "./commented.js"`',
      '/** @example import { y } from "./documented.js"; */',
    ].join("\n");
    assert.deepEqual(specifiersOf(source).sort(), ["../b.js", "./a.js", "./c.js", "./d.js", "./e.js", "./side.js", "zod"]);
  });

  it("flag an engine file importing a target or a formatter, or naming a framework", () => {
    const file = path.join(ENGINE, "x.ts");
    assert.deepEqual(engineViolations(file, 'import { naming } from "./naming.js";\nimport { z } from "zod";'), []);
    assert.equal(engineViolations(file, 'import { be } from "../targets/be/index.js";').length, 1);
    assert.equal(engineViolations(file, 'import { py } from "../formatters/python.js";').length, 1);
    assert.equal(engineViolations(file, "// renders a FastAPI router").length, 1);
    assert.equal(engineViolations(file, "// a hook for the Vite dev server").length, 1);
    assert.equal(engineViolations(file, 'const m = await import("../targets/fe/x.js");').length, 1);
  });

  it("flag a target file with a deep engine import, another target's import, or one outside the shared formatters", () => {
    const file = path.join(TARGETS, "be", "operations", "x.ts");
    assert.deepEqual(targetViolations(file, 'import { Name } from "../../../codegen/index.js";\nimport { y } from "./y.js";', "be"), []);
    assert.equal(targetViolations(file, 'import { Name } from "../../../codegen/naming.js";', "be").length, 1);
    assert.equal(targetViolations(file, 'import { x } from "../../fe/config.js";', "be").length, 1);
    assert.equal(targetViolations(file, 'import { x } from "codegen-kit";', "be").length, 1);
    assert.deepEqual(targetViolations(file, 'import { x } from "../../../formatters/python.js";', "be"), []);
    assert.equal(targetViolations(file, 'import { x } from "../../../cli.js";', "be").length, 1);
  });
});

describe("the cycle finder itself", () => {
  it("finds every cycle, a module importing itself included, and nothing in a graph without one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", ["e"]],
      ["e", []],
      ["f", ["f"]],
      ["g", ["e", "h"]],
      ["h", ["g"]],
    ]);
    assert.deepEqual(importCycles(graph), [["a", "b", "c"], ["f"], ["g", "h"]]);
    assert.deepEqual(importCycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []], ["d", ["a", "c"]]])), []);
  });

  it("counts imports that stay in the JavaScript, not those of types only", () => {
    const source = [
      'import type { A } from "./a.js";',
      'import { type B, type C } from "./b.js";',
      'import { type D, e } from "./d.js";',
      'import F, { type G } from "./f.js";',
      'export type { H } from "./h.js";',
      'export { i } from "./i.js";',
      'import "./j.js";',
      'const k = await import("./k.js");',
    ].join("\n");
    assert.deepEqual(runtimeSpecifiersOf(source), ["./d.js", "./f.js", "./i.js", "./j.js", "./k.js"]);
  });
});

describe("architecture", () => {
  it("src/ has no import cycle", async () => {
    const graph = new Map<string, string[]>();
    for (const file of await sourceFiles(SRC)) {
      const imported = runtimeSpecifiersOf(await readFile(file, "utf8")).map((specifier) => resolveRelative(file, specifier));
      graph.set(path.relative(root, file), imported.filter((target): target is string => target !== undefined && target.endsWith(".ts")).map((target) => path.relative(root, target)));
    }
    assert.deepEqual(importCycles(graph), []);
  });

  it("src/codegen stays within 6,500 lines and src/formatters within 500, every source file counted as wc -l counts", async () => {
    for (const [dir, budget] of [[ENGINE, 6_500], [FORMATTERS, 500]] as const) {
      const sources = await sourceFiles(dir, SOURCES);
      assert.ok(sources.some((file) => file.endsWith(".mjs")) || dir === FORMATTERS, "the engine's .mjs files are counted");
      let lines = 0;
      for (const file of sources) lines += (await readFile(file, "utf8")).split("\n").length - 1;
      assert.ok(lines <= budget, `${path.relative(root, dir)} has ${lines} lines, over its ${budget}: simplify before adding`);
    }
  });

  it("src/codegen imports no target, no formatter, and names no framework", async () => {
    const files = await sourceFiles(ENGINE, SOURCES);
    assert.ok(files.includes(ENGINE_INDEX) && files.some((file) => file.endsWith(".mjs")), "the engine's files were found, its JavaScript modules too");
    const problems: string[] = [];
    for (const file of files) {
      for (const problem of engineViolations(file, await readFile(file, "utf8"))) problems.push(`${path.relative(root, file)}: ${problem}`);
    }
    assert.deepEqual(problems, []);
  });

  it("src/dev (codegen dev) imports no target: it drives them through the engine", async () => {
    const files = await sourceFiles(path.join(SRC, "dev"));
    assert.ok(files.length > 0, "src/dev's files were found");
    const problems: string[] = [];
    for (const file of files) {
      for (const specifier of specifiersOf(await readFile(file, "utf8"))) {
        const resolved = resolveRelative(file, specifier);
        if (resolved !== undefined && inside(TARGETS, resolved)) problems.push(`${path.relative(root, file)}: imports ${specifier}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("each target imports the engine only through src/codegen/index.js and no other target", async () => {
    const names = existsSync(TARGETS)
      ? (await readdir(TARGETS, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
      : [];
    const problems: string[] = [];
    for (const name of names) {
      for (const file of await sourceFiles(path.join(TARGETS, name))) {
        for (const problem of targetViolations(file, await readFile(file, "utf8"), name)) {
          problems.push(`${path.relative(root, file)}: ${problem}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});
