// A filter field resolved against its resource: the Python type of one value, and why a
// field cannot be what the config says (a bool filter on a str field, a `ref_resource`
// that does not exist or has no `link`). The `filter` operation validates with
// `filterProblems` and builds with `resolveFilterField`; they agree by construction.

import { ImportCollector } from "../../../../codegen/index.js";
import { DEFAULT_OPERATORS, type FilterConfig, type LiteralType, type ResolvedApp, type ResourceConfig, type StructuredFilterField, isScalar } from "../../config/schema.js";
import { type ValueType, enumAnnotation, filterBodyAnnotation, filterValueAnnotation } from "../../python/annotations.js";
import type { FilterField } from "../list/query.js";

/** The literal type of a resource field's type, for `literal` filters without `type`. */
const LITERAL_OF: Partial<Record<string, LiteralType>> = { str: "str", email: "str", int: "int", float: "float", date: "date", datetime: "datetime", uuid: "uuid" };

/** Field types each kind of values accepts (when the field is in the resource's fields). */
const KIND_TYPES: Partial<Record<StructuredFilterField["values"], readonly string[]>> = {
  bool: ["bool"],
  free_text: ["str", "email"],
};

/** A problem with one filter field, at a key of the field. */
export interface FilterProblem {
  key: "name" | "values" | "type" | "ref_resource" | "operators" | "enum";
  message: string;
}

function refTarget(app: ResolvedApp, name: string): ResourceConfig | undefined {
  return app.config.resources.find((resource) => resource.name === name);
}

/** The literal type of a `literal` field: its own `type`, else its resource field's. */
function literalType(field: StructuredFilterField, resource: ResourceConfig): LiteralType | undefined {
  if (field.type !== undefined) return field.type;
  const own = resource.fields.find((candidate) => candidate.name === field.name);
  return own === undefined ? undefined : LITERAL_OF[own.type];
}

/** Why `field` cannot filter `resource` (of `app`); empty when it can. */
export function filterProblems(field: StructuredFilterField, resource: ResourceConfig, app: ResolvedApp): FilterProblem[] {
  const problems: FilterProblem[] = [];
  const own = resource.fields.find((candidate) => candidate.name === field.name);
  if (own?.type === "nested" || own?.type === "json") {
    problems.push({ key: "name", message: `"${field.name}" is ${own.type === "json" ? "a json" : "a nested"} field; filters compare scalar columns` });
    return problems;
  }
  if (own?.type === "enum" && field.values !== "enum") {
    problems.push({ key: "values", message: `"${field.name}" is an enum field (${own.enum}); its values are "enum"` });
  }
  if (own?.type === "enum" && field.values === "enum" && field.enum !== own.enum) {
    problems.push({ key: "enum", message: `"${field.name}" holds members of ${own.enum}, not of ${field.enum}` });
  }
  const accepted = KIND_TYPES[field.values];
  if (own !== undefined && own.type !== "enum" && accepted !== undefined && !accepted.includes(own.type)) {
    problems.push({ key: "values", message: `"${field.name}" is ${own.type === "int" ? "an" : "a"} ${own.type} field; ${field.values} values need ${accepted.join(" or ")}` });
  }
  if (field.values === "literal") {
    const type = literalType(field, resource);
    if (type === undefined) {
      problems.push({ key: "type", message: `required: "${field.name}" is not a scalar field of this resource, so give the type of its values` });
    } else if (field.type !== undefined && own !== undefined && LITERAL_OF[own.type] !== field.type) {
      problems.push({ key: "type", message: `"${field.name}" is ${own.type === "int" ? "an" : "a"} ${own.type} field; type "${field.type}" does not match it` });
    } else if (type !== "str" && field.operators.some((op) => op === "contains" || op === "starts_with")) {
      problems.push({ key: "operators", message: `contains and starts_with compare text; "${field.name}" holds ${type} values` });
    }
  }
  if (field.values === "ref") {
    const target = refTarget(app, field.ref_resource!);
    if (target === undefined) {
      problems.push({ key: "ref_resource", message: `unknown resource "${field.ref_resource}"; resources of this app: ${app.config.resources.map((candidate) => `"${candidate.name}"`).join(", ")}` });
    } else {
      if (target.link === undefined) problems.push({ key: "ref_resource", message: `resource "${target.name}" has no link: set link: { name: <its label field> } on it, so filter values can be shown and searched` });
      if (own !== undefined && own.type !== target.pk_type) {
        problems.push({ key: "ref_resource", message: `resource "${target.name}" has ${target.pk_type === "int" ? "an" : "a"} ${target.pk_type} key, but "${field.name}" is ${own.type === "int" ? "an" : "a"} ${own.type} field` });
      }
    }
  }
  if (field.values === "self") {
    if (resource.link === undefined) problems.push({ key: "values", message: "self values are rows of this resource: set link: { name: <its label field> } on the resource" });
    if (own !== undefined && own.type !== resource.pk_type) {
      problems.push({ key: "values", message: `self values are keys of this resource (${resource.pk_type}), but "${field.name}" is ${own.type === "int" ? "an" : "a"} ${own.type} field` });
    }
  }
  return problems;
}

/**
 * The filter's fields as structured fields: a bare name (kiln's form) takes its values from
 * the resource field's type, and no `fields` at all means every scalar field but json ones.
 * A bare name that is no field of the resource becomes a `literal` without a type, which
 * the filter operation's `validate` refuses before `filterProblems` sees it.
 */
export function structuredFields(options: FilterConfig, resource: ResourceConfig, app: ResolvedApp): StructuredFilterField[] {
  const given = options.fields ?? resource.fields.filter((field) => isScalar(field) && field.type !== "json").map((field) => field.name);
  return given.map((field) => (typeof field === "string" ? inferredField(field, resource, app) : field));
}

function inferredField(name: string, resource: ResourceConfig, app: ResolvedApp): StructuredFilterField {
  const own = resource.fields.find((field) => field.name === name);
  const structured = (values: StructuredFilterField["values"], extra: Partial<StructuredFilterField> = {}): StructuredFilterField => ({
    name,
    values,
    operators: [...DEFAULT_OPERATORS[values]],
    ...extra,
  });
  if (own === undefined || !isScalar(own)) return structured("literal");
  if (own.type === "bool") return structured("bool");
  if (own.type === "enum") return structured("enum", { enum: own.enum });
  const target = own.references === undefined ? undefined : refTarget(app, own.references);
  if (target?.link !== undefined) return structured("ref", { ref_resource: target.name });
  if (own.type === "str" || own.type === "email") return structured("free_text");
  return structured("literal");
}

/** `field` as the list's query reads it. Only for fields without `filterProblems`. */
export function resolveFilterField(field: StructuredFilterField, resource: ResourceConfig, app: ResolvedApp, runtimePackage: string): FilterField {
  const imports = new ImportCollector();
  const base = { name: field.name, kind: field.values, operators: field.operators, imports };
  const annotations = (type: ValueType) => ({
    annotation: filterValueAnnotation(type, runtimePackage, imports),
    bodyAnnotation: filterBodyAnnotation(type, runtimePackage, imports),
  });
  switch (field.values) {
    case "enum":
      return { ...base, ...annotations({ enum: field.enum! }), enumClass: enumAnnotation(field.enum!, imports) };
    case "bool":
      return { ...base, ...annotations("bool") };
    case "free_text":
      return { ...base, ...annotations("str") };
    case "literal": {
      const type = literalType(field, resource)!;
      return { ...base, ...annotations(type), literalType: type };
    }
    case "ref":
      return { ...base, ...annotations(refTarget(app, field.ref_resource!)!.pk_type), refResource: field.ref_resource };
    case "self":
      return { ...base, ...annotations(resource.pk_type) };
  }
}
