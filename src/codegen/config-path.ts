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

/** One `ConfigIssue` per zod problem (one per unknown key), with paths under `base`. */
export function configIssuesOf(error: z.ZodError, base = ""): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ path: formatConfigPath([...issue.path, key], base), message: "unknown key" });
      }
    } else {
      issues.push({ path: formatConfigPath(issue.path, base), message: issue.message });
    }
  }
  return issues;
}
