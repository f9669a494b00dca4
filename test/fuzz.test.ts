// Property-based fuzzing of every installed target (this repository's and the fixture
// plugin's, whatever exists when the suite runs): arbitrary config objects go through the
// real pipeline in memory (`planGeneration`: load a .json config, validate, build, render,
// assemble, plan the writes into an empty directory; nothing is written). The only acceptable
// outcomes are success, a `ConfigError` or a `GenerationError`; anything else is a crash,
// reported by fast-check with its seed and counterexample.
//
// Two kinds of input: fully random JSON (objects biased towards the target's own keys), and
// "near-valid" configs: a valid config of the target (any example or test config in the
// repository that the target's schema accepts) with a few mutations — keys dropped or
// renamed, values retyped, wrong enum values, empty or duplicated lists, deep self-nesting,
// huge, unicode or keyword strings, `../` put into every string.
//
// Seeds are fixed per target name (printed); replay or widen with CODEGEN_FUZZ_SEED and
// CODEGEN_FUZZ_RUNS (runs per target, default 300).

import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type TestContext, after, before, describe, it } from "node:test";
import fc from "fast-check";

import { evaluateConfigFile } from "../src/codegen/config.js";
import { ConfigError, GenerationError } from "../src/codegen/errors.js";
import { planGeneration } from "../src/codegen/generate.js";
import { discoverTargets, type Target } from "../src/codegen/target.js";
import { createUserProject, makeTempDir, removeTempDirs, repoRoot } from "./helpers/user-project.js";
import { withMemoizedFormatter } from "./support/memo-formatter.js";
import { ruff, runCheck } from "./support/python.js";
import { ensureVenv } from "./support/venv.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const RUNS = Number(process.env.CODEGEN_FUZZ_RUNS ?? 300);
const BASE_SEED = Number(process.env.CODEGEN_FUZZ_SEED ?? 20_240_607);
/** Where valid configs are looked for (recursively): examples and test configs, never generated trees. */
const SEED_DIRS = ["examples", "test/fixtures", "test/targets"];

/** The seed of a target: stable per name, so targets added later do not shift the others'. */
function seedFor(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193);
  return (BASE_SEED ^ hash) | 0;
}

const PYTHON_KEYWORDS = ["class", "def", "import", "None", "True", "lambda", "async", "await", "from", "return", "yield", "global"];
const ADVERSARIAL = [
  "",
  " ",
  "../",
  "../../etc/passwd",
  "/abs/path",
  "a/b",
  "a..b",
  ".",
  "..",
  "a.b.c",
  "C:\\x",
  "with space",
  "UPPER_case",
  "__proto__",
  "constructor",
  "toString",
  "{{ 7 * 7 }}",
  "{% raw %}",
  "'\"`",
  "\u0000",
  "line\nbreak",
  "名前",
  "ñandú",
  "😀",
  "\u202e",
  "x".repeat(20_000),
  ...PYTHON_KEYWORDS,
];
const NUMBERS: Json[] = [-1, 0, 0.5, 1, 204, 1e308, -1e308, 2 ** 53, -(2 ** 31), 99_999];

let project: string;
let targets: Target[];
let scratch: string;
/** Valid configs found in the repository, per target name. */
const seedConfigs = new Map<string, Json[]>();

before(async () => {
  project = await createUserProject();
  // Each distinct file is formatted once per target: see test/support/memo-formatter.ts.
  targets = (await discoverTargets({ cwd: project })).map(withMemoizedFormatter);
  scratch = await makeTempDir("codegen-fuzz-");
  const candidates = SEED_DIRS.flatMap((dir) => configFilesUnder(path.join(repoRoot, dir)));
  for (const file of candidates) {
    let raw: Json;
    try {
      raw = (await evaluateConfigFile(file, targets)) as Json;
    } catch {
      continue; // not a config of any target (or a deliberately broken one)
    }
    for (const target of targets) {
      if (target.schema.safeParse(raw).success) seedConfigs.set(target.name, [...(seedConfigs.get(target.name) ?? []), raw]);
    }
  }
});

after(removeTempDirs);

function configFilesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.sort().flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === "node_modules" || entry === "golden") return [];
    if (statSync(full).isDirectory()) return configFilesUnder(full);
    const isConfig = entry.endsWith(".jsonnet") || (entry.endsWith(".json") && !/^(package|package-lock|tsconfig.*)\.json$/.test(entry));
    return isConfig ? [full] : [];
  });
}

/** Every key and string in `value`, for arbitraries that speak the target's vocabulary. */
function vocabulary(configs: readonly Json[]): { keys: string[]; strings: string[] } {
  const keys = new Set<string>();
  const strings = new Set<string>();
  const walk = (value: Json): void => {
    if (typeof value === "string") strings.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        keys.add(key);
        walk(child);
      }
    }
  };
  configs.forEach(walk);
  return { keys: [...keys].sort(), strings: [...strings].sort() };
}

// ---- mutations of a valid config ------------------------------------------------------

const MUTATIONS = ["drop", "rename", "retype", "string", "enum", "number", "empty", "duplicate", "nest", "everyString"] as const;
type Mutation = (typeof MUTATIONS)[number];

interface Step {
  kind: Mutation;
  /** Which node (modulo the number of candidates). */
  at: number;
  /** A second choice: an element, a transformation. */
  pick: number;
  value: Json;
  text: string;
  depth: number;
}

/** A place in the config: the container and the key or index of the value. */
interface Slot {
  parent: Json[] | { [key: string]: Json };
  key: string | number;
}

function slotsOf(root: { config: Json }): Slot[] {
  const slots: Slot[] = [];
  const walk = (parent: Slot["parent"], key: string | number): void => {
    slots.push({ parent, key });
    const value = (parent as Record<string | number, Json>)[key];
    if (Array.isArray(value)) value.forEach((_, index) => walk(value, index));
    else if (value !== null && typeof value === "object") for (const child of Object.keys(value)) walk(value, child);
  };
  walk(root as unknown as Slot["parent"], "config");
  return slots;
}

const get = (slot: Slot): Json => (slot.parent as Record<string | number, Json>)[slot.key];
const set = (slot: Slot, value: Json): void => {
  (slot.parent as Record<string | number, Json>)[slot.key] = value;
};
const clone = (value: Json): Json => structuredClone(value);

const STRING_TRANSFORMS: ((value: string, step: Step) => string)[] = [
  (value) => `../${value}`,
  (value) => `../../${value}/..`,
  (_, step) => PYTHON_KEYWORDS[step.depth % PYTHON_KEYWORDS.length]!,
  (value) => `${value}名前😀`,
  (value) => value.repeat(500),
  () => "",
  (value) => value.toUpperCase(),
  (_, step) => step.text,
];

function mapStrings(value: Json, transform: (value: string) => string): Json {
  if (typeof value === "string") return transform(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, transform));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, mapStrings(child, transform)]));
  }
  return value;
}

/** Applies one step to the config held in `root.config`, in place. */
function mutate(root: { config: Json }, step: Step, strings: readonly string[]): void {
  const pickFrom = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[step.at % items.length]);
  const slots = slotsOf(root);
  const ofKind = (test: (value: Json, slot: Slot) => boolean) => slots.filter((slot) => test(get(slot), slot));
  switch (step.kind) {
    case "drop": {
      const slot = pickFrom(slots.slice(1));
      if (!slot) return;
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else delete (slot.parent as Record<string, Json>)[slot.key];
      return;
    }
    case "rename": {
      const slot = pickFrom(ofKind((_, candidate) => !Array.isArray(candidate.parent) && candidate.key !== "config"));
      if (!slot) return;
      const value = get(slot);
      delete (slot.parent as Record<string, Json>)[slot.key];
      (slot.parent as Record<string, Json>)[step.text] = value;
      return;
    }
    case "retype": {
      const slot = pickFrom(slots);
      if (slot) set(slot, step.value);
      return;
    }
    case "string": {
      const slot = pickFrom(ofKind((value) => typeof value === "string"));
      if (slot) set(slot, step.text);
      return;
    }
    case "enum": {
      const slot = pickFrom(ofKind((value) => typeof value === "string"));
      if (slot && strings.length > 0) set(slot, strings[step.pick % strings.length]!);
      return;
    }
    case "number": {
      const slot = pickFrom(ofKind((value) => typeof value === "number" || typeof value === "boolean"));
      if (slot) set(slot, NUMBERS[step.pick % NUMBERS.length]!);
      return;
    }
    case "empty": {
      const slot = pickFrom(ofKind((value) => value !== null && typeof value === "object"));
      if (slot) set(slot, Array.isArray(get(slot)) ? [] : {});
      return;
    }
    case "duplicate": {
      const slot = pickFrom(ofKind((value) => Array.isArray(value) && value.length > 0));
      if (!slot) return;
      const list = get(slot) as Json[];
      list.push(clone(list[step.pick % list.length]!));
      return;
    }
    case "nest": {
      // An object holding a list of objects gets a copy of itself inside that list, `depth` deep
      // (nested fields within nested fields, apps within apps, …).
      const slot = pickFrom(
        ofKind((value) => Array.isArray(value) && value.some((item) => item !== null && typeof item === "object" && !Array.isArray(item))),
      );
      if (!slot) return;
      const list = get(slot) as Json[];
      const objects = list.filter((item): item is { [key: string]: Json } => item !== null && typeof item === "object" && !Array.isArray(item));
      const seed = objects[step.pick % objects.length]!;
      const listKey = Object.keys(seed).find((key) => Array.isArray(seed[key])) ?? "fields";
      let nested: Json = clone(seed);
      for (let level = 0; level < step.depth; level++) nested = { ...(clone(seed) as object), [listKey]: [nested] };
      list.push(nested);
      return;
    }
    case "everyString": {
      const transform = STRING_TRANSFORMS[step.pick % STRING_TRANSFORMS.length]!;
      root.config = mapStrings(root.config, (value) => transform(value, step));
      return;
    }
  }
}

// ---- arbitraries ------------------------------------------------------------------------

function textArbitrary(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...ADVERSARIAL),
    ...(known.length > 0 ? [fc.constantFrom(...known)] : []),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 12 }),
  );
}

/** Fully random JSON, and random objects made of the target's own keys. */
function randomConfig(keys: readonly string[], text: fc.Arbitrary<string>): fc.Arbitrary<Json> {
  const value = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;
  const key = keys.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...keys), weight: 4 }, { arbitrary: text, weight: 1 }) : text;
  const objectOfKeys = fc.letrec<{ node: Json }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 4, depthIdentifier: "node" },
      value,
      fc.dictionary(key, tie("node"), { maxKeys: 6 }),
      fc.array(tie("node"), { maxLength: 3 }),
    ),
  })).node;
  return fc.oneof(fc.jsonValue({ maxDepth: 5 }) as fc.Arbitrary<Json>, fc.dictionary(key, objectOfKeys, { maxKeys: 8 }));
}

function nearValidConfig(seeds: readonly Json[], strings: readonly string[], text: fc.Arbitrary<string>): fc.Arbitrary<Json> {
  const step: fc.Arbitrary<Step> = fc.record({
    kind: fc.constantFrom(...MUTATIONS),
    at: fc.nat(),
    pick: fc.nat(),
    value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
    text,
    depth: fc.integer({ min: 1, max: 40 }),
  });
  return fc
    .record({ seed: fc.nat({ max: seeds.length - 1 }), steps: fc.array(step, { maxLength: 4 }) })
    .map(({ seed, steps }) => {
      const root = { config: clone(seeds[seed]!) };
      for (const each of steps) mutate(root, each, strings);
      return root.config;
    });
}

// ---- the property -----------------------------------------------------------------------

type Outcome = "generated" | "ConfigError" | "GenerationError";

/** Fuzzes one target; reports its seed, runs, time and outcomes on `t`; fails on a crash. */
async function fuzzTarget(target: Target, t: TestContext): Promise<void> {
  const seeds = seedConfigs.get(target.name) ?? [];
  const { keys, strings } = vocabulary(seeds);
  const text = textArbitrary(strings);
  const arbitrary =
    seeds.length > 0
      ? fc.oneof({ arbitrary: nearValidConfig(seeds, strings, text), weight: 3 }, { arbitrary: randomConfig(keys, text), weight: 1 })
      : randomConfig(keys, text);
  const outcomes: Record<Outcome, number> = { generated: 0, ConfigError: 0, GenerationError: 0 };
  const configFile = path.join(scratch, `${target.name}.json`);
  const outDir = path.join(scratch, `${target.name}-out`);
  await mkdir(outDir, { recursive: true });
  const seed = seedFor(target.name);
  const begin = performance.now();

  // Every generated tree's Python is kept, to be compiled and checked once the run is over.
  const pythonTrees = path.join(scratch, `${target.name}-python`);
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (config) => {
      await writeFile(configFile, JSON.stringify(config));
      try {
        const { files } = await planGeneration({ target, configFile, outDir, cwd: project, stdlibTargets: targets });
        outcomes.generated++;
        for (const file of files.filter((each) => each.path.endsWith(".py"))) {
          const kept = path.join(pythonTrees, String(outcomes.generated), file.path);
          await mkdir(path.dirname(kept), { recursive: true });
          await writeFile(kept, file.content);
        }
      } catch (error) {
        if (error instanceof ConfigError) outcomes.ConfigError++;
        else if (error instanceof GenerationError) outcomes.GenerationError++;
        else throw error; // not a user error: a crash
      }
    }),
    { seed, numRuns: RUNS },
  );
  if (details.failed) {
    const error = details.errorInstance;
    const crash = error instanceof Error ? (error.stack ?? error.message) : String(error);
    // The whole counterexample, ready to run: `codegen generate -t <target> -c <file>`.
    const saved = path.join(repoRoot, ".tmp", `fuzz-${target.name}-counterexample.json`);
    await mkdir(path.dirname(saved), { recursive: true });
    await writeFile(saved, `${JSON.stringify(details.counterexample?.[0], null, 2)}\n`);
    assert.fail(
      `target "${target.name}" crashed instead of raising ConfigError or GenerationError ` +
        `(seed ${seed}: replay with CODEGEN_FUZZ_SEED=${BASE_SEED}; counterexample path "${details.counterexamplePath}")\n` +
        `${crash}\ncounterexample config, saved to ${saved}: ${JSON.stringify(details.counterexample?.[0]).slice(0, 2000)}`,
    );
  }
  const seconds = ((performance.now() - begin) / 1000).toFixed(1);
  t.diagnostic(
    `fuzz ${target.name}: seed ${seed}, ${RUNS} runs in ${seconds}s, ${seeds.length} valid seed config(s); ` +
      `generated ${outcomes.generated}, ConfigError ${outcomes.ConfigError}, GenerationError ${outcomes.GenerationError}`,
  );
  if (target.formatter !== undefined) {
    const { memoCounts } = (await import(target.formatter)) as typeof import("./support/memo-formatter.js");
    const { hits, formatted } = memoCounts();
    t.diagnostic(`fuzz ${target.name}: ${formatted} distinct files formatted, ${hits} more taken from memory`);
  }
  // Random JSON alone almost never passes a schema: a target needs a valid config in the
  // repository (SEED_DIRS) for the fuzzer to get past validation into the build.
  assert.ok(
    outcomes.generated > 0,
    `no fuzzed ${target.name} config generated (${seeds.length} valid seed configs): the fuzzer never reached the build`,
  );
  // The fixture plugin's toy targets are engine tests, not generators anyone runs.
  if (PYTHON_TARGETS.has(target.name)) await checkPython(pythonTrees, t);
}

/** This package's targets whose Python output users run. */
const PYTHON_TARGETS: ReadonlySet<string> = new Set(["be", "be_root"]);

/**
 * Generated Python of every fuzzed tree compiles and passes pyflakes' checks (`ruff check
 * --select F,E9`): no syntax error, repeated keyword argument, undefined or shadowed name.
 * Importing would need the user's models, which a fuzzed config names but nobody wrote.
 */
async function checkPython(dir: string, t: TestContext): Promise<void> {
  assert.ok(existsSync(dir), `no fuzzed ${path.basename(dir)} tree held Python`);
  const venv = await ensureVenv();
  const compile = await runCheck(venv.python, ["-m", "compileall", "-q", dir], dir);
  assert.ok(compile.ok, `generated Python does not compile:\n${compile.output.slice(0, 4000)}`);
  const lint = await ruff(venv, dir, ["check", "--select", "F,E9", "--output-format", "concise", dir]);
  assert.ok(lint.ok, `generated Python fails pyflakes:\n${lint.output.slice(0, 4000)}`);
  t.diagnostic(`generated Python of every tree compiles and passes ruff F,E9 (${dir})`);
}

describe("fuzzing every target's pipeline with arbitrary configs", () => {
  // Targets are discovered in `before`, so each gets its own subtest at run time: a crash in
  // one does not stop the others.
  it("every installed target yields files, a ConfigError or a GenerationError, never a crash", async (t) => {
    assert.ok(targets.length > 0, "no target installed");
    const started = performance.now();
    for (const target of targets) await t.test(`target ${target.name}`, (st) => fuzzTarget(target, st));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    t.diagnostic(`fuzz total: ${targets.length} targets (${targets.map((target) => target.name).join(", ")}), ${targets.length * RUNS} runs in ${seconds}s`);
  });
});
