// Python annotations of SPEC's field types, with the imports each needs. The one place
// that knows how a config field type becomes a Python type.

import { ImportCollector } from "../../../codegen/index.js";

/** Scalar field types (every FieldType but `nested`). */
export type ScalarType = "uuid" | "str" | "email" | "int" | "float" | "bool" | "datetime" | "date" | "json";

/** The annotation of a scalar type; adds its imports to `imports`. */
export function scalarAnnotation(type: ScalarType, imports: ImportCollector): string {
  switch (type) {
    case "uuid":
      imports.add("uuid");
      return "uuid.UUID";
    case "email":
      imports.addFrom("pydantic", "EmailStr");
      return "EmailStr";
    case "datetime":
      imports.addFrom("datetime", "datetime");
      return "datetime";
    case "date":
      imports.addFrom("datetime", "date");
      return "date";
    case "json":
      imports.addFrom("typing", "Any");
      return "dict[str, Any]";
    default:
      return type;
  }
}

/** `X | None` when nullable. */
export function optional(annotation: string, nullable: boolean): string {
  return nullable ? `${annotation} | None` : annotation;
}
