// Request bodies: `{Model}Create`, `{Model}Update` and an action's `{Action}Params`. Scalar
// fields only (SPEC nested rule 4). Create bodies require what the config requires; update
// bodies make every field optional (partial PATCH: an omitted field is `MISSING`) and accept
// null only for nullable columns. Fields written to a column carry the column's rules.

import { ImportCollector, Name, type ValidationIssue } from "../../../codegen/index.js";
import { inheritReference } from "../config/references.js";
import { type FieldSpec, type ScalarField, isScalar } from "../config/schema.js";
import { columnRuled, optional, requestAnnotation } from "../python/annotations.js";
import { fieldDefault } from "../python/literals.js";
import { type ResourceView, collectionKey, modelRef } from "../resource.js";
import { type Field, SchemaClass, type SchemaModule, fieldNamed } from "./schemas.js";

/**
 * An issue at each field of an entry's own body `fields` that is not scalar: a request body
 * carries scalar fields only. For the `validate` of an operation that writes its `fields`.
 * @example [...bodyFieldIssues([{ name: "author", type: "nested", … }])] // [{ path: ["fields", 0, "type"], message: "nested fields are only allowed in get and list" }]
 */
export function* bodyFieldIssues(fields: readonly FieldSpec[] | undefined): Iterable<ValidationIssue> {
  for (const [index, field] of (fields ?? []).entries()) {
    if (!isScalar(field)) yield { path: ["fields", index, "type"], message: `${field.type} fields are only allowed in get and list` };
  }
}

/** Fields of a write body: the op's own list, else the resource's scalar fields without a generated (uuid or int) primary key. */
export function writeFields(view: ResourceView, own: readonly FieldSpec[] | undefined): ScalarField[] {
  if (own) return own as ScalarField[]; // the op's validate (bodyFieldIssues) already rejected nested fields here
  const generatedPk = view.config.pk_type !== "str";
  return view.config.fields.filter((field): field is ScalarField => isScalar(field) && !(generatedPk && field.name === view.pk));
}

/** The collection key `spec` references (its own `references`, else the resource field's of the same name). */
function referencesOf(view: ResourceView, spec: ScalarField): string | undefined {
  const name = inheritReference(spec, view.config.fields).references;
  return name === undefined ? undefined : collectionKey(view, name);
}

/** `Article.title`: the model attribute a body field is written to. */
function columnOf(view: ResourceView, spec: ScalarField): string {
  return `${view.model.local}.${spec.name}`;
}

/**
 * A field of a request body: required unless the config says otherwise, with its default;
 * `column` (the model attribute it is written to) gives it the column's rules.
 */
function bodyField(
  view: ResourceView,
  spec: ScalarField,
  column: string | undefined,
  names: readonly string[],
  imports: ImportCollector,
  references?: string,
): Field {
  const annotation = optional(requestAnnotation(spec.type, column, view.runtimePackage, imports), spec.nullable);
  const fallback = spec.default !== undefined ? fieldDefault(spec.default, imports) : spec.nullable ? "None" : undefined;
  return fieldNamed(spec.name, names, { annotation, default: spec.required ? undefined : fallback, description: spec.description, references });
}

/** `{Model}Create`, added to the resource's schemas. */
export function createSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) => bodyField(view, spec, columnOf(view, spec), names, imports, referencesOf(view, spec)));
  imports.addFrom(view.model.module, view.model.importName);
  return module.add(new SchemaClass({ module, name: `${view.model.name}Create`, doc: "The body of a create request.", fields: schemaFields, imports }));
}

/** `{Model}Update`, added to the resource's schemas; every field may be omitted, and only a nullable one sent as null. */
export function updateSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector().addFrom("pydantic", "MISSING").addFrom(view.model.module, view.model.importName);
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) => {
    const annotation = optional(requestAnnotation(spec.type, columnOf(view, spec), view.runtimePackage, imports), spec.nullable);
    return fieldNamed(spec.name, names, {
      annotation: `${annotation} | MISSING`,
      default: "MISSING",
      description: spec.description,
      references: referencesOf(view, spec),
    });
  });
  return module.add(
    new SchemaClass({ module, name: `${view.model.name}Update`, doc: "The body of a partial update: only the fields sent are changed.", fields: schemaFields, imports }),
  );
}

/**
 * `{Action}Params`, the typed body of an action, added to the resource's schemas. A param
 * with `references` holds the key of that resource, and is checked against its key column.
 */
export function paramsSchema(module: SchemaModule, view: ResourceView, action: { name: string; slug: string }, params: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const keyColumn = (param: ScalarField): string | undefined => {
    const target = view.app.resources.find((resource) => resource.name === param.references);
    if (target === undefined || !columnRuled(param.type)) return undefined;
    const model = modelRef(target.model);
    imports.addFrom(model.module, model.importName);
    return `${model.local}.${target.pk}`;
  };
  return module.add(
    new SchemaClass({
      module,
      name: `${new Name(action.name).pascal}Params`,
      doc: `Params of the \`\`${action.slug}\`\` action.`,
      fields: params.map((param) => bodyField(view, param, keyColumn(param), params.map((other) => other.name), imports)),
      imports,
    }),
  );
}
