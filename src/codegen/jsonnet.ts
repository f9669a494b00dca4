// Evaluates jsonnet in this process: jsonnet-evaluate.mjs runs rsjsonnet, compiled to
// WebAssembly, under a WASI host of our own (docs/jsonnet.md). That module is loaded by URL on
// the first evaluation, so a JSON config never loads it, and it runs as it is under tsx and
// from dist/ alike.

/** The evaluated JSON text, or the evaluator's report (message, source excerpt, trace). */
export type JsonnetResult = { ok: true; text: string } | { ok: false; message: string };

type EvaluateFile = (file: string, searchPath: readonly string[]) => { ok: true; json: Buffer } | { ok: false; message: string };

let evaluator: Promise<EvaluateFile> | undefined;

/**
 * Evaluates the jsonnet file `file`. Imports resolve beside the importing file, then in
 * `libraryDirs`, the one added last searched first.
 * @example const result = await evaluateJsonnet("config/project.jsonnet", [stdlibParent]);
 */
export async function evaluateJsonnet(file: string, libraryDirs: readonly string[]): Promise<JsonnetResult> {
  evaluator ??= import(new URL("./jsonnet-evaluate.mjs", import.meta.url).href).then((module: { evaluateJsonnetFile: EvaluateFile }) => module.evaluateJsonnetFile);
  const result = (await evaluator)(file, [...libraryDirs].reverse());
  return result.ok ? { ok: true, text: result.json.toString("utf8") } : result;
}
