// Config paths as users read them: `apps[0].config.resources[2].fields[0].type`. Both the
// loader (schema errors) and the engine (operation-option errors) report through here, so
// every message names a path the same way.

import type { z } from "zod";
import type { ConfigIssue } from "./errors.js";

/** Renders path segments as `a.b[0].c`. */
export function formatConfigPath(segments: readonly PropertyKey[], base = ""): string {
  let path = base;
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else path += path === "" ? String(segment) : `.${String(segment)}`;
  }
  return path;
}

/**
 * One `ConfigIssue` per zod problem (one per unknown key), with paths under `base`. A value
 * that fits none of a union's options is reported with the problems of the one option of
 * its own type (a string where names or objects may go), when exactly one is.
 */
export function configIssuesOf(error: z.ZodError, base = ""): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) issues.push({ path: formatConfigPath([...path, key], base), message: "unknown key" });
      return;
    }
    // A union with a message of its own says what it expects; zod's default says nothing.
    const option = issue.code === "invalid_union" && issue.message === "Invalid input" ? optionOfItsType(issue.errors) : undefined;
    if (option !== undefined) for (const inner of option) add(inner, path);
    else issues.push({ path: formatConfigPath(path, base), message: issue.message });
  };
  for (const issue of error.issues) add(issue, []);
  return issues;
}

/** The problems of the only union option whose failure is not the value's own type. */
function optionOfItsType(options: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  const notOfItsType = (problem: z.core.$ZodIssue) => problem.path.length === 0 && (problem.code === "invalid_type" || problem.code === "invalid_value");
  const ofItsType = options.filter((problems) => !problems.some(notOfItsType));
  return ofItsType.length === 1 ? ofItsType[0] : undefined;
}
