// Python annotations of SPEC's field types, with the imports each needs. The one place
// that knows how a config field type becomes a Python type.

import { type ImportCollector, Name } from "../../../codegen/index.js";
import type { ScalarFieldType } from "../config/schema.js";

/** Scalar field types (every FieldType but `nested`, `link` and `enum`). */
export type ScalarType = "uuid" | "str" | "email" | "int" | "float" | "bool" | "datetime" | "date" | "json";

/** The user's `Enum` class, by its dotted path (`blog.models.ArticleStatus`). */
export interface EnumType {
  enum: string;
}

/** The type of one value: a scalar type, or the user's enum. */
export type ValueType = ScalarType | EnumType;

/** The value type of a scalar field: its type, or its enum class. */
export function valueType(field: { type: ScalarFieldType; enum?: string }): ValueType {
  if (field.type !== "enum") return field.type;
  if (field.enum === undefined) throw new Error("bug: an enum field passed its checks without enum");
  return { enum: field.enum };
}

/**
 * The user's enum class spelled with its module (`blog.models.ArticleStatus`, the module
 * imported): no name of a generated module (a schema `ArticleStatusFilter`, a model `Page`)
 * can be the same. A field named like the module's top package would shadow it in a class
 * body; the config refuses that (`enumPackageProblems`).
 */
export function enumAnnotation(dotted: string, imports: ImportCollector): string {
  const [module, name] = Name.fromDotted(dotted);
  imports.add(module);
  return `${module}.${name.raw}`;
}

/**
 * The annotation of a scalar type in a response; adds its imports to `imports`. An e-mail
 * address is answered as the text the database holds (request bodies check it on the way in).
 */
export function scalarAnnotation(type: ValueType, imports: ImportCollector): string {
  if (typeof type === "object") return enumAnnotation(type.enum, imports);
  switch (type) {
    case "uuid":
      imports.add("uuid");
      return "uuid.UUID";
    case "email":
      return "str";
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

/**
 * Types of request values checked by `runtime/values.py`: what PostgreSQL could not store is
 * refused, and only the JSON type the schema names is accepted (no `"1"` for an integer).
 */
const STORABLE: Partial<Record<ScalarType, string>> = {
  str: "DbText",
  email: "DbEmail",
  int: "DbInt",
  float: "DbFloat",
  bool: "DbBool",
  datetime: "DbDatetime",
  date: "DbDate",
  json: "DbJson",
};

/** Types whose mapped column may state more (a length, a range, a time zone). */
const COLUMN_RULED: ReadonlySet<ScalarType> = new Set(["str", "email", "int", "float", "datetime"]);

/** Whether a request value of `type` is checked against the column it is written to (`column_rules`). */
export function columnRuled(type: ValueType): boolean {
  return typeof type === "string" && COLUMN_RULED.has(type);
}

/**
 * The annotation of a value a request sends (a body field, an action param, a key in the
 * path): the type refusing what the database cannot store, refined by `column_rules` when
 * `column` (e.g. `Article.title`) names the model attribute it is written to.
 * @example requestAnnotation("str", "Article.title", "blog.api.runtime", imports) // "Annotated[DbText, column_rules(Article.title)]"
 */
export function requestAnnotation(type: ValueType, column: string | undefined, runtimePackage: string, imports: ImportCollector): string {
  // An enum's members are what the column takes (the model decides how it stores them).
  if (typeof type === "object") return enumAnnotation(type.enum, imports);
  return ruled(STORABLE[type], type, column, runtimePackage, imports);
}

/**
 * The annotation of a key in the path: text as the path gives it, checked against the key's
 * column like a body value (a key no row can have is a 422, not a database error).
 */
export function pathKeyAnnotation(type: ScalarType, column: string, runtimePackage: string, imports: ImportCollector): string {
  return ruled(type === "str" ? "DbText" : undefined, type, column, runtimePackage, imports);
}

/** Types a filter value is checked as: text without NUL, finite numbers, dates as ISO text (never seconds). */
const FILTER_VALUE: Partial<Record<ScalarType, string>> = { str: "DbText", email: "DbText", float: "FiniteFloat", date: "DbDate", datetime: "DbDatetime" };

/**
 * Types a filter value is checked as in a search's JSON body: the JSON type the schema names,
 * as in a request body; an e-mail address as any text (it is compared, not stored). No json:
 * filters compare scalar columns only.
 */
const FILTER_BODY_VALUE: Partial<Record<ScalarType, string>> = { ...STORABLE, email: "DbText", json: undefined };

/**
 * The annotation of a value a list is filtered by (a query parameter, a condition of the
 * search body): compared with the column, never written to it, so no column rules; text
 * and dates are checked as their schema says, other types as the query gives them.
 */
export function filterValueAnnotation(type: ValueType, runtimePackage: string, imports: ImportCollector): string {
  if (typeof type === "object") return enumAnnotation(type.enum, imports);
  return checkedAs(FILTER_VALUE[type], type, runtimePackage, imports);
}

/**
 * The annotation of a value a list is filtered by in the JSON body of its search: only the
 * JSON type the schema names, as a request body's values (no `false` for an integer).
 */
export function filterBodyAnnotation(type: ValueType, runtimePackage: string, imports: ImportCollector): string {
  if (typeof type === "object") return enumAnnotation(type.enum, imports);
  return checkedAs(FILTER_BODY_VALUE[type], type, runtimePackage, imports);
}

/** `checked` (a type of `runtime/values.py`), imported; the plain annotation of `type` without one. */
function checkedAs(checked: string | undefined, type: ScalarType, runtimePackage: string, imports: ImportCollector): string {
  if (checked === undefined) return scalarAnnotation(type, imports);
  imports.addFrom(`${runtimePackage}.values`, checked);
  return checked;
}

function ruled(storable: string | undefined, type: ScalarType, column: string | undefined, runtimePackage: string, imports: ImportCollector): string {
  const ruledColumn = column !== undefined && COLUMN_RULED.has(type);
  // A number column's rules carry the number checks themselves (see `ColumnRules`).
  const plain = ruledColumn && (type === "int" || type === "float");
  const base = checkedAs(plain ? undefined : storable, type, runtimePackage, imports);
  if (!ruledColumn) return base;
  imports.addFrom("typing", "Annotated").addFrom(`${runtimePackage}.values`, "column_rules");
  return `Annotated[${base}, column_rules(${column})]`;
}

/** `X | None` when nullable. */
export function optional(annotation: string, nullable: boolean): string {
  return nullable ? `${annotation} | None` : annotation;
}
