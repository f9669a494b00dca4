/**
 * Jsonnet conformance: how many cases of a jsonnet test corpus each implementation gets right.
 * `bench/run.ts` measured speed; this measures whether the answers agree.
 *
 *   node --import tsx bench/jsonnet-conformance.ts --corpus DIR [--corpus DIR] \
 *     [--go PATH/jsonnet] [--rs PATH/rsjsonnet] [--timeout 10] [--failures FILE]
 *
 * Implementations: codegen's own evaluator (rsjsonnet compiled to WebAssembly), called as
 * src/codegen/jsonnet.ts does (`evaluateJsonnetFile`), always; go-jsonnet's `jsonnet`
 * CLI with `--go`; rsjsonnet's CLI with `--rs`. Every case runs in its own process with a
 * timeout, codegen's too (a tiny `node -e` child), so a case that hangs or crashes costs one
 * case, not the run.
 *
 * Corpus layouts (recognised per directory):
 * - go-jsonnet `testdata/` (X.jsonnet + X.golden), as go-jsonnet's main_test.go TestEval runs
 *   it: a golden that is not JSON holds the expected error text (in plain output mode a success
 *   always prints JSON). The extvar_* cases listed in main_test.go get its ext vars/code.
 *   Cases run from the corpus's parent directory as `<dir name>/X.jsonnet`; the Go runner names
 *   the main file `testdata/X` (no extension), so in expected values the string "testdata/X"
 *   is read as "testdata/X.jsonnet" (std.thisFile). Skipped: golden directories (multi-file
 *   `-m` output, some in string mode) and cases calling the native functions the Go runner
 *   registers (a CLI cannot register them).
 * - the C++ repository's `test_suite/` (X.jsonnet [+ X.jsonnet.golden]), as its run_tests.sh
 *   runs it: from the suite directory, an `error.` name prefix means an error is expected, a
 *   missing golden means `true`, `tla.*` cases get `--tla-str var1=test --tla-code
 *   var2={x:1,y:2}` and all others the same as ext vars. Skipped: success goldens that are not
 *   JSON (run_tests.sh merges stderr, e.g. std.trace lines, into the output).
 *
 * Comparison rules:
 * - value expected: passes when the implementation succeeds and its output parses to the same
 *   JSON value (util.isDeepStrictEqual of the parsed values: key order and whitespace do not
 *   matter, numbers compare as doubles, -0 differs from 0). "identical" counts the passes
 *   whose output is also the golden's text byte for byte, ignoring trailing newlines (C++
 *   goldens are stored without the final newline).
 * - error expected: passes when the implementation fails (non-zero exit / rejected promise);
 *   messages differ between implementations and are not compared.
 * - a process killed by a signal other than our timeout counts as "crashed", never as a pass.
 *
 * stdout: one markdown table per corpus. `--failures FILE`: every failing case, one per line
 * (implementation, corpus, case, kind, first line of the output or error).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";

interface Vars {
  extStr: Record<string, string>;
  extCode: Record<string, string>;
  tlaStr: Record<string, string>;
  tlaCode: Record<string, string>;
}
interface Case {
  name: string;
  cwd: string;
  file: string; // relative to cwd: std.thisFile and error texts depend on it
  vars: Vars;
  expect: { error: true } | { error: false; golden: string };
}
interface Corpus {
  name: string;
  cases: Case[];
  skipped: { name: string; reason: string }[];
}
type Outcome = { ok: true; stdout: string } | { ok: false; kind: "error" | "timeout" | "crash"; detail: string };
interface Implementation {
  name: string;
  version: string;
  run(c: Case, timeoutMs: number): Promise<Outcome>;
}

const NO_VARS: Vars = { extStr: {}, extCode: {}, tlaStr: {}, tlaCode: {} };

// ---- corpora --------------------------------------------------------------------------

// main_test.go's metadataForTests: only these cases get ext vars, the others run without.
const GO_EXT_VARS: Vars = {
  ...NO_VARS,
  extStr: { stringVar: "2 + 2" },
  extCode: {
    codeVar: "3 + 3",
    errorVar: "error 'xxx'",
    staticErrorVar: ")",
    UndeclaredX: "x",
    selfRecursiveVar: '[42, std.extVar("selfRecursiveVar")[0] + 1]',
    mutuallyRecursiveVar1: '[42, std.extVar("mutuallyRecursiveVar2")[0] + 1]',
    mutuallyRecursiveVar2: '[42, std.extVar("mutuallyRecursiveVar1")[0] + 1]',
  },
};
const GO_EXT_VAR_CASES = new Set(
  ["code", "error", "hermetic", "mutually_recursive", "self_recursive", "static_error", "string"].map((s) => `extvar_${s}`),
);
// Registered by main_test.go as Go functions; no CLI flag can provide them.
const GO_NATIVES = /\b(jsonToString|nativeError|nativePanic)\b/;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function loadCorpus(dir: string): Corpus {
  const files = readdirSync(dir).sort();
  const sources = files.filter((f) => f.endsWith(".jsonnet"));
  const corpus: Corpus = { name: `${basename(dirname(dir))}/${basename(dir)}`, cases: [], skipped: [] };
  const cppLayout = files.some((f) => f.endsWith(".jsonnet.golden"));

  for (const source of sources) {
    const name = source.slice(0, -".jsonnet".length);
    const skip = (reason: string) => corpus.skipped.push({ name, reason });
    if (cppLayout) {
      const goldenPath = join(dir, `${source}.golden`);
      const golden = existsSync(goldenPath) ? readFileSync(goldenPath, "utf8") : "true";
      const error = name.startsWith("error.");
      if (!error && !isJson(golden)) {
        skip("success golden is not JSON (stderr merged into it)");
        continue;
      }
      const vars = name.startsWith("tla.")
        ? { ...NO_VARS, tlaStr: { var1: "test" }, tlaCode: { var2: "{x:1,y:2}" } }
        : { ...NO_VARS, extStr: { var1: "test" }, extCode: { var2: "{x:1,y:2}" } };
      corpus.cases.push({ name, cwd: dir, file: source, vars, expect: error ? { error } : { error, golden } });
    } else {
      const goldenPath = join(dir, `${name}.golden`);
      if (!existsSync(goldenPath)) {
        skip("no golden");
        continue;
      }
      if (statSync(goldenPath).isDirectory()) {
        skip("multi-file output (-m): golden is a directory");
        continue;
      }
      if (GO_NATIVES.test(readFileSync(join(dir, source), "utf8"))) {
        skip("needs native functions registered by go-jsonnet's test runner");
        continue;
      }
      const text = readFileSync(goldenPath, "utf8");
      const runnerName = JSON.stringify(`${basename(dir)}/${name}`);
      const golden = text.split(runnerName).join(JSON.stringify(`${basename(dir)}/${source}`));
      const vars = GO_EXT_VAR_CASES.has(name) ? GO_EXT_VARS : NO_VARS;
      const c: Case = { name, cwd: dirname(dir), file: join(basename(dir), source), vars, expect: { error: true } };
      if (isJson(golden)) c.expect = { error: false, golden };
      corpus.cases.push(c);
    }
  }
  return corpus;
}

// ---- implementations ------------------------------------------------------------------

function firstLine(text: string): string {
  // rsjsonnet colours its messages even when stderr is not a terminal.
  const plain = text.replace(/\u001b\[[0-9;]*m/g, "").trim();
  return (plain.split("\n")[0] ?? "").slice(0, 200);
}

function runProcess(file: string, args: string[], cwd: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 1 << 28, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) return done({ ok: true, stdout });
        const detail = firstLine(stderr || stdout || error.message);
        if (error.killed) return done({ ok: false, kind: "timeout", detail: `killed after ${timeoutMs} ms` });
        if (error.signal) return done({ ok: false, kind: "crash", detail: `${error.signal}: ${detail}` });
        done({ ok: false, kind: "error", detail });
      },
    );
  });
}

// go-jsonnet and rsjsonnet take the same flags for these.
function cliArgs(vars: Vars): string[] {
  const flags: [string, Record<string, string>][] = [
    ["--ext-str", vars.extStr],
    ["--ext-code", vars.extCode],
    ["--tla-str", vars.tlaStr],
    ["--tla-code", vars.tlaCode],
  ];
  return flags.flatMap(([flag, map]) => Object.entries(map).flatMap(([k, v]) => [flag, `${k}=${v}`]));
}

function cli(name: string, bin: string, version: string): Implementation {
  return { name, version, run: (c, timeoutMs) => runProcess(bin, [...cliArgs(c.vars), c.file], c.cwd, timeoutMs) };
}

// An ES module for `node --input-type=module -e`: the evaluator module's URL and the file (after
// `--`, so that node never reads them as its own options). Liftoff only, as the CLI runs it (src/cli-v8-flags.ts).
const EVALUATOR_CHILD = `
const [, url, file] = process.argv;
const { evaluateJsonnetFile } = await import(url);
const result = evaluateJsonnetFile(file, []);
if (result.ok) process.stdout.write(result.json);
else { process.stderr.write(result.message); process.exitCode = 1; }
`;

/** codegen's evaluator (jsonnet-evaluator.wasm under jsonnet-evaluate.mjs), as configs are evaluated. */
function codegenEvaluator(): Implementation {
  const url = new URL("../src/codegen/jsonnet-evaluate.mjs", import.meta.url).href;
  const built = JSON.parse(readFileSync(new URL("../native/jsonnet/built.json", import.meta.url), "utf8")) as { wasm: string };
  return {
    name: "codegen (rsjsonnet as WebAssembly)",
    version: `rsjsonnet-lang 0.5.1, wasm ${built.wasm.slice(0, 12)}`,
    // Configs get no external variables or top-level arguments: a case that reads them fails.
    run: (c, timeoutMs) => runProcess(process.execPath, ["--liftoff-only", "--input-type=module", "-e", EVALUATOR_CHILD, "--", url, c.file], c.cwd, timeoutMs),
  };
}

function goVersion(bin: string): Promise<string> {
  return new Promise((done) =>
    execFile(bin, ["--version"], (error, stdout) => done(error ? "unknown" : (/v\S+/.exec(stdout)?.[0] ?? stdout.trim()))),
  );
}

// rsjsonnet has no --version; `cargo install --root R` records it in R/.crates2.json.
function rsVersion(bin: string): string {
  const record = join(dirname(bin), "..", ".crates2.json");
  if (!existsSync(record)) return "unknown";
  const installs = Object.keys((JSON.parse(readFileSync(record, "utf8")) as { installs: object }).installs);
  return /^rsjsonnet (\S+)/m.exec(installs.join("\n"))?.[1] ?? "unknown";
}

// ---- comparison -----------------------------------------------------------------------

const KINDS = ["passed", "wrong value", "error, value expected", "value, error expected", "crashed", "timed out"] as const;
type Kind = (typeof KINDS)[number];

function judge(c: Case, outcome: Outcome): { kind: Kind; identical: boolean; detail: string } {
  if (!outcome.ok) {
    if (outcome.kind === "timeout") return { kind: "timed out", identical: false, detail: outcome.detail };
    if (outcome.kind === "crash") return { kind: "crashed", identical: false, detail: outcome.detail };
    return { kind: c.expect.error ? "passed" : "error, value expected", identical: false, detail: outcome.detail };
  }
  if (c.expect.error) return { kind: "value, error expected", identical: false, detail: firstLine(outcome.stdout) };
  let actual: unknown;
  try {
    actual = JSON.parse(outcome.stdout);
  } catch {
    return { kind: "wrong value", identical: false, detail: `not JSON: ${firstLine(outcome.stdout)}` };
  }
  if (!isDeepStrictEqual(actual, JSON.parse(c.expect.golden))) {
    return { kind: "wrong value", identical: false, detail: firstLine(JSON.stringify(actual)) };
  }
  const trim = (s: string) => s.replace(/\n+$/, "");
  return { kind: "passed", identical: trim(outcome.stdout) === trim(c.expect.golden), detail: "" };
}

// ---- main -----------------------------------------------------------------------------

const { values } = parseArgs({
  options: {
    corpus: { type: "string", multiple: true },
    go: { type: "string" },
    rs: { type: "string" },
    timeout: { type: "string", default: "10" },
    failures: { type: "string" },
  },
});
if (!values.corpus?.length) {
  console.error("usage: jsonnet-conformance.ts --corpus DIR [--corpus DIR] [--go BIN] [--rs BIN] [--timeout S] [--failures FILE]");
  process.exit(2);
}
const timeoutMs = Number(values.timeout) * 1000;
const implementations = [codegenEvaluator()];
if (values.go) implementations.push(cli("go-jsonnet", resolve(values.go), await goVersion(resolve(values.go))));
if (values.rs) implementations.push(cli("rsjsonnet", resolve(values.rs), rsVersion(resolve(values.rs))));

const failures: string[] = [];
for (const dir of values.corpus) {
  const corpus = loadCorpus(resolve(dir));
  const total = corpus.cases.length + corpus.skipped.length;
  const reasons = new Map<string, string[]>();
  for (const s of corpus.skipped) reasons.set(s.reason, [...(reasons.get(s.reason) ?? []), s.name]);
  console.log(`\n### ${corpus.name}: ${total} cases, ${corpus.cases.length} run, ${corpus.skipped.length} skipped\n`);
  for (const [reason, names] of reasons) console.log(`- skipped ${names.length}: ${reason} (${names.join(", ")})`);
  console.log(`- ${corpus.cases.filter((c) => c.expect.error).length} of the cases run expect an error\n`);
  console.log(`| implementation | version | run | ${KINDS.join(" | ")} | passed, identical text |`);
  console.log(`|---|---|---:|${KINDS.map(() => "---:").join("|")}|---:|`);
  for (const impl of implementations) {
    const counts = new Map<Kind, number>(KINDS.map((k) => [k, 0]));
    let identical = 0;
    // One case at a time: the machine is shared, and the timeout must measure the case alone.
    for (const c of corpus.cases) {
      const verdict = judge(c, await impl.run(c, timeoutMs));
      counts.set(verdict.kind, (counts.get(verdict.kind) ?? 0) + 1);
      if (verdict.identical) identical++;
      if (verdict.kind !== "passed") failures.push([impl.name, corpus.name, c.name, verdict.kind, verdict.detail].join("\t"));
    }
    const cells = KINDS.map((k) => String(counts.get(k)));
    console.log(`| ${impl.name} | ${impl.version} | ${corpus.cases.length} | ${cells.join(" | ")} | ${identical} |`);
    console.error(`done: ${impl.name} on ${corpus.name}`);
  }
}
if (values.failures) writeFileSync(values.failures, failures.map((line) => `${line}\n`).join(""));
