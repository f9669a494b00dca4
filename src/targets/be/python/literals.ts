// JSON values from the config written as Python source: `true` → `True`, `null` → `None`.
// Mutable defaults (lists, dicts) must not be shared between instances, so they become
// `Field(default_factory=...)`.

import type { ImportCollector } from "../../../codegen/index.js";

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : `float("${value}")`;
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(", ")}}`;
}

/** The default of a Pydantic field: a literal, or a `default_factory` for lists and dicts. */
export function fieldDefault(value: unknown, imports: ImportCollector): string {
  if (typeof value !== "object" || value === null) return pythonLiteral(value);
  imports.addFrom("pydantic", "Field");
  const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
  if (empty) return `Field(default_factory=${Array.isArray(value) ? "list" : "dict"})`;
  return `Field(default_factory=lambda: ${pythonLiteral(value)})`;
}
