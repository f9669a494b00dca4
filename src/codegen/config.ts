// Loads a `.json` or `.jsonnet` config and validates it against a target's schema.
// Jsonnet runs through rsjsonnet compiled to WebAssembly, in this process (docs/jsonnet.md):
// jsonnet-evaluate.mjs, our WASI host, is loaded by URL on the first jsonnet config, so a JSON
// config never loads it. Imports resolve relative to the config file, and each installed
// target's stdlib is importable as `<target-name>/...`. Every failure is
// a `ConfigError` naming the file (and, for schema problems, every failing config path).
// A root `$schema` key names the file's JSON Schema for editors and is not validated.

import { readFile } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { ConfigError, type ConfigIssue } from "./errors.js";
import { configIssuesOf } from "./config-path.js";
import { locateJsonError } from "./json-location.js";
import { SCHEMA_KEY } from "./json-schema.js";
import type { Target } from "./target.js";

/** Where jsonnet may import from besides the config's own directory. */
export interface LoadConfigOptions {
  /** Targets whose jsonnet stdlib is importable (`<name>/...`). @default [target] */
  stdlibTargets?: readonly Target[];
}

/** Reads, evaluates and validates `file` for `target`. Returns the schema's output. */
export async function loadConfig<C>(file: string, target: Target<C>, options: LoadConfigOptions = {}): Promise<C> {
  return validateConfig(await evaluateConfigFile(file, options.stdlibTargets ?? [target]), target, file);
}

/**
 * Validates already evaluated config data against `target`'s schema (a root `$schema` key,
 * for editors, is ignored); `file` names it in errors.
 * @throws ConfigError listing every failing config path.
 */
export function validateConfig<C>(raw: unknown, target: Target<C>, file: string): C {
  const result = target.schema.safeParse(withoutSchemaKey(raw));
  if (!result.success) {
    throw new ConfigError(`invalid configuration for target "${target.name}"`, {
      file,
      issues: configIssuesOf(result.error),
    });
  }
  return result.data;
}

/** The validated config with the files it names read (`Target.readConfigFiles`), and which files those were. */
export function withConfigFiles<C>(target: Target<C>, config: C, configFile: string): { config: C; filesRead: readonly string[] | undefined } {
  if (!target.readConfigFiles) return { config, filesRead: [] };
  const read = target.readConfigFiles(config, configFile);
  if (read.issues.length > 0) throw new ConfigError(`invalid configuration for target "${target.name}"`, { file: configFile, issues: read.issues });
  return { config: read.config, filesRead: read.files };
}

/** What `target` says about a valid config's keys that change nothing (see `Target.configWarnings`). */
export function configWarningsOf(raw: unknown, target: Target): ConfigIssue[] {
  return target.configWarnings?.(withoutSchemaKey(raw)) ?? [];
}

/** `raw` without the root `$schema` key, which names the file's JSON Schema for editors. */
function withoutSchemaKey(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !Object.hasOwn(raw, SCHEMA_KEY)) return raw;
  const { [SCHEMA_KEY]: _editorSchema, ...config } = raw as Record<string, unknown>;
  return config;
}

/** What evaluating a config read: the config and the files it imports (absolute), and the paths it looked for in vain. */
export interface ConfigReads {
  files: string[];
  missing: string[];
}

/**
 * The config file's data as plain JSON, before validation. `onRead` learns what the evaluation
 * read, whether or not it succeeded, once the config file itself could be read.
 */
export async function evaluateConfigFile(file: string, stdlibTargets: readonly Target[], onRead?: (reads: ConfigReads) => void): Promise<unknown> {
  const extension = extname(file);
  if (extension === ".jsonnet") return JSON.parse(await evaluateJsonnetText(file, jsonnetLibraryDirs(stdlibTargets), onRead));
  if (extension === ".json") {
    const text = await readText(file);
    onRead?.({ files: [resolve(file)], missing: [] });
    return parseJson(file, text);
  }
  throw new ConfigError(`unsupported config file type "${extension || "(none)"}"; use .jsonnet or .json`, { file });
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new ConfigError(describeReadError(error), { file });
  }
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "file not found";
  if (code === "EISDIR") return "is a directory, not a config file";
  return `cannot read file: ${(error as Error).message}`;
}

function parseJson(file: string, text: string): unknown {
  // Editors on some systems save a byte-order mark; it is not part of the JSON.
  const json = text.startsWith("\uFEFF") ? text.slice(1) : text;
  try {
    return JSON.parse(json);
  } catch (error) {
    // Node's messages often carry no position; users want line:column.
    const problem = locateJsonError(json);
    const message = problem
      ? `invalid JSON at line ${problem.line}, column ${problem.column}: ${problem.reason}`
      : `invalid JSON: ${(error as Error).message}`;
    throw new ConfigError(message, { file });
  }
}

/** The jsonnet library paths a config may import from, in the order they are added (later ones win). */
function jsonnetLibraryDirs(stdlibTargets: readonly Target[]): string[] {
  return stdlibTargets.flatMap((target) => (target.jsonnetStdlibDir ? [dirname(target.jsonnetStdlibDir)] : []));
}

type EvaluateFile = (file: string, searchPath: readonly string[]) => ({ ok: true; json: Buffer } | { ok: false; message: string }) & { read: string[]; missing: string[] };
let evaluator: Promise<EvaluateFile> | undefined;

/**
 * A jsonnet config evaluated to JSON text. Imports resolve beside the importing file, then in
 * `libraryDirs`, the one added last searched first.
 * @throws ConfigError naming the file, with the evaluator's report (message, source excerpt, trace).
 */
export async function evaluateJsonnetText(file: string, libraryDirs: readonly string[], onRead?: (reads: ConfigReads) => void): Promise<string> {
  await readText(file); // the same clear message as for JSON when the file is missing
  evaluator ??= import(new URL("./jsonnet-evaluate.mjs", import.meta.url).href).then((module: { evaluateJsonnetFile: EvaluateFile }) => module.evaluateJsonnetFile);
  const result = (await evaluator)(file, [...libraryDirs].reverse());
  onRead?.({ files: result.read, missing: result.missing });
  if (result.ok) return result.json.toString("utf8");
  throw new ConfigError(`jsonnet ${result.message.trim().replace(/\t/g, "  ")}`, { file });
}
