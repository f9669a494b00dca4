// Sample values of generated tests, as Python expressions: valid values that pass the
// schemas' validation (unique strings and e-mails, UTC date-times, JSON objects), a
// second valid value for updates, and one invalid value per type for 422 tests. Values
// written to a column respect it (read from the model at test time). A field with
// `references` gets the key of a resource created first, through its factory. An enum's
// values are its members', read from the class when the tests run (codegen never imports it).

import { ImportCollector, Name } from "../../../../codegen/index.js";
import type { PkType, ScalarField, ScalarFieldType } from "../../config/schema.js";
import { type ValueType, columnRuled, valueType } from "../../python/annotations.js";
import { pythonLiteral, pythonString } from "../../python/literals.js";
import type { ModelRef } from "../../resource.js";

/** What the expressions built for one Python scope need: imports, helpers, fixtures. */
export class Needs {
  readonly imports = new ImportCollector();
  /** The `unique(prefix)` helper is called. */
  unique = false;
  /** Factory fixtures awaited (`make_author`), in first-use order. */
  readonly factories: string[] = [];

  factory(name: string): string {
    if (!this.factories.includes(name)) this.factories.push(name);
    return name;
  }

  /** `Book.isbn`: the model attribute a value reads, its model imported (only here, so only when an expression reads it). */
  column(column: Column): string {
    this.imports.addFrom(column.model.module, column.model.importName);
    return `${column.model.local}.${column.attribute}`;
  }
}

/** The model attribute a value is written to: `Book.isbn` once an expression reads it. */
export interface Column {
  model: ModelRef;
  attribute: string;
}

/** Which of the two valid values: the one create bodies send, or the one updates change to. */
export type Variant = "create" | "update";

const CONSTANTS: Record<Exclude<ScalarFieldType, "str" | "email" | "uuid" | "enum">, Record<Variant, unknown>> = {
  int: { create: 7, update: 8 },
  float: { create: 1.5, update: 2.5 },
  bool: { create: true, update: false },
  // Written as the API answers them (UTC with "Z"), so a round trip compares equal.
  datetime: { create: "2024-01-31T12:00:00Z", update: "2024-02-29T08:30:00Z" },
  date: { create: "2024-01-31", update: "2024-02-29" },
  json: { create: { sample: 1 }, update: { sample: 2 } },
};

/**
 * A valid value of `type` (`unique("title")`, `7`, `"2024-01-31"`); `prefix` names unique
 * strings. With the `column` it is written to (`Book.isbn`), a string fits the column's
 * length (read from the model, imported then) and an integer is random (the column may be
 * unique), in any integer column's range. An enum's value is its first member's (its last
 * for an update), as JSON sends it.
 */
export function sampleValue(type: ValueType, prefix: string, variant: Variant, needs: Needs, column?: Column): string {
  if (typeof type === "object") {
    const [module, name] = Name.fromDotted(type.enum);
    needs.imports.add(module);
    return variant === "create" ? `next(iter(${module}.${name.raw})).value` : `list(${module}.${name.raw})[-1].value`;
  }
  switch (type) {
    case "str":
      needs.unique = true;
      return column === undefined ? `unique(${pythonString(prefix)})` : `unique(${pythonString(prefix)}, ${needs.column(column)})`;
    case "int":
      if (column === undefined) return pythonLiteral(CONSTANTS.int[variant]);
      needs.imports.add("random");
      return "random.randint(1, 32_767)";
    case "email":
      needs.unique = true;
      return `unique(${pythonString(prefix)}) + "@example.com"`;
    case "uuid":
      needs.imports.add("uuid");
      return "str(uuid.uuid4())";
    default:
      return pythonLiteral(CONSTANTS[type][variant]);
  }
}

/** A value of the wrong type for `type`: the schema rejects it with 422. */
export function invalidValue(type: ScalarFieldType): string {
  const values: Record<ScalarFieldType, string> = {
    str: "123",
    email: '"not-an-email"',
    uuid: '"not-a-uuid"',
    int: '"not-an-int"',
    float: '"not-a-number"',
    bool: '"not-a-bool"',
    datetime: '"not-a-datetime"',
    date: '"not-a-date"',
    json: '"not-an-object"',
    // No member's value is a list.
    enum: "[]",
  };
  return values[type];
}

/** The key of a referenced resource, read from the row its factory creates: `(await make_author())["id"]`. */
export function referenceValue(references: string, pk: string, needs: Needs): string {
  return `(await ${needs.factory(`make_${references}`)}())[${pythonString(pk)}]`;
}

/** How the key of a referenced resource is found: its name and primary key attribute. */
export type ReferenceKeys = (resource: string) => { pk: string; pkType: PkType };

/**
 * The fields a generated request sends, each with its value, in config order. A field
 * with `references` gets the key of a resource created first (`"created"`), or only a
 * value of the key's type when the request is refused before anything runs
 * (`"placeholder"`: 404 and 422 tests). Optional fields with `references`, and optional
 * uuid fields (which may be foreign keys the config does not describe), are left out.
 */
export function bodyEntries(
  fields: readonly ScalarField[],
  variant: Variant,
  references: "created" | "placeholder",
  keys: ReferenceKeys,
  needs: Needs,
  model?: ModelRef,
): { name: string; value: string }[] {
  const entries: { name: string; value: string }[] = [];
  for (const field of fields) {
    if (!field.required && (field.references !== undefined || field.type === "uuid")) continue;
    let value: string;
    const column = model && columnRuled(valueType(field)) ? { model, attribute: field.name } : undefined;
    if (field.references === undefined) value = sampleValue(valueType(field), field.name, variant, needs, column);
    else if (references === "created") value = referenceValue(field.references, keys(field.references).pk, needs);
    else value = placeholderKey(keys(field.references).pkType, needs);
    entries.push({ name: field.name, value });
  }
  return entries;
}

/** A key of the right type that no request resolves (the request fails before using it). */
export function placeholderKey(type: PkType, needs: Needs): string {
  if (type === "int") return "0";
  return sampleValue(type, "key", "create", needs);
}

/** `{"name": value, …}`, a Python dict literal. */
export function dictLiteral(entries: readonly { name: string; value: string }[]): string {
  return `{${entries.map((entry) => `${pythonString(entry.name)}: ${entry.value}`).join(", ")}}`;
}
