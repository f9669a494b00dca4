// A resource whose fields are declared per operation (kiln's style: no resource-level
// `fields`): its read shape is what its `get` and `list` entries list together, else, for a
// resource without reads, its key and the fields `create` and `update` take (kiln's names:
// `kilnFieldsRole`). Every issue points at the entry and field the user wrote.

import type { z } from "zod";
import { formatConfigPath } from "../../../codegen/index.js";
import { FieldList, type FieldSpec } from "./fields.js";
import { kilnFieldsRole } from "./kiln.js";
import type { OperationConfig } from "./operations.js";

/** The read shape of a resource without `fields`, or undefined after reporting why there is none. */
export function readShapeFromOperations(
  operations: readonly OperationConfig[],
  pk: { name: string; type: FieldSpec["type"] },
  ctx: z.RefinementCtx,
): FieldSpec[] | undefined {
  const withFields = operations.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.fields !== undefined);
  const reads = withFields.filter(({ entry }) => kilnFieldsRole(entry.type) === "read");
  const writes = withFields.filter(({ entry }) => kilnFieldsRole(entry.type) === "write");
  const sources = reads.length > 0 ? reads : writes;
  if (sources.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["fields"],
      message: "required: list the resource's fields, or give its get, list, create or update entries their own fields",
    });
    return undefined;
  }
  const shape = new Map<string, { field: FieldSpec; path: PropertyKey[] }>();
  if (reads.length === 0) shape.set(pk.name, { field: FieldList.parse([{ name: pk.name, type: pk.type }])[0]!, path: ["pk"] });
  let valid = true;
  for (const { entry, index } of sources) {
    const parsed = FieldList.safeParse(entry.fields);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["operations", index, "fields", ...issue.path] } as never);
      valid = false;
      continue;
    }
    parsed.data.forEach((field, fieldIndex) => {
      const path = ["operations", index, "fields", fieldIndex];
      const seen = shape.get(field.name);
      if (seen === undefined) {
        shape.set(field.name, { field, path });
      } else if (seen.field.type !== field.type) {
        ctx.addIssue({
          code: "custom",
          path: [...path, "type"],
          message: `"${field.name}" is ${seen.field.type} at ${formatConfigPath(seen.path)}: one resource reads a field with one type`,
        });
        valid = false;
      }
    });
  }
  if (!valid) return undefined;
  const key = shape.get(pk.name);
  if (key && key.field.type !== pk.type) {
    ctx.addIssue({
      code: "custom",
      path: [...key.path, "type"],
      message: `the primary key "${pk.name}" has pk_type "${pk.type}": make them agree (set pk_type: "${key.field.type}" or change this type)`,
    });
    valid = false;
  }
  return valid ? [...shape.values()].map(({ field }) => field) : undefined;
}
