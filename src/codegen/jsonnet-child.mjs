// Evaluates jsonnet files in a process of its own, with jsonnet-evaluate.mjs: the evaluation
// runs while codegen's process loads its targets, and a failure of the evaluator (a trap, or
// worse) ends this child, not codegen or its watch.
// Each request is one line of JSON on stdin, `{"file": …, "libraryDirs": […]}`; each answer,
// on stdout, a line `ok <bytes>` or `error <bytes>` and then that many bytes of UTF-8: the
// JSON text, or the error's message. The child serves requests until stdin ends, so a watch
// keeps one child, started before its first request and warm for the next ones.
import { createInterface } from "node:readline";
import { setFlagsFromString } from "node:v8";

// The evaluator's code compiled by V8's baseline compiler only: a single evaluation is over
// before optimized code would pay back its compilation, which competes for the same two cores
// (1,000 resources: 340 ms against 490-650 ms with tiering; docs/jsonnet.md). A watch's child
// (`--kept`) evaluates again and again, and V8's optimizing tier pays there (p50 -35 ms).
if (!process.argv.includes("--kept")) setFlagsFromString("--liftoff-only");
const { evaluateJsonnetFile } = await import("./jsonnet-evaluate.mjs");

/** Writes `data`, resolving once it is handed to the pipe. */
const write = (data) => new Promise((resolve) => process.stdout.write(data, resolve));

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const { file, libraryDirs } = JSON.parse(line);
  // codegen's order (libjsonnet's, which it used before): the library path added last is searched first.
  const result = evaluateJsonnetFile(file, [...libraryDirs].reverse());
  const payload = result.ok ? result.json : Buffer.from(result.message, "utf8");
  await write(`${result.ok ? "ok" : "error"} ${payload.length}\n`);
  await write(payload);
  // The evaluation's memory goes when its instance is collected: collected now, not when this waiting process next allocates.
  globalThis.gc?.();
}
