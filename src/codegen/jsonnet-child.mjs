// Evaluates jsonnet files in a process of its own. libjsonnet aborts its whole process on
// some inputs (std.parseYaml of an empty text, for one), which no exception handler can
// catch; here that ends this child, not codegen or its watch.
// Each request is one line of JSON on stdin, `{"file": …, "libraryDirs": […]}`; each answer,
// on stdout, a line `ok <bytes>` or `error <bytes>` and then that many bytes of UTF-8: the
// JSON text, or the error's message. The child serves requests until stdin ends, so a watch
// keeps one child, started before its first request and warm for the next ones.
import { createInterface } from "node:readline";
import { Jsonnet } from "@hanazuki/node-jsonnet";

/** Writes `data`, resolving once it is handed to the pipe. */
const write = (data) => new Promise((resolve) => process.stdout.write(data, resolve));

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const { file, libraryDirs } = JSON.parse(line);
  const jsonnet = new Jsonnet(); // a fresh VM per request: nothing carries over
  for (const dir of libraryDirs) jsonnet.addJpath(dir);
  let kind = "ok";
  let payload;
  try {
    payload = Buffer.from(await jsonnet.evaluateFile(file), "utf8");
  } catch (error) {
    kind = "error";
    payload = Buffer.from(error instanceof Error ? error.message : String(error), "utf8");
  }
  await write(`${kind} ${payload.length}\n`);
  await write(payload);
  // The VM's memory goes back to the allocator when its object is collected: collected now,
  // the next request reuses it instead of faulting in fresh pages (35 ms at 100 resources).
  globalThis.gc?.();
}
