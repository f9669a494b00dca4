// A form's code, field by field: the draft's type (what the inputs hold), its initial
// values (the create schema's defaults, or the row being edited), the expression turning
// a draft field into the request body's value, and the input element.

import { type Lookup, nestedTitle } from "./cells.js";
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

/** The keys of related rows (a many-to-many relationship): a picker holding the chosen rows. */
const isRelatedRows = ({ field }: FormField) => field.many && field.references !== undefined;

/** `title: string;` in the draft's interface; a set of rows holds them as `Choice`s (key and label). */
export function draftMember(input: FormField, imports: Imports): string {
  if (isRelatedRows(input)) return `${input.field.name}: ${imports.type("runtime/picker", "Choice")}[];`;
  return `${input.field.name}: ${isCheckbox(input) ? "boolean" : "string"};`;
}

/** The input's value in a new draft: the schema's default, else empty. */
export function initialValue(input: FormField, imports: Imports): string {
  const { field } = input;
  const fallback = field.default;
  if (isRelatedRows(input)) return "[]";
  if (isCheckbox(input)) return fallback === true ? "true" : "false";
  if (fallback === undefined || fallback === null) return '""';
  if (field.kind === "json") return tsString(JSON.stringify(fallback, null, 2));
  if (field.kind === "datetime") return `${imports.use("runtime/draft", "inputDateTime")}(${tsString(String(fallback))})`;
  return tsString(String(fallback));
}

/** The input's value when editing `row`: the row's value, as the input shows it. */
export function valueFromRow(input: FormField, row: string, read: PageField | undefined, imports: Imports, lookup: Lookup): string {
  if (isRelatedRows(input)) return relatedRowsFromRow(input, row, read, imports, lookup);
  if (!read || read.kind === "nested") return isCheckbox(input) ? "false" : '""';
  const value = member(row, read.name);
  if (isCheckbox(input)) return read.nullable ? `${value} ?? false` : value;
  return `${imports.use("runtime/draft", KIND_CODE[input.field.kind].toInput)}(${value})`;
}

/**
 * The chosen rows of an edited row: its read field of the same name lists them (link objects,
 * or nested rows holding the key), each named as its cell names it; none when it does not.
 */
function relatedRowsFromRow(input: FormField, row: string, read: PageField | undefined, imports: Imports, lookup: Lookup): string {
  const target = lookup(input.field.references!);
  if (!read?.many || !read.nested?.fields.some((candidate) => candidate.name === target.keyField)) return "[]";
  return `${member(row, read.name)}.map((item) => ({ key: String(${member("item", target.keyField)}), label: ${nestedTitle(read, "item", imports, lookup)} }))`;
}

/** The body's value of the field, from `draft` through the parser `parse`. */
export function bodyValue(input: FormField, draft: string): string {
  const { field, presence } = input;
  const value = member(draft, field.name);
  if (isRelatedRows(input)) return `${value}.map((choice) => ${field.kind === "int" ? "Number(choice.key)" : "choice.key"})`;
  if (isCheckbox(input)) return value;
  if (field.kind === "enum") return `parse.choice(${tsString(field.name)}, ${value}, ${tsString(presence)}, ${members(field)} as const)`;
  return `parse.${KIND_CODE[field.kind].parse}(${tsString(field.name)}, ${value}, ${tsString(presence)})`;
}

/** The input element of the field, bound to `draft`, `set` and `errors`. */
export function inputElement(input: FormField, imports: Imports, pickers: Pickers, names: { draft: string; errors: string }): string {
  const { field, presence } = input;
  // A checkbox cannot be left empty, nor a set of rows (none is a value).
  const common = [
    jsxAttr("label", field.label),
    ...(presence === "required" && !isCheckbox(input) && !isRelatedRows(input) ? ["required"] : []),
    `value={${member(names.draft, field.name)}}`,
    `onChange={set(${tsString(field.name)})}`,
    `error={${member(names.errors, field.name)}}`,
  ].join(" ");
  const fields = "runtime/fields";
  if (isRelatedRows(input)) return `<${imports.use("runtime/related-rows", "RelatedRowsPicker")} ${common} useChoices={${referenceChoices(input, imports, pickers)}} />`;
  if (field.references) {
    const target = pickers.lookup(field.references);
    return `<${imports.use("runtime/picker", "ReferencePicker")} ${common} useChoices={${referenceChoices(input, imports, pickers)}} useChoiceLabel={${imports.use(helpersModule(target), choiceLabelHook(target))}} />`;
  }
  if (isCheckbox(input)) return `<${imports.use(fields, "CheckboxField")} ${common} />`;
  if (field.kind === "bool") return `<${imports.use(fields, "FlagSelectField")} ${common} />`;
  if (field.kind === "enum") return `<${imports.use(fields, "ChoiceField")} choices={${members(field)}} ${common} />`;
  if (field.kind === "json") return `<${imports.use(fields, "TextAreaField")} code ${common} />`;
  if (field.multiline) return `<${imports.use(fields, "TextAreaField")} ${common} />`;
  const kind = KIND_CODE[field.kind].textKind;
  return `<${imports.use(fields, "TextField")} ${kind ? `kind=${tsString(kind)} ` : ""}${common} />`;
}

/** `["draft", "published"]` (or `[1, 2]`): an enum field's members as an array literal. */
function members(field: PageField): string {
  return `[${(field.choices ?? []).map((member) => (typeof member === "number" ? String(member) : tsString(member))).join(", ")}]`;
}

/**
 * The hook offering rows for a reference field's picker: `POST /_values` through the catalog
 * when the backend has one (the referenced list's rows otherwise), else the referenced list.
 */
function referenceChoices({ field }: FormField, imports: Imports, pickers: Pickers): string {
  const target = pickers.lookup(field.references!);
  const listed = imports.use(helpersModule(target), choicesHook(target));
  const reference = `{ path: ${tsString(pickers.valuesFor ?? "")}, field: ${tsString(field.name)}, target: ${tsString(target.path)} }`;
  return pickers.valuesFor === undefined ? listed : `(search) => ${imports.use(CATALOG, "useReferenceChoices")}(${reference}, search, ${listed})`;
}
