// A form's code, field by field: the draft's type (what the inputs hold), its initial
// values (the create schema's defaults, or the row being edited), the expression turning
// a draft field into the request body's value, and the input element.

import type { Lookup } from "./cells.js";
import { type Imports, jsxAttr, member, tsString } from "./code.js";
import { KIND_CODE } from "./kinds.js";
import type { Presence } from "./presence.js";
import type { PageField } from "./model.js";
import { CATALOG, choiceLabelHook, choicesHook, helpersModule } from "./names.js";

/**
 * Where a form's reference pickers find rows: `valuesFor`, the form's list path when the
 * backend has a filter catalog, lets them ask `POST /_values`; `lookup` names the helpers.
 */
export interface Pickers {
  lookup: Lookup;
  valuesFor?: string;
}

/** One field of a form, with how an empty input is sent. */
export interface FormField {
  field: PageField;
  presence: Presence;
}

/** A flag that cannot be null is a checkbox holding a boolean; every other input holds text. */
const isCheckbox = ({ field, presence }: FormField) => field.kind === "bool" && presence !== "nullable";

/** `title: string;` in the draft's interface. */
export function draftMember(input: FormField): string {
  return `${input.field.name}: ${isCheckbox(input) ? "boolean" : "string"};`;
}

/** The input's value in a new draft: the schema's default, else empty. */
export function initialValue(input: FormField, imports: Imports): string {
  const { field } = input;
  const fallback = field.default;
  if (isCheckbox(input)) return fallback === true ? "true" : "false";
  if (fallback === undefined || fallback === null) return '""';
  if (field.kind === "json") return tsString(JSON.stringify(fallback, null, 2));
  if (field.kind === "datetime") return `${imports.use("runtime/draft", "inputDateTime")}(${tsString(String(fallback))})`;
  return tsString(String(fallback));
}

/** The input's value when editing `row`: the row's value, as the input shows it. */
export function valueFromRow(input: FormField, row: string, read: PageField | undefined, imports: Imports): string {
  if (!read || read.kind === "nested") return isCheckbox(input) ? "false" : '""';
  const value = member(row, read.name);
  if (isCheckbox(input)) return read.nullable ? `${value} ?? false` : value;
  return `${imports.use("runtime/draft", KIND_CODE[input.field.kind].toInput)}(${value})`;
}

/** The body's value of the field, from `draft` through the parser `parse`. */
export function bodyValue(input: FormField, draft: string): string {
  const { field, presence } = input;
  const value = member(draft, field.name);
  if (isCheckbox(input)) return value;
  return `parse.${KIND_CODE[field.kind].parse}(${tsString(field.name)}, ${value}, ${tsString(presence)})`;
}

/** The input element of the field, bound to `draft`, `set` and `errors`. */
export function inputElement(input: FormField, imports: Imports, pickers: Pickers, names: { draft: string; errors: string }): string {
  const { field, presence } = input;
  const common = [
    jsxAttr("label", field.label),
    ...(presence === "required" && !isCheckbox(input) ? ["required"] : []),
    `value={${member(names.draft, field.name)}}`,
    `onChange={set(${tsString(field.name)})}`,
    `error={${member(names.errors, field.name)}}`,
  ].join(" ");
  const fields = "runtime/fields";
  if (field.references) {
    const target = pickers.lookup(field.references);
    const module = helpersModule(target);
    const listed = imports.use(module, choicesHook(target));
    const reference = `{ path: ${tsString(pickers.valuesFor ?? "")}, field: ${tsString(field.name)}, target: ${tsString(target.path)} }`;
    const choices = pickers.valuesFor === undefined ? listed : `(search) => ${imports.use(CATALOG, "useReferenceChoices")}(${reference}, search, ${listed})`;
    return `<${imports.use("runtime/picker", "ReferencePicker")} ${common} useChoices={${choices}} useChoiceLabel={${imports.use(module, choiceLabelHook(target))}} />`;
  }
  if (isCheckbox(input)) return `<${imports.use(fields, "CheckboxField")} ${common} />`;
  if (field.kind === "bool") return `<${imports.use(fields, "FlagSelectField")} ${common} />`;
  if (field.kind === "json") return `<${imports.use(fields, "TextAreaField")} code ${common} />`;
  if (field.multiline) return `<${imports.use(fields, "TextAreaField")} ${common} />`;
  const kind = KIND_CODE[field.kind].textKind;
  return `<${imports.use(fields, "TextField")} ${kind ? `kind=${tsString(kind)} ` : ""}${common} />`;
}
