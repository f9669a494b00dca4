// `references` on scalar fields: which resource of the same app a field holds the key of.
// Generated tests create that resource first and send its key. Checked once per app, since
// a reference names a sibling resource: it must exist, expose its primary key and match the
// key's type (checked with the app's schema), have an entry whose route creates rows, and
// required references must not form a cycle (nothing could be created first). Which entry
// creates rows is what its operation declares (`Route.creates`), known once the operations
// run: the `references` operation checks those two.

import type { z } from "zod";
import type { ValidationIssue } from "../../../codegen/index.js";
import { type FieldSpec, FieldList, ParamList, type ScalarField, isScalar } from "./fields.js";
import { defaultResourceName, withArticle } from "./naming.js";
import type { OperationConfig } from "./operations.js";
import { DottedPath } from "./primitives.js";

/** The parts of a parsed resource the reference rules read. */
export interface ReferencingResource {
  /** Undefined while the resource's own defaults are not filled yet (cross-checks run first). */
  name?: string;
  model?: string;
  link?: unknown;
  pk: string;
  pk_type: string;
  fields: FieldSpec[];
  operations: OperationConfig[];
}

// Cross-entry checks run even when an entry failed its own schema (zod keeps refining):
// lists may then be missing, so every list is read through `list`.
function list<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The fields a create body of `resource` carries, `entry` being the entry that creates its
 * rows: the entry's own `fields` (each inheriting `references` from the resource field of
 * the same name unless it sets its own), else the resource's scalar fields without a
 * generated (uuid or int) primary key. Undefined when no entry creates rows or its fields
 * do not parse (the operation's options report that).
 */
export function createBodyFields(resource: ReferencingResource, entry: OperationConfig | undefined): ScalarField[] | undefined {
  if (entry === undefined) return undefined;
  if (entry.fields === undefined) {
    const generatedPk = resource.pk_type !== "str";
    return list(resource.fields).filter((field): field is ScalarField => isScalar(field) && !(generatedPk && field.name === resource.pk));
  }
  const parsed = FieldList.safeParse(entry.fields);
  if (!parsed.success) return undefined;
  return parsed.data.filter(isScalar).map((field) => inheritReference(field, resource.fields));
}

/** `field`, with the `references` of the resource field of the same name when it has none. */
export function inheritReference(field: ScalarField, resourceFields: readonly FieldSpec[]): ScalarField {
  if (field.references !== undefined) return field;
  const own = list(resourceFields).find((candidate) => candidate.name === field.name);
  return own !== undefined && isScalar(own) && own.references !== undefined ? { ...field, references: own.references } : field;
}

/** A field list of a resource, where the user wrote it. */
interface FieldsAt {
  fields: readonly FieldSpec[];
  path: readonly PropertyKey[];
}

// Every list whose fields may carry `references`: the resource's fields, each operation's
// `fields` and each action's `params` (those that parse; the operations report the others).
// A list that mentions no `references` anywhere has nothing to check, so it is not parsed.
function fieldLists(resource: ReferencingResource, path: readonly PropertyKey[]): FieldsAt[] {
  const lists: FieldsAt[] = [{ fields: list(resource.fields), path: [...path, "fields"] }];
  list(resource.operations).forEach((entry, index) => {
    for (const key of ["fields", "params"] as const) {
      if (typeof entry !== "object" || entry === null || !mentionsReferences(entry[key])) continue;
      const parsed = (key === "fields" ? FieldList : ParamList).safeParse(entry[key]);
      if (parsed.success) lists.push({ fields: parsed.data, path: [...path, "operations", index, key] });
    }
  });
  return lists;
}

/** Whether `value` (config data as written) holds a `references` key at any depth. */
function mentionsReferences(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(mentionsReferences);
  if (typeof value !== "object" || value === null) return false;
  if (Object.hasOwn(value, "references")) return true;
  for (const key in value) if (mentionsReferences((value as Record<string, unknown>)[key])) return true;
  return false;
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}

// A resource whose model path is malformed has its own error: it names no resource here.
function resourceNames(resources: readonly ReferencingResource[]): string[] {
  return resources.flatMap((resource) => resource.name ?? (DottedPath.safeParse(resource.model).success ? [defaultResourceName(resource.model as string)] : []));
}

/** The problem with a link field showing links of `name` among `resources`, or undefined. */
function linkProblem(name: string, resources: readonly ReferencingResource[]): string | undefined {
  const target = resources.find((resource) => resource.name === name);
  if (target === undefined) return `unknown resource "${name}"; resources of this app: ${quoted(resourceNames(resources))}`;
  if (target.link === undefined) return `resource "${name}" has no link: set link: { name: <its label field> } on it`;
  return undefined;
}

/** The problem with `field` referencing `name` among `resources`, or undefined. */
function referenceProblem(field: ScalarField, name: string, resources: readonly ReferencingResource[]): string | undefined {
  const target = resources.find((resource) => resource.name === name);
  if (target === undefined) return `unknown resource "${name}"; resources of this app: ${quoted(resourceNames(resources))}`;
  if (field.type !== target.pk_type) {
    return `resource "${name}" has ${withArticle(target.pk_type)} primary key: a field referencing it must have type "${target.pk_type}" (this one is "${field.type}")`;
  }
  if (!list(target.fields).some((candidate) => candidate.name === target.pk)) {
    return `resource "${name}" does not list its primary key "${target.pk}" in its fields: tests read the key of the created ${name} from the create response`;
  }
  return undefined;
}

/** Each field of `resource` (its own, its entries' `fields` and `params`) with a `references` to a resource, and where it is. */
function* referencingFields(resource: ReferencingResource, path: readonly PropertyKey[]): Iterable<{ field: ScalarField; path: PropertyKey[] }> {
  for (const at of fieldLists(resource, path)) {
    for (const [index, field] of at.fields.entries()) {
      if (field !== undefined && isScalar(field) && typeof field.references === "string") yield { field, path: [...at.path, index, "references"] };
    }
  }
}

/**
 * Adds an issue for each `references` of the resources of one app that names no resource,
 * or a resource whose key has another type or is not in its fields. `path` leads to the
 * resources list. Whether the referenced resource can be created is known once its
 * operations say which entry creates rows: `creatableIssues`.
 */
export function checkReferences(resources: readonly ReferencingResource[], ctx: z.RefinementCtx, path: readonly PropertyKey[]): void {
  resources.forEach((resource, index) => {
    for (const at of fieldLists(resource, [...path, index])) {
      at.fields.forEach((field, fieldIndex) => {
        if (field?.type === "nested" || typeof field?.references !== "string") return;
        const problem = field.type === "link" ? linkProblem(field.references, resources) : referenceProblem(field, field.references, resources);
        if (problem) ctx.addIssue({ code: "custom", path: [...at.path, fieldIndex, "references"], message: problem });
      });
      checkNestedFieldsOf(at.fields, ctx, at.path);
    }
  });
}

function checkNestedFieldsOf(fields: readonly FieldSpec[], ctx: z.RefinementCtx, path: readonly PropertyKey[]): void {
  fields.forEach((field, index) => {
    if (field?.type !== "nested") return;
    list(field.fields).forEach((sub, subIndex) => {
      if (sub !== undefined && isScalar(sub) && sub.references !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [...path, index, "fields", subIndex, "references"],
          message: "has no effect inside a nested field: nested fields are only read; put it on a field that is sent",
        });
      }
    });
    checkNestedFieldsOf(list(field.fields), ctx, [...path, index, "fields"]);
  });
}

/** A resource of a valid app, with the index of its first entry whose route creates rows (undefined: none does). */
export interface Creatable extends ReferencingResource {
  creates: number | undefined;
}

/**
 * An issue for each `references` (of a valid app's resources) to a resource no entry of
 * which creates rows, and for each cycle of required references between create bodies.
 * `path` leads to the resources list.
 */
export function creatableIssues(resources: readonly Creatable[], path: readonly PropertyKey[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  resources.forEach((resource, index) => {
    for (const { field, path: at } of referencingFields(resource, [...path, index])) {
      const target = resources.find((candidate) => candidate.name === field.references);
      if (target !== undefined && target.creates === undefined) {
        issues.push({ path: at, message: `resource "${target.name}" has no create operation: tests create the referenced resource first, through its create route` });
      }
    }
  });
  cycles(resources, path, issues);
  return issues;
}

/** A required reference in a create body: `from` cannot be created before `to`. */
interface Edge {
  from: number;
  to: number;
  field: string;
}

// A cycle of required references: each resource needs another created first, forever.
// Reported once, at the create entry of the resource where the cycle closes.
function cycles(resources: readonly Creatable[], path: readonly PropertyKey[], issues: ValidationIssue[]): void {
  const edges = new Map<number, Edge[]>();
  resources.forEach((resource, from) => {
    const entry = resource.creates === undefined ? undefined : list(resource.operations)[resource.creates];
    // A create body holds references only from its own fields or, by inheritance, the resource's.
    if (!mentionsReferences(resource.fields) && !mentionsReferences(entry?.fields)) return;
    const required = (createBodyFields(resource, entry) ?? []).filter((field) => field.required && field.references !== undefined);
    edges.set(
      from,
      required.flatMap((field) => {
        const to = resources.findIndex((candidate) => candidate.name === field.references);
        return to === -1 ? [] : [{ from, to, field: field.name }];
      }),
    );
  });
  const state = new Map<number, "visiting" | "done">();
  const trail: Edge[] = [];
  const visit = (node: number): void => {
    state.set(node, "visiting");
    for (const edge of edges.get(node) ?? []) {
      if (state.get(edge.to) === "visiting") {
        const start = trail.findIndex((step) => step.from === edge.to);
        const loop = [...trail.slice(start === -1 ? trail.length : start), edge];
        const names = [...loop.map((step) => resources[step.from]!.name), resources[edge.to]!.name].join(" → ");
        issues.push({
          path: [...path, edge.from, "operations", resources[edge.from]!.creates!],
          message: `required references form a cycle (${names}, through "${edge.field}"): tests cannot create any of them first; make one of these fields optional`,
        });
      } else if (state.get(edge.to) === undefined) {
        trail.push(edge);
        visit(edge.to);
        trail.pop();
      }
    }
    state.set(node, "done");
  };
  resources.forEach((_, node) => {
    if (state.get(node) === undefined) visit(node);
  });
}
