// A target is a pluggable generator: its config schema, templates, operations group and
// jsonnet stdlib. Targets are found through package manifests (group `codegen.targets`),
// so a third-party npm package can add one. The engine never imports a target directly.

import { basename } from "node:path";
import type { z } from "zod";
import type { ImportFormatOptions } from "./imports.js";
import { entryPoints, loadEntryPoint } from "./plugins.js";
import type { RenderRegistry } from "./render.js";

/** A generator the CLI can dispatch to with `--target <name>`. */
export interface Target<C = any> {
  /** Used for `--target` dispatch and as the import prefix of the jsonnet stdlib (`be/fields.libsonnet`). */
  name: string;
  /** Output language; picks the import formatter and the banner's comment syntax. */
  language: string;
  /** The config schema; its `scoped()` list fields define the scope tree. */
  schema: z.ZodType<C>;
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
   * Formats one assembled file (banner included) before it is planned, written or checked,
   * e.g. with the output language's formatter; return `content` for files left as they are.
   * @default files are written as the templates render them
   */
  formatFile?(path: string, content: string): Promise<string>;
}

/** Targets registered under `codegen.targets`, in discovery order. */
export async function discoverTargets(options: { cwd?: string } = {}): Promise<Target[]> {
  const targets: Target[] = [];
  for (const entry of await entryPoints("codegen.targets", options)) {
    const target = (await loadEntryPoint(entry)) as Target;
    checkTarget(target, `${entry.packageName}: codegen.targets.${entry.name}`);
    targets.push(target);
  }
  return targets;
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
