// User templates: a project's directory of template overrides, searched before the target's
// own, so a team changes generated code without forking the target. An override must read
// only variables its built-in template is given (checked before rendering, with path and
// line); a template name the target lacks is a helper the overrides may include.

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { z } from "zod";
import { ConfigError, GenerationError } from "./errors.js";
import type { Target } from "./target.js";
import { type TemplateVariable, templateVariables } from "./template-variables.js";

/** `user_templates` of a target's config: where the project's template overrides are. */
export const UserTemplatesConfig = z
  .strictObject({
    dir: z.string().min(1).meta({
      description:
        "Directory of template overrides, relative to the config file. A file there at the path of a built-in template " +
        "(its name under the target's template directory) replaces it; docs/reference/templates.md lists the templates and their variables.",
      examples: ["templates"],
    }),
  })
  .meta({ description: "Template overrides searched before the target's own templates." });
export type UserTemplatesConfig = z.infer<typeof UserTemplatesConfig>;

/** A config's override directory, absolute, and the config file that named it (for errors). */
export interface UserTemplates {
  dir: string;
  configFile: string;
}

/**
 * The override directory a config names (`user_templates.dir`, relative to the config
 * file), or undefined when it names none.
 * @throws ConfigError when the directory does not exist.
 */
export function userTemplatesOf(config: unknown, configFile: string): UserTemplates | undefined {
  const dir = (config as { user_templates?: UserTemplatesConfig } | null)?.user_templates?.dir;
  if (dir === undefined) return undefined;
  const absolute = resolve(dirname(configFile), dir);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
    throw new ConfigError("invalid configuration", {
      file: configFile,
      issues: [{ path: "user_templates.dir", message: `no directory ${absolute}` }],
    });
  }
  return { dir: absolute, configFile };
}

/** Template names (paths with `/`) of every `.njk` file under `dir`, outside `node_modules`, sorted. */
function templateNames(dir: string): string[] {
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" }).map((name) => name.split(sep).join("/"));
  return names.filter((name) => name.endsWith(".njk") && !name.split("/").includes("node_modules")).sort();
}

/** The context variables each of a target's built-in templates reads, by template name. */
export function builtInTemplateVariables(target: Target): Map<string, TemplateVariable[]> {
  return new Map(templateNames(target.templateDir).map((name) => [name, templateVariables(readFileSync(join(target.templateDir, name), "utf8"))]));
}

/**
 * Checks every override against the built-in template it replaces: it must parse, and read
 * no variable the built-in is not given. Reports every problem at once.
 * @throws GenerationError naming the config file and each override's path, line and column.
 */
export function checkOverrides(target: Target, overrides: UserTemplates): void {
  const problems: string[] = [];
  for (const name of templateNames(overrides.dir)) {
    const builtIn = join(target.templateDir, name);
    if (!existsSync(builtIn)) continue;
    const path = join(overrides.dir, name);
    let used: TemplateVariable[];
    try {
      used = templateVariables(readFileSync(path, "utf8"));
    } catch (error) {
      problems.push(`${path}: does not parse: ${error instanceof Error ? error.message.replace(/\s+/g, " ") : String(error)}`);
      continue;
    }
    const given = templateVariables(readFileSync(builtIn, "utf8"));
    const known = new Set(given.map((variable) => variable.name));
    for (const variable of used.filter((candidate) => !known.has(candidate.name))) {
      const offer = given.length === 0 ? "it is given no variables" : `it is given: ${given.map((v) => v.name).join(", ")}`;
      problems.push(`${path}:${variable.line}:${variable.column}: unknown variable "${variable.name}" in the override of ${name} (${offer})`);
    }
  }
  if (problems.length > 0) {
    throw new GenerationError(`template overrides use unknown variables:\n  ${problems.join("\n  ")}`, { file: overrides.configFile });
  }
}

/**
 * A render error raised in an override as a user's error naming its file and line, or
 * undefined when the error did not come from a file of the override directory.
 */
export function overrideRenderError(error: unknown, overrides: UserTemplates): GenerationError | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const match = /\((\/[^)]+)\) \[Line (\d+), Column (\d+)\]\s*([\s\S]*)/.exec(current.message);
    if (!match || !match[1]!.startsWith(overrides.dir + sep)) continue;
    const [, file, line, column, reason] = match;
    return new GenerationError(`${file}:${line}:${column}: ${reason!.trim().replace(/\s+/g, " ")}`, { file: overrides.configFile });
  }
  return undefined;
}
