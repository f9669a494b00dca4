// Generated schema modules spell a user's enum with its module (`blog.models.ArticleStatus`,
// after `import blog.models`), so no generated class name can take its name. In a class
// body, an attribute with a default named like that module's top package (`blog`) would
// hide the package from the annotations after it, and the module would fail to import;
// such a name is refused here, at its path.

import type { z } from "zod";

/** Keys whose lists hold the names of class attributes: fields, action params, filter fields. */
const NAMED_LISTS = new Set(["fields", "params"]);

/** Adds an issue at every field, param or filter field name of `resource` that is the top package of an enum it uses. */
export function checkEnumPackages(resource: unknown, ctx: z.RefinementCtx): void {
  const packages = new Map<string, string>();
  collectEnumPackages(resource, packages);
  if (packages.size === 0) return;
  walk(resource, [], (value, path, owner) => {
    const key = path[path.length - 2];
    if (typeof key !== "string" || !NAMED_LISTS.has(key)) return;
    // A bare name lists a filter field; elsewhere (an order's fields, search's) it names one declared already.
    if (typeof value === "string" && (owner as { type?: unknown }).type !== "filter") return;
    const name = typeof value === "string" ? value : (value as { name?: unknown }).name;
    const enumPath = typeof name === "string" ? packages.get(name) : undefined;
    if (enumPath === undefined) return;
    ctx.addIssue({
      code: "custom",
      path: typeof value === "string" ? path : [...path, "name"],
      message: `"${name}" is the package of the enum ${enumPath}, which this resource's schemas import as ${enumPath}: an attribute of that name would hide it; move the enum to another package or rename the attribute`,
    });
  });
}

/** Records the top package of every enum in `value` (any depth). Builds no paths: most resources use no enum. */
function collectEnumPackages(value: unknown, packages: Map<string, string>): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectEnumPackages(item, packages);
    return;
  }
  const spec = value as { type?: unknown; values?: unknown; enum?: unknown };
  if ((spec.type === "enum" || spec.values === "enum") && typeof spec.enum === "string") packages.set(spec.enum.split(".")[0]!, spec.enum);
  for (const key in value) collectEnumPackages((value as Record<string, unknown>)[key], packages);
}

type Visit = (value: unknown, path: PropertyKey[], owner: object) => void;

/** Calls `visit` on every object in `value`, and every string in its arrays, with its path and the object holding the array. */
function walk(value: unknown, path: PropertyKey[], visit: Visit, owner: object = {}): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === "string") visit(item, [...path, index], owner);
      else walk(item, [...path, index], visit, owner);
    });
  } else if (typeof value === "object" && value !== null) {
    visit(value, path, owner);
    for (const [key, item] of Object.entries(value)) walk(item, [...path, key], visit, value);
  }
}
