// Request bodies: `{Model}Create`, `{Model}Update` and an action's `{Action}Params`. Scalar
// fields only (SPEC nested rule 4). Create bodies require what the config requires; update
// bodies make every field optional (partial PATCH) and refuse an explicit null for columns
// that are not nullable.

import { ImportCollector, Name } from "../../../codegen/index.js";
import { type FieldSpec, type ScalarField, isScalar } from "../config/schema.js";
import { optional, scalarAnnotation } from "../python/annotations.js";
import { fieldDefault } from "../python/literals.js";
import { type ResourceView, collectionKey } from "../resource.js";
import { inheritReference } from "../config/references.js";
import { type Field, SchemaClass, type SchemaModule, fieldNamed } from "./schemas.js";

/** Fields of a write body: the op's own list, else the resource's scalar fields without a generated (uuid or int) primary key. */
export function writeFields(view: ResourceView, own: readonly FieldSpec[] | undefined): ScalarField[] {
  if (own) return own as ScalarField[]; // the op's Options already rejected nested fields here
  const generatedPk = view.config.pk_type !== "str";
  return view.config.fields.filter((field): field is ScalarField => isScalar(field) && !(generatedPk && field.name === view.pk));
}

/** The collection key `spec` references (its own `references`, else the resource field's of the same name). */
function referencesOf(view: ResourceView | undefined, spec: ScalarField): string | undefined {
  if (view === undefined) return undefined;
  const name = inheritReference(spec, view.config.fields).references;
  return name === undefined ? undefined : collectionKey(view, name);
}

/** A field of a request body: required unless the config says otherwise, with its default. */
function bodyField(spec: ScalarField, names: readonly string[], imports: ImportCollector, view?: ResourceView): Field {
  const annotation = optional(scalarAnnotation(spec.type, imports), spec.nullable);
  const fallback = spec.default !== undefined ? fieldDefault(spec.default, imports) : spec.nullable ? "None" : undefined;
  return fieldNamed(spec.name, names, { annotation, default: spec.required ? undefined : fallback, description: spec.description, references: referencesOf(view, spec) });
}

/** `{Model}Create`, added to the resource's schemas. */
export function createSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) => bodyField(spec, names, imports, view));
  return module.add(new SchemaClass({ module, name: `${view.model.name}Create`, doc: "The body of a create request.", fields: schemaFields, imports }));
}

/** `{Model}Update`, added to the resource's schemas; fields that are not nullable may be omitted but not sent as null. */
export function updateSchema(module: SchemaModule, view: ResourceView, fields: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  const names = fields.map((spec) => spec.name);
  const schemaFields = fields.map((spec) =>
    fieldNamed(spec.name, names, { annotation: optional(scalarAnnotation(spec.type, imports), true), default: "None", description: spec.description, references: referencesOf(view, spec) }),
  );
  return module.add(
    new SchemaClass({
      module,
      name: `${view.model.name}Update`,
      doc: "The body of a partial update: only the fields sent are changed.",
      fields: schemaFields,
      rejectNull: schemaFields.filter((_field, index) => !fields[index]!.nullable).map((field) => field.attribute),
      imports,
    }),
  );
}

/** `{Action}Params`, the typed body of an action, added to the resource's schemas. */
export function paramsSchema(module: SchemaModule, action: { name: string; slug: string }, params: readonly ScalarField[]): SchemaClass {
  const imports = new ImportCollector();
  return module.add(
    new SchemaClass({
      module,
      name: `${new Name(action.name).pascal}Params`,
      doc: `Params of the \`\`${action.slug}\`\` action.`,
      fields: params.map((param) => bodyField(param, params.map((other) => other.name), imports)),
      imports,
    }),
  );
}
