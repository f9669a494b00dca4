// A target is a pluggable generator: its config schema, templates, operations group and
// jsonnet stdlib. Targets are found through package manifests (group `codegen.targets`),
// so a third-party npm package can add one. The engine never imports a target directly.

import { basename } from "node:path";
import type { z } from "zod";
import type { ImportFormatOptions } from "./imports.js";
import { CLIError, type ConfigIssue } from "./errors.js";
import type { JsonSchema } from "./json-schema.js";
import type { OperationRegistry } from "./registry.js";
import { type EntryPoint, entryPoints, loadEntryPoint } from "./plugins.js";
import type { RenderRegistry } from "./render.js";

/** A generator the CLI can dispatch to with `--target <name>`. */
export interface Target<C = any> {
  /** Used for `--target` dispatch and as the import prefix of the jsonnet stdlib (`be/fields.libsonnet`). */
  name: string;
  /** Output language; picks the import formatter and the banner's comment syntax. */
  language: string;
  /** The config schema; its `scoped()` list fields define the scope tree. */
  schema: z.ZodType<C>;
  /**
   * The JSON Schema of the config a user writes (`codegen schema`), for a target whose zod
   * schema leaves parts to its operations: `operations` are those of its group, a package's
   * too, so each can contribute the `Options` it parses. @default the input side of `schema`
   */
  jsonSchema?(operations: OperationRegistry): JsonSchema;
  /** Display name of the config class, listed by `codegen targets` (e.g. `be.config.schema.ProjectConfig`). */
  configClass?: string;
  /** Directory of the target's templates. */
  templateDir: string;
  /** Plugin-manifest group holding this target's operations, e.g. `be.operations`. */
  operationsEntryPoint: string;
  /** Directory named after the target whose files users import as `<name>/...`. @default undefined */
  jsonnetStdlibDir?: string;
  /** Registers the renderers of the target's output types. Called before rendering. */
  registerRenderers?(registry: RenderRegistry): void;
  /** The generated code's import prefix. @default config.package_prefix, or "" */
  packagePrefix?(config: C): string;
  /** Extra hints for the import formatter (first-party packages, ...). */
  importOptions?(config: C): ImportFormatOptions;
  /**
   * Whether the generated file at `path` aggregates other generated files (a package's
   * `__init__`, an index module importing its siblings). Such files are renamed into place
   * after all others, deepest first, so a run killed while renaming never leaves one importing
   * a module that is not there yet. @default no file aggregates
   * @example aggregates: (path) => path.endsWith("/index.ts")
   */
  aggregates?(path: string): boolean;
  /**
   * An importable URL of a module whose `formatFile(path, content): Promise<string>` export
   * formats one assembled file (banner included) before it is planned, written or checked,
   * e.g. with the output language's formatter, returning `content` for files left as they
   * are. A module, so a run that formats nothing never loads it. The answer must depend on
   * the path and content alone: a run takes it from the last written file for a file whose
   * assembled text did not change (format.ts).
   * @default files are written as the templates render them
   * @example formatter: new URL("./format.js", import.meta.url).href
   */
  formatter?: string;
  /**
   * Keys of a valid config that the target accepts but that change nothing (a key kept for
   * compatibility with another tool, say), each with its config path and why. Called with
   * the evaluated config once it passed `schema`; the run goes on and reports them as warnings.
   * @default no warnings
   * @example configWarnings: (raw) => (hasKey(raw, "telemetry") ? [{ path: "telemetry", message: "has no effect" }] : [])
   */
  configWarnings?(raw: unknown): ConfigIssue[];
  /**
   * Reads the files a valid config names by paths relative to the config file (templates
   * kept beside it, say) and returns the config with their contents. An unreadable file is
   * an issue at its config path; any issue stops the run before anything is built.
   * `files` lists the absolute paths it read: a later run has nothing to do only while they
   * are unchanged (their content is part of the run's input hash); without it, every run of
   * such a config does the whole work.
   * @default the config is used as validated, and no file is read
   */
  readConfigFiles?(config: C, configFile: string): { config: C; issues: ConfigIssue[]; files?: string[] };
}

/**
 * Targets registered under `codegen.targets`, in discovery order.
 * @throws DuplicateTargetError when two installed packages declare targets of the same name.
 */
export async function discoverTargets(options: { cwd?: string } = {}): Promise<Target[]> {
  const entries = await entryPoints("codegen.targets", options);
  for (const entry of entries) checkUnique(entries, entry.name);
  const targets: Target[] = [];
  for (const entry of entries) targets.push(await loadTargetEntry(entry));
  return targets;
}

/**
 * Loads only the target named `name` (its entry name in the manifest, which must be the
 * target's name), or undefined when none is installed: start-up pays for one target's modules.
 * @throws DuplicateTargetError when two installed packages declare a target of that name.
 */
export async function loadTarget(name: string, options: { cwd?: string } = {}): Promise<Target | undefined> {
  const entries = await entryPoints("codegen.targets", options);
  checkUnique(entries, name);
  const entry = entries.find((candidate) => candidate.name === name);
  return entry && loadTargetEntry(entry);
}

/** Names of the installed targets, in discovery order, read from the manifests without loading any. */
export async function targetNames(options: { cwd?: string } = {}): Promise<string[]> {
  return (await entryPoints("codegen.targets", options)).map((entry) => entry.name);
}

/** Two installed packages declare a target of the same name: which one runs would be a guess. */
export class DuplicateTargetError extends CLIError {
  override name = "DuplicateTargetError";
}

function checkUnique(entries: readonly EntryPoint[], name: string): void {
  const same = entries.filter((entry) => entry.name === name);
  if (same.length < 2) return;
  const packages = same.map((entry) => `${entry.packageName} (${entry.packageDir})`);
  throw new DuplicateTargetError(
    `${same.length} installed packages declare a target named "${name}": ${packages.join(" and ")}; ` +
      "uninstall all but one of them",
  );
}

async function loadTargetEntry(entry: EntryPoint): Promise<Target> {
  const target = (await loadEntryPoint(entry)) as Target;
  const where = `${entry.packageName}: codegen.targets.${entry.name}`;
  checkTarget(target, where);
  if (target.name !== entry.name) throw new TypeError(`${where}: the entry is named "${entry.name}" but its target "${target.name}"`);
  return target;
}

/** The package prefix of a config under a target's rule. */
export function packagePrefixOf(target: Target, config: unknown): string {
  if (target.packagePrefix) return target.packagePrefix(config);
  const prefix = (config as { package_prefix?: unknown } | null)?.package_prefix;
  return typeof prefix === "string" ? prefix : "";
}

// A malformed target is a plugin author's bug, not a user's config mistake.
function checkTarget(target: Target, where: string): void {
  const required = ["name", "language", "templateDir", "operationsEntryPoint"] as const;
  for (const key of required) {
    if (typeof target?.[key] !== "string") throw new TypeError(`${where}: target has no string "${key}"`);
  }
  if (typeof target.schema?.safeParse !== "function") throw new TypeError(`${where}: target "schema" is not a zod schema`);
  if (target.jsonnetStdlibDir !== undefined && basename(target.jsonnetStdlibDir) !== target.name) {
    throw new TypeError(`${where}: jsonnetStdlibDir must be a directory named "${target.name}"`);
  }
}
